#pragma once
// The base of the workbench's table models (DESIGN.md, Conventions: one QAbstractTableModel
// per view). TableModel answers what every table answers alike: no children under a row, the
// row and column counts, data() for valid indices of this model only, and horizontal headers
// from the model's titles and tooltips. A model supplies its row count, its titles and its
// cells, and keeps its `enum Columns {…, NUM_COLUMNS}` and `enum Roles`. The translated text
// stays in the models, so that their tr() contexts (translations/*.ts) stay what they were.
// ReviewTableModel adds the review that the table shows, swapped in whole by setReview().
#include "ui/models/reviewloader.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace probaudit::ui {

class TableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // 0 under a valid parent (a table has no children), else rows() and columns().
    int rowCount(const QModelIndex& parent = {}) const final;
    int columnCount(const QModelIndex& parent = {}) const final;
    // cellData() for a valid index of this model (checkIndex()); nothing for any other.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final;
    // Horizontal: the column's entry of headerTitles() (Qt::DisplayRole) or its
    // headerToolTip() (Qt::ToolTipRole); nothing where that is empty, for other roles, for
    // sections out of range and for the vertical header.
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    // `columns`: the fixed column count (NUM_COLUMNS); a model whose columns vary passes 0
    // and overrides columns().
    TableModel(int columns, QObject* parent);

    virtual int rows() const = 0;
    virtual int columns() const { return m_columns; }
    // What the cell at `index` (a valid index of this model) holds for `role`.
    virtual QVariant cellData(const QModelIndex& index, int role) const = 0;
    // The translated column titles, in the order of the columns.
    virtual QStringList headerTitles() const { return {}; }
    // A column's translated header tooltip; "" for none.
    virtual QString headerToolTip(int /*column*/) const { return {}; }

private:
    int m_columns;
};

class ReviewTableModel : public TableModel {
    Q_OBJECT
public:
    // Swaps the review in (one model reset), and with it the model's rows (reviewChanged()).
    void setReview(const ReviewPtr& review);
    const ReviewPtr& review() const { return m_review; }

protected:
    using TableModel::TableModel;
    // What the model derives from review(), redone by setReview() inside the reset.
    virtual void reviewChanged() {}

private:
    ReviewPtr m_review;
};

} // namespace probaudit::ui
