#pragma once
// The item inspector's two tables for one item, read from the comparisons of the review
// (analysis::ItemDiff: Δp, flip, first divergent layer, and which hidden states differ through
// Comparison::layerDiffers); only the item's own p, margin and decision come from its records.
//   ItemNumbersModel: one row per config with a record of the item (the reference first): p,
//                     Δp, margin, decision (flipped ones tinted), first divergent layer.
//   LayerHashModel:   one row per config compared with the reference, one column per hidden
//                     state (embeddings, layer 1 … L): "=" the same bits, "≠" different.
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

#include <QStringList>

#include <vector>

namespace probaudit::ui {

class ItemNumbersModel : public TableModel {
    Q_OBJECT
public:
    enum Columns {
        ConfigColumn,
        PColumn,
        DpColumn,
        MarginColumn,
        DecisionColumn,
        FirstLayerColumn,
        NUM_COLUMNS
    };
    enum Roles {
        ConfigNameRole = Qt::UserRole, // QString: the config, without "(ref.)"
        PRole,                         // double: p of the item under the config
        FlipRole,                      // bool: the decision differs from the reference's
        ReviewRowRole,                 // int: the dashboard row of the config
    };

    explicit ItemNumbersModel(QObject* parent = nullptr);
    // `item`: a study item index; -1 (or an index out of range) empties the table.
    void setItem(const ReviewPtr& review, std::int64_t item);

private:
    int rows() const override { return int(m_rows.size()); }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;

    struct Row {
        int reviewRow = 0;
        QString config;
        bool reference = false;
        double p = 0;
        float margin = 0;
        int decision = -1;
        const analysis::ItemDiff* diff = nullptr; // none: no comparison with the reference
    };
    QString cellText(const Row& row, int column) const;

    ReviewPtr m_review;
    std::vector<Row> m_rows;
    QStringList m_classes;
};

class LayerHashModel : public TableModel {
    Q_OBJECT
public:
    enum Roles {
        DiffersRole = Qt::UserRole, // bool: the hidden state's real-token bytes differ
        ReviewRowRole,              // int: the dashboard row of the config
    };

    explicit LayerHashModel(QObject* parent = nullptr);
    void setItem(const ReviewPtr& review, std::int64_t item);
    // The dashboard row of a table row (for the inspector's per-layer chart).
    int reviewRowAt(int row) const;

    // Vertical: the configs; horizontal: the hidden states ("emb", 1 … L).
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int rows() const override { return int(m_rows.size()); }
    int columns() const override { return m_layers; }
    QVariant cellData(const QModelIndex& index, int role) const override;

    struct Row {
        int reviewRow = 0;
        QString config;
        const analysis::Comparison* cmp = nullptr;
        std::size_t diffIndex = 0; // the item's ItemDiff in cmp->diffs
        int layers = 0;            // hidden states compared
    };

    ReviewPtr m_review;
    std::vector<Row> m_rows;
    int m_layers = 0;
};

// The ItemDiff of `item` in a comparison (its diffs are by item), or null.
const analysis::ItemDiff* findItemDiff(const analysis::Comparison& c, std::int64_t item,
                                       std::size_t* index = nullptr);

} // namespace probaudit::ui
