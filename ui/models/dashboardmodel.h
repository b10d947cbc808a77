#pragma once
// The dashboard: one row per config of the study against the reference run: accuracy, the
// accuracy difference with its 95% interval, agreement, flips, largest Δp, bit-identical
// share, the modal first divergent layer, and the three-level verdict. Rows are coloured by
// severity (SeverityRole) so flipped configs cannot be missed.
#include "ui/models/reviewloader.h"

#include <QAbstractTableModel>

namespace probaudit::ui {

enum class Severity {
    NotRun,       // no finished run yet
    BitIdentical, // every item bit-identical to the reference
    Numbers,      // probabilities moved, no decision flipped
    Flips,        // decisions flipped
};

class DashboardModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        ConfigColumn,
        DiffersColumn,
        AccuracyColumn,
        AccuracyDiffColumn,
        AgreementColumn,
        FlipsColumn,
        MaxDpColumn,
        BitIdenticalColumn,
        FirstLayerColumn,
        VerdictColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        SeverityRole,   // int(Severity)
        VerdictRole,    // QVariantList of three bools: accuracy, decisions, probabilities
        ConfigNameRole, // QString
    };

    explicit DashboardModel(QObject* parent = nullptr);

    void setReview(const ReviewPtr& review);
    const ReviewPtr& review() const { return m_review; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static Severity severityOf(const analysis::ReviewRow& row);

private:
    QVariant toolTip(const analysis::ReviewRow& row, int col) const;
    QVariant cell(const analysis::ReviewRow& row, int col, bool sort) const;

    ReviewPtr m_review;
};

} // namespace probaudit::ui
