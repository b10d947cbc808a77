#pragma once
// The study explorer's runs: every run in the ledger (study runs and diagnosis probes) with
// its config, head, environment, capture, status, progress and seal.
#include "ui/models/reviewloader.h"

#include <QAbstractTableModel>

namespace probaudit::ui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        IdColumn,
        KindColumn,
        ConfigColumn,
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
    void setReview(const ReviewPtr& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant environmentToolTip(const ledger::Run& r) const;
    QVariant servingText(const ledger::Run& r, bool toolTip) const;

    ReviewPtr m_review;
};

} // namespace probaudit::ui
