#include "ui/generationview.h"

#include "analysis/records.h"
#include "ui/charts.h"
#include "ui/format.h"
#include "ui/theme.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
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
#include <QValueAxis>

#include <algorithm>
#include <set>

namespace probaudit {
namespace ui {

namespace {

// The translation context of the free functions below (shared with the report).
class GenerationView {
    Q_DECLARE_TR_FUNCTIONS(GenerationView)
};

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

const analysis::GenerationRow* rowOf(const ReviewPtr& rv, int row) {
    return rv && row >= 0 && std::size_t(row) < rv->generation_rows.size()
               ? &rv->generation_rows[std::size_t(row)]
               : nullptr;
}

// Text as HTML: escaped, line breaks kept, an empty text shown as such.
QString textHtml(const std::string& text) {
    QString h = qs(text).toHtmlEscaped();
    h.replace(QLatin1Char('\n'), QStringLiteral("↵<br>"));
    return h;
}

// Where two texts first differ, moved back to the start of a UTF-8 character.
std::size_t commonPrefix(const std::string& a, const std::string& b) {
    std::size_t p = 0;
    while (p < a.size() && p < b.size() && a[p] == b[p]) {
        ++p;
    }
    while (p > 0 && p < std::max(a.size(), b.size()) &&
           ((static_cast<unsigned char>(p < a.size() ? a[p] : b[p]) & 0xC0) == 0x80)) {
        --p;
    }
    return p;
}

QString formatGap(double gap) {
    return QString::number(gap, 'g', 3);
}

} // namespace

QString generationKindName(const std::string& kind) {
    if (kind == "repeat") {
        return GenerationView::tr("run to run");
    }
    if (kind == "serving") {
        return GenerationView::tr("serving (concurrency)");
    }
    return GenerationView::tr("configuration");
}

QString generationRowName(const analysis::GenerationRow& row) {
    return row.a == row.b ? GenerationView::tr("%1, run twice").arg(qs(row.a))
                          : GenerationView::tr("%1 vs %2").arg(qs(row.b), qs(row.a));
}

// --- the agreement table

GenerationTableModel::GenerationTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void GenerationTableModel::setReview(const ReviewPtr& review) {
    beginResetModel();
    m_review = review;
    endResetModel();
}

int GenerationTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_review ? 0 : int(m_review->generation_rows.size());
}

int GenerationTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant GenerationTableModel::data(const QModelIndex& index, int role) const {
    const analysis::GenerationRow* g = rowOf(m_review, index.row());
    if (!index.isValid() || g == nullptr) {
        return {};
    }
    const auto& c = g->cmp;
    const auto n = qulonglong(c.items.size());
    const bool allSame = c.identical == c.items.size();
    const bool answersDiffer = c.has_answers && c.answers_agree < c.items.size();
    if (role == IdenticalRole) {
        return allSame;
    }
    if (role == Qt::BackgroundRole) {
        if (allSame) {
            return tint(unchangedColor(), 0.18);
        }
        return tint(answersDiffer ? flipColor() : changedColor(), 0.22);
    }
    if (role == Qt::ToolTipRole) {
        return tr("Run %1 (%2) against run %3 (%4)")
            .arg(g->run_b)
            .arg(qs(g->b))
            .arg(g->run_a)
            .arg(qs(g->a));
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() >= IdenticalColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                 : QVariant();
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    switch (index.column()) {
    case ComparisonColumn:
        return generationRowName(*g);
    case KindColumn:
        return generationKindName(g->kind);
    case DiffersColumn: {
        QStringList axes;
        for (const auto& a : g->differs_in) {
            axes << qs(a);
        }
        return axes.isEmpty() ? tr("nothing") : axes.join(QStringLiteral(", "));
    }
    case IdenticalColumn:
        if (sort) {
            return c.identicalShare();
        }
        return tr("%1 / %2 (%3)")
            .arg(qulonglong(c.identical))
            .arg(n)
            .arg(formatShare(c.identicalShare()));
    case JaccardColumn:
        return sort ? QVariant(c.pooled_jaccard)
                    : QVariant(QString::number(c.pooled_jaccard, 'f', 4));
    case AnswersColumn:
        if (!c.has_answers) {
            return sort ? QVariant(-1.0) : QVariant(tr("no reduction"));
        }
        return sort ? QVariant(c.answerAgreement())
                    : QVariant(tr("%1 / %2").arg(qulonglong(c.answers_agree)).arg(n));
    case RecordsColumn:
        return sort ? QVariant(qulonglong(c.records_b))
                    : QVariant(
                          tr("%1 / %2").arg(qulonglong(c.records_a)).arg(qulonglong(c.records_b)));
    default:
        return {};
    }
}

QVariant GenerationTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IdenticalColumn:
            return tr("Outputs with exactly the same tokens in both runs");
        case JaccardColumn:
            return tr("Records shared by both runs over records in either, pooled over the items "
                      "(1 = the same records)");
        case AnswersColumn:
            return tr("Items whose answer (the reduction over their records) is the same");
        case RecordsColumn:
            return tr("Distinct records per item, summed: reference side / other side");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case ComparisonColumn:
        return tr("Comparison");
    case KindColumn:
        return tr("Kind");
    case DiffersColumn:
        return tr("Differs in");
    case IdenticalColumn:
        return tr("Byte-identical outputs");
    case JaccardColumn:
        return tr("Record Jaccard (pooled)");
    case AnswersColumn:
        return tr("Answers agree");
    case RecordsColumn:
        return tr("Records");
    default:
        return {};
    }
}

// --- the outputs of one comparison

GenerationItemsModel::GenerationItemsModel(QObject* parent) : QAbstractTableModel(parent) {}

void GenerationItemsModel::setComparison(const ReviewPtr& review, int row) {
    beginResetModel();
    m_review = review;
    m_row = rowOf(review, row);
    m_items.clear();
    if (m_row != nullptr) {
        const auto it = review->generations.find(m_row->run_a);
        if (it != review->generations.end()) {
            for (const auto& g : it->second) {
                m_items.push_back(g.item);
            }
        }
        m_items.resize(m_row->cmp.items.size(), -1);
    }
    endResetModel();
}

int GenerationItemsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || m_row == nullptr ? 0 : int(m_row->cmp.items.size());
}

int GenerationItemsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant GenerationItemsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || m_row == nullptr ||
        std::size_t(index.row()) >= m_row->cmp.items.size()) {
        return {};
    }
    const auto& d = m_row->cmp.items[std::size_t(index.row())];
    if (role == ItemIndexRole) {
        return qint64(m_items[std::size_t(index.row())]);
    }
    if (role == Qt::BackgroundRole) {
        if (d.answer_a != d.answer_b) {
            return tint(flipColor(), 0.25);
        }
        if (d.jaccard < 1) {
            return tint(changedColor(), 0.25);
        }
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == DivergenceColumn && !d.identical) {
        return tr("The outputs agree on the first %1 generated tokens").arg(d.first_divergence);
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    switch (index.column()) {
    case ItemColumn:
        return qs(d.id);
    case IdenticalColumn:
        return sort ? QVariant(d.identical) : QVariant(d.identical ? tr("yes") : tr("no"));
    case DivergenceColumn:
        if (d.identical) {
            return sort ? QVariant(qint64(1) << 40) : QVariant(QStringLiteral("—"));
        }
        return sort ? QVariant(qint64(d.first_divergence))
                    : QVariant(QString::number(d.first_divergence + 1));
    case GapColumn:
        if (d.identical) {
            return sort ? QVariant(1e30) : QVariant(QStringLiteral("—"));
        }
        return sort ? QVariant(double(d.gap_at_divergence))
                    : QVariant(formatGap(double(d.gap_at_divergence)));
    case JaccardColumn:
        // Sorting: the lowest Jaccard first, different answers before equal ones, divergent
        // outputs before identical ones.
        return sort ? QVariant(d.jaccard + (d.answer_a == d.answer_b ? 1e-9 : 0) +
                               (d.identical ? 1e-10 : 0))
                    : QVariant(QString::number(d.jaccard, 'f', 3));
    case AnswerAColumn:
        return qs(d.answer_a);
    case AnswerBColumn:
        return qs(d.answer_b);
    default:
        return {};
    }
}

QVariant GenerationItemsModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case ItemColumn:
        return tr("Item");
    case IdenticalColumn:
        return tr("Identical");
    case DivergenceColumn:
        return tr("Diverges at token");
    case GapColumn:
        return tr("Logit gap there");
    case JaccardColumn:
        return tr("Record Jaccard");
    case AnswerAColumn:
        return tr("Answer (reference side)");
    case AnswerBColumn:
        return tr("Answer (other side)");
    default:
        return {};
    }
}

// --- shared with the report

QChart* makeGapHistogram(const analysis::GenerationComparison& c) {
    using analysis::GapHistogram;
    auto* chart = newChart();
    chart->setTitle(
        GenerationView::tr("Top-2 logit gap of the reference: where outputs diverge, and at every "
                           "step"));
    auto* fork = new QBarSet(GenerationView::tr("at divergence points"));
    auto* all = new QBarSet(GenerationView::tr("at every step"));
    fork->setColor(flipColor());
    all->setColor(QColor(0x7f, 0x8c, 0x9a));
    std::int64_t forks = 0, steps = 0;
    for (int b = 0; b < GapHistogram::kBins; ++b) {
        forks += c.gaps.at_divergence[b];
        steps += c.gaps.all_steps[b];
    }
    QStringList cats;
    double top = 0;
    for (int b = 0; b < GapHistogram::kBins; ++b) {
        const double lo = GapHistogram::lowerEdge(b);
        cats << (b == 0 ? QStringLiteral("0") : QString::number(lo, 'g', 2));
        const double f = forks > 0 ? 100.0 * double(c.gaps.at_divergence[b]) / double(forks) : 0;
        const double a = steps > 0 ? 100.0 * double(c.gaps.all_steps[b]) / double(steps) : 0;
        *fork << f;
        *all << a;
        top = std::max({top, f, a});
    }
    fork->setLabel(GenerationView::tr("at divergence points (%1)").arg(forks));
    all->setLabel(GenerationView::tr("at every step (%1)").arg(steps));
    auto* series = new QBarSeries;
    series->append(fork);
    series->append(all);
    series->setBarWidth(0.85);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(cats);
    x->setTitleText(GenerationView::tr("top-2 logit gap, bins from the value shown"));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    y->setRange(0, std::max(1.0, top * 1.08));
    y->applyNiceNumbers();
    y->setTitleText(GenerationView::tr("% of its set"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignTop);
    return chart;
}

QString outputsHtml(const analysis::GenerationRow& row, const ledger::GenerationRecord* a,
                    const ledger::GenerationRecord* b, const analysis::GenerationItemDiff* d) {
    if (a == nullptr || b == nullptr) {
        return GenerationView::tr("<p>This item has no output in one of the runs.</p>");
    }
    const std::size_t p = commonPrefix(a->text, b->text);
    const QString mark = tint(flipColor(), 0.35).name();
    auto cell = [&](const ledger::GenerationRecord& g) {
        QString h = textHtml(g.text.substr(0, p));
        if (p < g.text.size() || (d != nullptr && !d->identical)) {
            h += QStringLiteral("<span style=\"background-color:%1\">▸%2</span>")
                     .arg(mark, textHtml(g.text.substr(std::min(p, g.text.size()))));
        }
        return h;
    };
    auto head = [&](const std::string& config, std::int64_t run,
                    const ledger::GenerationRecord& g) {
        return GenerationView::tr(
                   "<b>%1</b> (run %2)<br><small>%3 tokens, ended by %4, arrived %5.</small>")
            .arg(qs(config).toHtmlEscaped())
            .arg(run)
            .arg(g.tokens.size())
            .arg(qs(g.finish))
            .arg(g.arrival + 1);
    };
    QString verdict;
    if (d == nullptr || d->identical) {
        verdict = GenerationView::tr("Byte-identical outputs.");
    } else {
        verdict = GenerationView::tr(
                      "The outputs diverge at generated token %1; the reference's top-2 logit gap "
                      "there was %2.")
                      .arg(d->first_divergence + 1)
                      .arg(formatGap(double(d->gap_at_divergence)));
    }
    return QStringLiteral("<p>%1</p><table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" "
                          "border=\"1\"><tr><td width=\"50%\" valign=\"top\">%2</td>"
                          "<td width=\"50%\" valign=\"top\">%3</td></tr><tr><td valign=\"top\">"
                          "<tt>%4</tt></td><td valign=\"top\"><tt>%5</tt></td></tr></table>")
        .arg(verdict, head(row.a, row.run_a, *a), head(row.b, row.run_b, *b), cell(*a), cell(*b));
}

QString recordsHtml(const analysis::GenerationRow& row, const std::vector<std::string>& a,
                    const std::vector<std::string>& b, const analysis::GenerationItemDiff* d) {
    const std::set<std::string> setA(a.begin(), a.end()), setB(b.begin(), b.end());
    auto list = [](const std::vector<std::string>& mine, const std::set<std::string>& other,
                   const QColor& only) {
        QString h;
        std::set<std::string> seen;
        for (const auto& r : mine) {
            if (!seen.insert(r).second) {
                continue;
            }
            const bool shared = other.count(r) > 0;
            h += shared ? QStringLiteral("%1<br>").arg(qs(r).toHtmlEscaped())
                        : QStringLiteral("<span style=\"background-color:%1\">%2 %3</span><br>")
                              .arg(only.name(), GenerationView::tr("only here:"),
                                   qs(r).toHtmlEscaped());
        }
        return h.isEmpty() ? GenerationView::tr("<i>no records</i>") : h;
    };
    QString summary;
    if (d != nullptr) {
        summary = GenerationView::tr("Record Jaccard %1 (%2 shared of %3)")
                      .arg(QString::number(d->jaccard, 'f', 3))
                      .arg(qulonglong(d->counts.intersection))
                      .arg(qulonglong(d->counts.union_size));
        if (row.cmp.has_answers) {
            summary += GenerationView::tr("; answers: \"%1\" and \"%2\"%3")
                           .arg(qs(d->answer_a).toHtmlEscaped(), qs(d->answer_b).toHtmlEscaped(),
                                d->answer_a == d->answer_b ? GenerationView::tr(", the same")
                                                           : GenerationView::tr(", different"));
        }
    }
    return QStringLiteral("<p>%1</p><table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" "
                          "border=\"1\"><tr><th>%2</th><th>%3</th></tr><tr><td valign=\"top\" "
                          "width=\"50%\">%4</td><td valign=\"top\" width=\"50%\">%5</td></tr>"
                          "</table>")
        .arg(summary, GenerationView::tr("Records of %1").arg(qs(row.a).toHtmlEscaped()),
             GenerationView::tr("Records of %1").arg(qs(row.b).toHtmlEscaped()),
             list(a, setB, tint(flipColor(), 0.35)), list(b, setA, tint(unchangedColor(), 0.35)));
}

// --- the page

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

    m_gaps = new QChartView(this);
    m_gaps->setObjectName(QStringLiteral("generationGaps"));
    m_gaps->setRenderHint(QPainter::Antialiasing);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("generationTabs"));
    m_tabs->addTab(m_itemsView, tr("&Outputs"));
    m_tabs->addTab(m_gaps, tr("Logit &gaps"));

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

void GenerationPage::setReview(const ReviewPtr& review) {
    m_review = review;
    m_title->setText(
        review ? tr("%1 — %2 (generation head \"%3\")")
                     .arg(qs(review->study.value("name", "")), qs(review->path), qs(review->head))
               : QString());
    m_tableModel->setReview(review);
    m_table->resizeColumnsToContents();
    const int rows = std::min(10, std::max(1, m_tableModel->rowCount()));
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              rows * m_table->verticalHeader()->defaultSectionSize() + 4);
    m_table->setMaximumHeight(m_table->minimumHeight() + 2);
    // First the serving comparison whose outputs differ most (batching is what a generation
    // audit is about), else the comparison that differs most.
    int worst = -1;
    std::pair<bool, std::size_t> worstKey{false, 0};
    for (std::size_t r = 0; review && r < review->generation_rows.size(); ++r) {
        const auto& g = review->generation_rows[r];
        const std::size_t differ = g.cmp.items.size() - g.cmp.identical;
        const std::pair<bool, std::size_t> key{g.kind == "serving" && differ > 0, differ};
        if (worst < 0 || key > worstKey) {
            worst = int(r);
            worstKey = key;
        }
    }
    setComparisonRow(worst);
}

void GenerationPage::setComparisonRow(int row) {
    m_row = row;
    const analysis::GenerationRow* g = rowOf(m_review, row);
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
    const analysis::GenerationRow* g = rowOf(m_review, m_row);
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

} // namespace ui
} // namespace probaudit
