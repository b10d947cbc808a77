#pragma once
// The review of a generation study (a generation head; the second field report): the
// agreement table on top, one row per pair of generation runs (run to run, serving, other
// configs) with the byte-identical share, the pooled record Jaccard and the answer agreement;
// below it the outputs of the selected pair, worst first, and the logit-gap histogram (are
// forks near ties?); on the right the selected output of both runs side by side, the point
// where they diverge marked with the reference's top-2 logit gap there, and both record sets
// with the records only one side has highlighted. The report draws the same pieces.
#include "ui/reviewloader.h"

#include <QAbstractTableModel>
#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QTextBrowser;

namespace probaudit {
namespace ui {

// Names a generation row's kind for people: run to run, serving, configuration.
QString generationKindName(const std::string& kind);
// The row's name as the table shows it: "B vs A", or "A, run twice".
QString generationRowName(const analysis::GenerationRow& row);

class GenerationTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        ComparisonColumn,
        KindColumn,
        DiffersColumn,
        IdenticalColumn,
        JaccardColumn,
        AnswersColumn,
        RecordsColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        IdenticalRole, // bool: every output byte-identical
    };

    explicit GenerationTableModel(QObject* parent = nullptr);
    void setReview(const ReviewPtr& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReviewPtr m_review;
};

// The outputs of one generation comparison, one row per item.
class GenerationItemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        ItemColumn,
        IdenticalColumn,
        DivergenceColumn,
        GapColumn,
        JaccardColumn,
        AnswerAColumn,
        AnswerBColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        ItemIndexRole, // qint64: the ledger item
    };

    explicit GenerationItemsModel(QObject* parent = nullptr);
    void setComparison(const ReviewPtr& review, int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReviewPtr m_review;
    const analysis::GenerationRow* m_row = nullptr;
    std::vector<std::int64_t> m_items; // ledger item of each diff, in the comparison's order
};

// Share of the divergence points and of all steps per logit-gap decade (workbench and report).
QChart* makeGapHistogram(const analysis::GenerationComparison& c);

// HTML of two outputs side by side (a table of two cells): the common beginning plain, the
// rest of each highlighted from the first differing character, with the step and gap there.
QString outputsHtml(const analysis::GenerationRow& row, const ledger::GenerationRecord* a,
                    const ledger::GenerationRecord* b, const analysis::GenerationItemDiff* d);
// HTML of the two record sets: records only one side has are highlighted.
QString recordsHtml(const analysis::GenerationRow& row, const std::vector<std::string>& a,
                    const std::vector<std::string>& b, const analysis::GenerationItemDiff* d);

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

} // namespace ui
} // namespace probaudit
