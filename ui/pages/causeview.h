#pragma once
// The Cause view: the diagnosis's "cause" rung, one config at a time. Which operator class in
// which layer makes the config's difference from the reference, as the counterfactual passes
// measured it: the layer × operator class heatmap (the share of Δp each class's splice removes,
// and the items it is the cause of), and below it the items behind the cell clicked, each with
// its cause line; activating an item opens it in the inspector.
#include "ui/models/reviewloader.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QModelIndex;
class QTableView;

namespace probaudit::ui {

class CauseGridModel;
class CauseItemsModel;

class CauseView : public QWidget {
    Q_OBJECT
public:
    explicit CauseView(QWidget* parent = nullptr);
    void setReview(const ReviewPtr& review);
    // Shows a config's localisation (the tour; the selector does the same).
    void showConfig(const QString& config);
    // Selects a cell of the grid and lists its items (the tour; a click does the same).
    void selectCell(int row, int column);
    QTableView* grid() const { return m_grid; }
    QTableView* items() const { return m_items; }

Q_SIGNALS:
    void itemActivated(std::int64_t item);

private:
    void configChosen();
    void cellChosen(const QModelIndex& cell);

    ReviewPtr m_review;
    QLabel* m_header = nullptr;
    QComboBox* m_config = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_cellCaption = nullptr;
    CauseGridModel* m_gridModel = nullptr;
    CauseItemsModel* m_itemsModel = nullptr;
    QTableView* m_grid = nullptr;
    QTableView* m_items = nullptr;
};

} // namespace probaudit::ui
