#pragma once
// A sweep's shards in the Runs view (`probaudit sweep`, core/sweep): per shard its array task,
// what the scheduler says, how far its ledger is, and its state (queued, running, complete,
// failed, unknown), tinted; the last line of a failed task's log as its tooltip. The status
// itself is read off the GUI thread (load(): squeue and the shards' ledgers, in the
// background) and swapped in whole.
#include "core/sweep/sweep.h"
#include "ui/models/tablemodel.h"

#include <QFutureWatcher>

namespace probaudit::ui {

struct SweepSnapshot {
    bool found = false;   // the folder holds a sweep of the study
    QString dir, problem; // problem: the sweep cannot be read, or the scheduler not asked
    sweep::Sweep sweep;
    std::vector<sweep::ShardStatus> shards;
    QString mergedInto; // the study's ledger when it holds the merged shards, else ""
};

// Reads the sweep of `studyPath` (its NAME.sweep folder): blocking (runs the scheduler's tools).
SweepSnapshot readSweep(const QString& studyPath);

class SweepModel : public TableModel {
    Q_OBJECT
public:
    enum Columns {
        ShardColumn,
        TaskColumn,
        SchedulerColumn,
        LedgerColumn,
        StateColumn,
        NUM_COLUMNS
    };
    enum Roles { VerdictRole = Qt::UserRole };

    explicit SweepModel(QObject* parent = nullptr);
    // Reads the sweep of `studyPath` in the background; loaded() when it is in.
    void load(const QString& studyPath);
    void setSnapshot(SweepSnapshot snapshot);
    const SweepSnapshot& snapshot() const { return m_snapshot; }
    // "3 shards: 2 complete, 1 failed; not merged" and the like ("" when no sweep).
    QString summary() const;

Q_SIGNALS:
    void loaded();

private:
    int rows() const override { return int(m_snapshot.shards.size()); }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;

    SweepSnapshot m_snapshot;
    QFutureWatcher<SweepSnapshot>* m_watcher = nullptr;
};

} // namespace probaudit::ui
