#pragma once
// The items table: every item of one comparison (the reference run against the chosen
// config's run). Filtering and sorting happen here, on plain arrays of row indices, so a
// 100,000-row ledger re-filters in milliseconds (a QSortFilterProxyModel would call data()
// per row). Flipped rows and near-boundary margins are tinted (Qt::BackgroundRole).
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

#include <QString>

#include <optional>
#include <vector>

namespace probaudit::ui {

struct ItemFilter {
    bool flipsOnly = false;
    bool changedOnly = false;                             // Δp > 0 or any bit different
    std::optional<double> dpAbove;                        // Δp > value (points)
    std::optional<double> marginBelow;                    // |reference margin| < value
    std::optional<std::pair<double, double>> dpRange;     // [low, high) in points
    std::optional<std::pair<double, double>> marginRange; // [low, high) of |reference margin|
    std::optional<int> label;                             // gold label; -1: unlabelled
    std::optional<int> layerDiffers;                      // hidden state index whose bytes differ
    QString text; // case-insensitive substring of the text or the id
    std::optional<std::vector<std::int64_t>> items; // explicit item indices (sorted)

    bool isEmpty() const;
};

class ItemsModel : public TableModel {
    Q_OBJECT
public:
    enum Columns {
        IdColumn,
        TextColumn,
        LabelColumn,
        PRefColumn,
        PCfgColumn,
        DpColumn,
        MarginColumn,
        FlipColumn,
        FirstLayerColumn,
        ExactColumn, // |p − p_exact| under the config (a study with a float64 run only)
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        ItemIndexRole, // qlonglong: the item's index in the study
        FlipRole,      // bool
        DpRole,        // double, points
    };

    explicit ItemsModel(QObject* parent = nullptr);

    // The comparison of `row` (a dashboard row) in `review`; keeps the filter and the sort.
    void setComparison(const ReviewPtr& review, int row);
    const ReviewPtr& review() const { return m_review; }
    void setFilter(const ItemFilter& filter);
    const ItemFilter& filter() const { return m_filter; }
    // |margin| below this is near the boundary (tinted); a logit gap.
    void setNearBoundaryMargin(double margin);
    double nearBoundaryMargin() const { return m_nearBoundary; }

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    int totalCount() const;                 // items in the comparison
    std::int64_t itemAt(int row) const;     // study item index; -1 when out of range
    int rowOfItem(std::int64_t item) const; // -1 when filtered out
    // Tab-separated rows with a header line, for the clipboard.
    QString toTsv(const QList<int>& rows) const;
    QString labelName(std::optional<int> label) const;
    // The value a numeric column sorts by (SortRole); the id for the text columns.
    static double sortKey(const analysis::ItemDiff& d, int column);

Q_SIGNALS:
    void countsChanged(int shown, int total);

private:
    int rows() const override { return int(m_rows.size()); }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    QString headerToolTip(int column) const override;
    QString displayText(const analysis::ItemDiff& d, const ledger::Item& item, int col) const;
    QVariant exactData(int diffIndex, int role) const;
    void rebuild(); // filter, then sort
    void applySort();
    const analysis::Comparison* comparison() const;
    // The selected row's distance to exact, or null (no float64 run in the study).
    const analysis::ExactDistance* exactDistance() const;
    // |p − p_exact| in points of diff `i` (B, or the reference's with `reference`); NaN if none.
    double toExact(int i, bool reference = false) const;

    ReviewPtr m_review;
    int m_row = -1;
    ItemFilter m_filter;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    double m_nearBoundary = 0.5;
    std::vector<int> m_rows;       // indices into comparison()->diffs, filtered and sorted
    std::vector<QString> m_folded; // case-folded item texts, by item index
    QStringList m_labels;          // class names
};

} // namespace probaudit::ui
