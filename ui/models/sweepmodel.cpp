#include "ui/models/sweepmodel.h"

#include "ui/models/colors.h"

#include "core/ledger/ledger.h"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent>

#include <filesystem>

namespace probaudit::ui {

SweepSnapshot readSweep(const QString& studyPath) {
    SweepSnapshot s;
    if (studyPath.isEmpty()) {
        return s;
    }
    const std::string study = studyPath.toStdString();
    const std::string dir = sweep::defaultSweepDir(study);
    s.dir = QString::fromStdString(dir);
    if (!QFileInfo::exists(QDir(s.dir).filePath(QStringLiteral("sweep.json")))) {
        return s;
    }
    s.found = true;
    try {
        s.sweep = sweep::Sweep::load(dir);
        std::string problem;
        s.shards = sweep::status(s.sweep, dir, &problem);
        s.problem = QString::fromStdString(problem);
        const std::string merged = std::filesystem::path(dir).replace_extension(".ledger").string();
        if (std::filesystem::exists(merged) &&
            !ledger::Ledger(merged, ledger::Ledger::Mode::Read).meta("merged_from").empty()) {
            s.mergedInto = QString::fromStdString(merged);
        }
    } catch (const std::exception& e) {
        s.problem = QString::fromUtf8(e.what());
    }
    return s;
}

SweepModel::SweepModel(QObject* parent) : TableModel(NUM_COLUMNS, parent) {}

void SweepModel::load(const QString& studyPath) {
    if (m_watcher != nullptr) {
        m_watcher->disconnect(this);
        m_watcher->deleteLater(); // its result is stale; a finished future frees itself
    }
    m_watcher = new QFutureWatcher<SweepSnapshot>(this);
    connect(m_watcher, &QFutureWatcher<SweepSnapshot>::finished, this, [this] {
        setSnapshot(m_watcher->result());
        m_watcher->deleteLater();
        m_watcher = nullptr;
        Q_EMIT loaded();
    });
    m_watcher->setFuture(QtConcurrent::run(readSweep, studyPath));
}

void SweepModel::setSnapshot(SweepSnapshot snapshot) {
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

QString SweepModel::summary() const {
    if (!m_snapshot.found) {
        return {};
    }
    std::map<sweep::Verdict, int> n;
    for (const auto& s : m_snapshot.shards) {
        ++n[s.verdict];
    }
    using V = sweep::Verdict;
    QString text = tr("%1 of %2 shards complete, %3 running, %4 queued, %5 failed")
                       .arg(n[V::Complete])
                       .arg(m_snapshot.shards.size())
                       .arg(n[V::Running])
                       .arg(n[V::Queued])
                       .arg(n[V::Failed]);
    if (n[V::Unknown] > 0) {
        text += tr(", %1 unknown").arg(n[V::Unknown]);
    }
    text += m_snapshot.mergedInto.isEmpty()
                ? tr("; not merged yet")
                : tr("; merged into %1").arg(QDir::toNativeSeparators(m_snapshot.mergedInto));
    if (!m_snapshot.problem.isEmpty()) {
        text += u'\n' + tr("The scheduler could not be asked (%1): states from the shards' "
                           "ledgers alone.")
                            .arg(m_snapshot.problem);
    }
    return text;
}

namespace {

QString verdictText(sweep::Verdict v) {
    switch (v) {
    case sweep::Verdict::Queued:
        return SweepModel::tr("queued");
    case sweep::Verdict::Running:
        return SweepModel::tr("running");
    case sweep::Verdict::Complete:
        return SweepModel::tr("complete");
    case sweep::Verdict::Failed:
        return SweepModel::tr("failed");
    case sweep::Verdict::Unknown:
        return SweepModel::tr("unknown");
    }
    return {};
}

QString ledgerText(const sweep::ShardProgress& p) {
    if (!p.error.empty()) {
        return SweepModel::tr("unreadable: %1").arg(QString::fromStdString(p.error));
    }
    if (!p.exists) {
        return SweepModel::tr("no ledger yet");
    }
    return SweepModel::tr("%1/%2 runs, %3/%4 items")
        .arg(p.runsFinished)
        .arg(p.runsTotal)
        .arg(p.itemsDone)
        .arg(p.itemsTotal);
}

} // namespace

QVariant SweepModel::cellData(const QModelIndex& index, int role) const {
    const sweep::ShardStatus& s = m_snapshot.shards[std::size_t(index.row())];
    if (role == VerdictRole) {
        return int(s.verdict);
    }
    if (role == Qt::BackgroundRole && index.column() == StateColumn) {
        switch (s.verdict) {
        case sweep::Verdict::Complete:
            return tint(unchangedColor(), 0.35);
        case sweep::Verdict::Failed:
            return tint(flipColor(), 0.35);
        case sweep::Verdict::Running:
        case sweep::Verdict::Queued:
            return tint(changedColor(), 0.25);
        case sweep::Verdict::Unknown:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && !s.lastLog.empty()) {
        return tr("The task's last words: %1").arg(QString::fromStdString(s.lastLog));
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case ShardColumn:
        return QStringLiteral("%1/%2").arg(s.index).arg(m_snapshot.sweep.shards);
    case TaskColumn:
        return s.task.empty() ? QStringLiteral("–") : QString::fromStdString(s.task);
    case SchedulerColumn:
        return s.scheduler.state.empty()
                   ? tr("not known")
                   : QStringLiteral("%1 (%2)").arg(QString::fromStdString(s.scheduler.state),
                                                   QString::fromStdString(s.source));
    case LedgerColumn:
        return ledgerText(s.progress);
    case StateColumn:
        return verdictText(s.verdict);
    default:
        return {};
    }
}

QStringList SweepModel::headerTitles() const {
    return {tr("Shard"), tr("Slurm task"), tr("Scheduler"), tr("Its ledger"), tr("State")};
}

} // namespace probaudit::ui
