#pragma once
// The study explorer's runs: every run in the ledger (study runs and diagnosis probes) with
// its config, head, environment, capture, status, progress and seal.
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

namespace probaudit::ui {

class RunsModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        IdColumn,
        KindColumn,
        ConfigColumn,
        ModelColumn, // a study with model variants: the run's variant
        HeadColumn,
        StatusColumn,
        ItemsColumn,
        CaptureColumn,
        EnvironmentColumn,
        StartedColumn,
        ServingColumn, // endpoint runs: items/s and requests in flight, from the exchanges
        SealColumn,
        NUM_COLUMNS
    };
    enum Roles { RunIdRole = Qt::UserRole };

    explicit RunsModel(QObject* parent = nullptr);

private:
    int rows() const override { return review() ? int(review()->runs.size()) : 0; }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    QVariant environmentToolTip(const ledger::Run& r) const;
    QVariant servingText(const ledger::Run& r, bool toolTip) const;
};

} // namespace probaudit::ui
