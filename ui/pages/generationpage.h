#pragma once
// The review of a generation study (a generation head; the second field report): the
// agreement table on top (ui/models/generationmodels.h), one row per pair of generation runs;
// below it the outputs of the selected pair, worst first, and the logit-gap histogram (are
// forks near ties?); on the right the selected output of both runs side by side, the point
// where they diverge marked with the reference's top-2 logit gap there, and both record sets
// with the records only one side has highlighted. The report draws the same pieces.
#include "ui/models/generationmodels.h"

#include <QWidget>

class QChartView;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QTextBrowser;

namespace probaudit::ui {

class GenerationPage : public QWidget {
    Q_OBJECT
public:
    explicit GenerationPage(QWidget* parent = nullptr);

    void setReview(const ReviewPtr& review);
    const ReviewPtr& review() const { return m_review; }
    void setComparisonRow(int row);
    int comparisonRow() const { return m_row; }
    // Shows one item of the selected comparison on the right.
    void showItem(std::int64_t item);
    std::int64_t shownItem() const { return m_item; }
    void showGapsTab();

    QTableView* tableView() const { return m_table; }
    GenerationTableModel* tableModel() const { return m_tableModel; }
    QTableView* itemsView() const { return m_itemsView; }
    GenerationItemsModel* itemsModel() const { return m_itemsModel; }
    QTextBrowser* outputsBrowser() const { return m_outputs; }
    QTextBrowser* recordsBrowser() const { return m_records; }
    QChartView* gapsView() const { return m_gaps; }

Q_SIGNALS:
    void headChangeRequested(const QString& head);

private:
    void createTables();
    QWidget* createDetail();

    ReviewPtr m_review;
    int m_row = -1;
    std::int64_t m_item = -1;
    QLabel* m_title = nullptr;
    QLabel* m_comparing = nullptr;
    QTableView* m_table = nullptr;
    GenerationTableModel* m_tableModel = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_itemsView = nullptr;
    GenerationItemsModel* m_itemsModel = nullptr;
    QSortFilterProxyModel* m_itemsProxy = nullptr;
    QChartView* m_gaps = nullptr;
    QLabel* m_itemTitle = nullptr;
    QTextBrowser* m_outputs = nullptr;
    QTextBrowser* m_records = nullptr;
};

} // namespace probaudit::ui
