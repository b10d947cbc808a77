#pragma once
// The dashboard: one row per config of the study against the reference run: accuracy, the
// accuracy difference with its 95% interval, agreement, flips, largest Δp, bit-identical
// share, the modal first divergent layer, and the three-level verdict. Rows are coloured by
// severity (SeverityRole) so flipped configs cannot be missed.
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

namespace probaudit::ui {

enum class Severity {
    NotRun,       // no finished run yet
    BitIdentical, // every item bit-identical to the reference
    Numbers,      // probabilities moved, no decision flipped
    Flips,        // decisions flipped
};

class DashboardModel : public ReviewTableModel {
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

    static Severity severityOf(const analysis::ReviewRow& row);

private:
    int rows() const override { return review() ? int(review()->rows.size()) : 0; }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    QString headerToolTip(int column) const override;
    QVariant toolTip(const analysis::ReviewRow& row, int col) const;
    QVariant cell(const analysis::ReviewRow& row, int col, bool sort) const;
};

} // namespace probaudit::ui
