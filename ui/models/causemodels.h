#pragma once
// The Cause view's tables, from the diagnosis's "cause" rung (analysis::ConfigCause), one
// config at a time:
//   CauseGridModel:  the layer × operator class heatmap: rows are the hidden states the
//                    differences are complete by (analysis::causeTable), columns the share of
//                    Δp each class's splice removes on average (tinted by it) with the items it
//                    is the cause of, and the items a set of classes explains
//   CauseItemsModel: the items behind one cell of the grid, each with its cause line
#include "ui/models/tablemodel.h"

#include "core/analysis/localization.h"

#include <vector>

namespace probaudit::ui {

class CauseGridModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        WhereColumn,
        ItemsColumn,
        StateColumn, // A's state after the row's index, spliced into B
        FirstClassColumn,
        SetColumn = FirstClassColumn + kOpClassCount,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole, // the number behind a cell
        ShareRole,               // a share of Δp removed (the tint), where a cell has one
    };

    explicit CauseGridModel(QObject* parent = nullptr);
    // The configs the diagnosis localised or tried to, in its order.
    QStringList configs() const;
    // Shows `config`'s localisation (none: an empty grid).
    void setConfig(const QString& config);
    const analysis::ConfigCause* cause() const;
    // The items behind a cell: the row's items; in a class column those whose cause that class
    // is, in the set column those a set explains.
    std::vector<const analysis::ItemCause*> itemsOf(const QModelIndex& cell) const;

private:
    void reviewChanged() override;
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    QString headerToolTip(int column) const override;

    QString m_config;
    std::vector<analysis::CauseRow> m_rows;
};

class CauseItemsModel : public TableModel {
    Q_OBJECT
public:
    enum Columns { ItemColumn, DpColumn, FlipColumn, CauseColumn, NUM_COLUMNS };
    enum Roles {
        SortRole = Qt::UserRole, // the number behind a cell
        ItemRole,                // the ledger item index (qlonglong)
    };

    explicit CauseItemsModel(QObject* parent = nullptr);
    // `l` must outlive the items shown (the review holds it).
    void setItems(const analysis::Localization* l, std::vector<const analysis::ItemCause*> items);

private:
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;

    const analysis::Localization* m_l = nullptr;
    std::vector<const analysis::ItemCause*> m_items;
};

} // namespace probaudit::ui
