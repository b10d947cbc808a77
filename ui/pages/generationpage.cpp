#include "ui/pages/generationpage.h"

#include "core/analysis/records.h"
#include "ui/charts/charts.h"
#include "ui/charts/gapchart.h"
#include "ui/models/generationhtml.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace probaudit::ui {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

GenerationPage::GenerationPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("generationPage"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("generationTitle"));
    QFont tf = m_title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.25);
    m_title->setFont(tf);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_comparing = new QLabel(this);
    m_comparing->setObjectName(QStringLiteral("generationComparing"));
    m_comparing->setWordWrap(true);

    createTables();

    m_gaps = new QChartView(this);
    m_gaps->setObjectName(QStringLiteral("generationGaps"));
    m_gaps->setRenderHint(QPainter::Antialiasing);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("generationTabs"));
    m_tabs->addTab(m_itemsView, tr("&Outputs"));
    m_tabs->addTab(m_gaps, tr("Logit &gaps"));

    QWidget* detail = createDetail();

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_tabs);
    bottom->addWidget(detail);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({700, 760});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(bottom);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_comparing);
    layout->addWidget(split, 1);

    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& i) {
        if (i.isValid() && i.row() != m_row) {
            setComparisonRow(i.row());
        }
    });
    connect(m_itemsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) {
                    showItem(current.data(GenerationItemsModel::ItemIndexRole).toLongLong());
                }
            });
}

// The agreement table on top and the outputs of the selected comparison (sortable).
void GenerationPage::createTables() {
    m_tableModel = new GenerationTableModel(this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("generationTable"));
    m_table->setModel(m_tableModel);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_itemsModel = new GenerationItemsModel(this);
    m_itemsProxy = new QSortFilterProxyModel(this);
    m_itemsProxy->setSourceModel(m_itemsModel);
    m_itemsProxy->setSortRole(GenerationItemsModel::SortRole);
    m_itemsView = new QTableView(this);
    m_itemsView->setObjectName(QStringLiteral("generationItems"));
    m_itemsView->setModel(m_itemsProxy);
    m_itemsView->setSortingEnabled(true);
    m_itemsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_itemsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_itemsView->verticalHeader()->hide();
    m_itemsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_itemsView->horizontalHeader()->setStretchLastSection(true);
}

// The selected item: both outputs side by side, then both record sets.
QWidget* GenerationPage::createDetail() {
    auto* detail = new QWidget(this);
    m_itemTitle = new QLabel(detail);
    m_itemTitle->setWordWrap(true);
    m_itemTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outputs = new QTextBrowser(detail);
    m_outputs->setObjectName(QStringLiteral("generationOutputs"));
    m_records = new QTextBrowser(detail);
    m_records->setObjectName(QStringLiteral("generationRecords"));
    auto* dv = new QVBoxLayout(detail);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->addWidget(m_itemTitle);
    dv->addWidget(m_outputs, 3);
    dv->addWidget(m_records, 2);
    return detail;
}

void GenerationPage::setReview(const ReviewPtr& review) {
    m_review = review;
    m_title->setText(review ? tr("%1 — %2 (generation head \"%3\")")
                                  .arg(qs(review->facts.name), qs(review->path), qs(review->head))
                            : QString());
    m_tableModel->setReview(review);
    m_table->resizeColumnsToContents();
    const int rows = std::min(10, std::max(1, m_tableModel->rowCount()));
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              rows * m_table->verticalHeader()->defaultSectionSize() + 4);
    m_table->setMaximumHeight(m_table->minimumHeight() + 2);
    setComparisonRow(review ? tellingGenerationRow(*review) : -1);
}

void GenerationPage::setComparisonRow(int row) {
    m_row = row;
    const analysis::GenerationRow* g = generationRow(m_review, row);
    if (g != nullptr) {
        m_table->selectionModel()->setCurrentIndex(m_tableModel->index(row, 0),
                                                   QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
        const auto& c = g->cmp;
        m_comparing->setText(
            tr("%1: %2 of %3 outputs byte-identical, pooled record Jaccard %4%5. Fork points: "
               "%6 of them at a top-2 logit gap below 0.0001.")
                .arg(generationRowName(*g))
                .arg(qulonglong(c.identical))
                .arg(qulonglong(c.items.size()))
                .arg(QString::number(c.pooled_jaccard, 'f', 4))
                .arg(c.has_answers ? tr(", answers agree on %1 of %2")
                                         .arg(qulonglong(c.answers_agree))
                                         .arg(qulonglong(c.items.size()))
                                   : QString())
                .arg(c.gaps.at_divergence[0]));
    } else {
        m_comparing->setText(
            m_review ? tr("Nothing to compare yet: a generation study needs two finished runs "
                          "(run the reference config and another, or one config twice).")
                     : QString());
    }
    m_itemsModel->setComparison(m_review, row);
    m_itemsView->sortByColumn(GenerationItemsModel::JaccardColumn, Qt::AscendingOrder);
    m_itemsView->resizeColumnsToContents();
    if (g != nullptr) {
        m_gaps->setChart(makeGapHistogram(g->cmp)); // the view owns the new chart, drops the old
        styleChart(m_gaps->chart());
    }
    if (m_itemsProxy->rowCount() > 0) {
        m_itemsView->selectionModel()->setCurrentIndex(m_itemsProxy->index(0, 0),
                                                       QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    } else {
        showItem(-1);
    }
}

void GenerationPage::showItem(std::int64_t item) {
    m_item = item;
    const analysis::GenerationRow* g = generationRow(m_review, m_row);
    if (g == nullptr || item < 0 || std::size_t(item) >= m_review->items.size()) {
        m_itemTitle->clear();
        m_outputs->clear();
        m_records->clear();
        return;
    }
    const auto& it = m_review->items[std::size_t(item)];
    const analysis::GenerationItemDiff* d = nullptr;
    for (const auto& x : g->cmp.items) {
        if (x.id == it.id) {
            d = &x;
        }
    }
    m_itemTitle->setText(tr("<b>%1</b>: %2").arg(qs(it.id), qs(it.text).toHtmlEscaped()));
    const auto* a = m_review->output(g->run_a, item);
    const auto* b = m_review->output(g->run_b, item);
    m_outputs->setHtml(outputsHtml(*g, a, b, d));
    const auto recA =
        a ? analysis::parseRecords(a->text, m_review->records) : std::vector<std::string>();
    const auto recB =
        b ? analysis::parseRecords(b->text, m_review->records) : std::vector<std::string>();
    m_records->setHtml(recordsHtml(*g, recA, recB, d));
}

void GenerationPage::showGapsTab() {
    m_tabs->setCurrentWidget(m_gaps);
}

} // namespace probaudit::ui
