#pragma once
// The items tab: the filter bar (flipped only, changed only, Δp above, margin below, label,
// text search, and the filter a chart or the heatmap set) above the items table. Ctrl+C copies
// the selected rows as tab-separated text.
#include "ui/models/itemsmodel.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace probaudit::ui {

class ItemsTable : public QWidget {
    Q_OBJECT
public:
    explicit ItemsTable(QWidget* parent = nullptr);

    ItemsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    void setComparison(const ReviewPtr& review, int row);
    // A filter from a chart or the heatmap, shown as a removable chip; replaces the previous one.
    void setExternalFilter(const QString& description, const ItemFilter& part);
    void clearExternalFilter();
    void setFlipsOnly(bool on);
    void selectItem(std::int64_t item);
    void copySelection() const;

Q_SIGNALS:
    void currentItemChanged(std::int64_t item);

private:
    QHBoxLayout* createFilterBar();
    void createView();
    void connectFilters();
    void applyFilter();
    void updateCount(int shown, int total);

    ItemsModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QCheckBox* m_flips = nullptr;
    QCheckBox* m_changed = nullptr;
    QDoubleSpinBox* m_dpAbove = nullptr;
    QDoubleSpinBox* m_marginBelow = nullptr;
    QComboBox* m_label = nullptr;
    QLineEdit* m_search = nullptr;
    QTimer* m_searchDelay = nullptr;
    QToolButton* m_chip = nullptr;
    QLabel* m_count = nullptr;
    ItemFilter m_external;
};

} // namespace probaudit::ui
