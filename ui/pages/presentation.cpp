#include "ui/pages/presentation.h"

#include "ui/charts/charts.h"
#include "ui/charts/gapchart.h"
#include "ui/charts/heatmapwidget.h"
#include "ui/charts/neartiechart.h"
#include "ui/models/dashboardmodel.h"
#include "ui/models/format.h"
#include "ui/models/generationhtml.h"
#include "ui/models/generationmodels.h"
#include "ui/pages/diagnosisview.h"
#include "ui/pages/inspector.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace probaudit::ui {

namespace {
constexpr double kScale = 1.6; // presentation type size against the normal UI font

// A table on a slide: large rows, no selection, columns sized to their contents.
void showTable(QTableView* view, QAbstractItemModel* model, const QFont& big) {
    view->setModel(model);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setDefaultSectionSize(QFontMetrics(big).height() + 12);
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->setFocusPolicy(Qt::NoFocus);
    view->horizontalHeader()->setFont(big);
}
} // namespace

std::int64_t tellingItem(const analysis::Review& rv, int row) {
    if (row < 0 || std::size_t(row) >= rv.rows.size() || !rv.rows[std::size_t(row)].cmp) {
        return rv.items.empty() ? -1 : 0;
    }
    std::int64_t best = -1;
    std::pair<bool, double> key{false, -1};
    for (const auto& d : rv.rows[std::size_t(row)].cmp->diffs) {
        const std::pair<bool, double> k{d.flip, d.dpOrder()};
        if (k > key) {
            key = k;
            best = d.item;
        }
    }
    return best;
}

PresentationWindow::PresentationWindow(const ReviewPtr& review, int row, QWidget* parent)
    : QWidget(parent, Qt::Window), m_review(review) {
    setObjectName(QStringLiteral("presentation"));
    setWindowTitle(tr("ProbAudit — Presentation"));
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * kScale);
    setFont(big);
    m_stack = new QStackedWidget(this);
    m_footer = new QLabel(this);
    m_footer->setAlignment(Qt::AlignCenter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 16);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_footer);

    if (review->generation) {
        addGenerationSlides(big);
        showSlide(0);
        return;
    }
    const analysis::ReviewRow* rr = row >= 0 && std::size_t(row) < review->rows.size()
                                        ? &review->rows[std::size_t(row)]
                                        : nullptr;
    addHeadlineSlide(big);
    addBoundarySlide(rr);
    addNearTieSlide();
    addItemSlide(rr, row, big);
    addLayersSlide();
    addDiagnosisSlide(big);
    showSlide(0);
}

// 1. The headline.
void PresentationWindow::addHeadlineSlide(const QFont& big) {
    std::int64_t flips = 0, configs = 0;
    double maxDp = 0;
    for (const auto& r : m_review->rows) {
        if (r.cmp && !r.reference) {
            ++configs;
            flips += r.cmp->flips;
            maxDp = std::max(maxDp, r.cmp->max_dp);
        }
    }
    auto* dash = new QTableView;
    auto* model = new DashboardModel(dash);
    model->setReview(m_review);
    showTable(dash, model, big);
    dash->hideColumn(DashboardModel::DiffersColumn);
    dash->hideColumn(DashboardModel::VerdictColumn);
    m_stack->addWidget(
        slide(tr("Same model, same inputs: do the decisions reproduce?"),
              tr("%1 runtime configurations against the reference: %2 flipped decisions in total, "
                 "probabilities moved by up to %3 points.")
                  .arg(configs)
                  .arg(flips)
                  .arg(formatPoints(maxDp)),
              dash));
}

// 2. The near-tie view.
void PresentationWindow::addBoundarySlide(const analysis::ReviewRow* rr) {
    const analysis::Comparison* c = rr && rr->cmp ? &*rr->cmp : nullptr;
    const QString cfg = rr ? QString::fromStdString(rr->config) : QString();
    auto* hist = new QChartView;
    hist->setRenderHint(QPainter::Antialiasing);
    if (c != nullptr) {
        QChart* chart = makeMarginHistogram(*c);
        styleChart(chart, kScale);
        hist->setChart(chart);
    }
    m_stack->addWidget(
        slide(tr("Where decisions move: near the boundary"),
              tr("Items by their margin in the reference run; under %1, %2 "
                 "flipped and %3% kept every bit.")
                  .arg(cfg)
                  .arg(c ? c->flips : 0)
                  .arg(c ? formatShare(c->bit_identical_share).remove(u'%') : QStringLiteral("–")),
              hist));
}

// 3. Flips at near ties: every config's flip rate per reference-margin bin.
void PresentationWindow::addNearTieSlide() {
    const auto rows = analysis::nearTies(*m_review);
    std::int64_t flips = 0, below = 0;
    for (const auto& r : rows) {
        flips += r.flips;
        for (const auto& b : r.bins) {
            below += b.high <= 1.0 ? b.flips : 0;
        }
    }
    auto* view = new QChartView;
    view->setRenderHint(QPainter::Antialiasing);
    QChart* chart = makeNearTieChart(rows);
    styleChart(chart, kScale);
    view->setChart(chart);
    m_stack->addWidget(slide(
        tr("Do the flips sit at near ties?"),
        flips == 0 ? tr("No config flipped a decision; the whiskers show the flip rate each margin "
                        "bin still allows (Wilson 95%).")
                   : tr("%1 flipped decisions over all configs, %2 of them where the reference's "
                        "margin was below 1; whiskers: Wilson 95% intervals.")
                         .arg(flips)
                         .arg(below),
        view));
}

// 4. One item: a flip with the largest Δp, else the largest Δp.
void PresentationWindow::addItemSlide(const analysis::ReviewRow* rr, int row, const QFont& big) {
    const analysis::Comparison* c = rr && rr->cmp ? &*rr->cmp : nullptr;
    const QString cfg = rr ? QString::fromStdString(rr->config) : QString();
    auto* inspector = new Inspector;
    inspector->setFont(big);
    inspector->setReview(m_review);
    const std::int64_t item = tellingItem(*m_review, row);
    inspector->setItem(item);
    auto* scroll = new QScrollArea;
    scroll->setWidget(inspector);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    const bool flipped = c != nullptr && std::any_of(c->diffs.begin(), c->diffs.end(),
                                                     [&](const analysis::ItemDiff& d) {
                                                         return d.item == item && d.flip;
                                                     });
    m_stack->addWidget(
        slide(flipped ? tr("One input, two decisions") : tr("One input, two probabilities"),
              flipped ? tr("The same text gets another decision under %1.").arg(cfg)
                      : tr("The item whose probability moved most under %1.").arg(cfg),
              scroll));
}

// 5. The layers.
void PresentationWindow::addLayersSlide() {
    auto* heat = new HeatmapWidget;
    heat->setFontScale(kScale);
    heat->setReview(m_review);
    m_stack->addWidget(slide(tr("Where the numbers part: layer by layer"),
                             tr("Share of items whose hidden states differ from the reference, "
                                "per config and layer."),
                             heat));
}

// 6. The diagnosis.
void PresentationWindow::addDiagnosisSlide(const QFont& big) {
    auto* diag = new LadderChart;
    diag->setFont(big);
    if (m_review->diagnosis) {
        diag->setLadder(m_review->diagnosis->ladder, m_review->diagnosis->stopped_at);
    }
    auto* diagScroll = new QScrollArea;
    diagScroll->setWidget(diag);
    diagScroll->setWidgetResizable(true);
    diagScroll->setFrameShape(QFrame::NoFrame);
    m_stack->addWidget(slide(tr("Why: the suspects, one by one"),
                             m_review->diagnosis
                                 ? tr("Each probe changes one thing and compares bit for bit.")
                                 : tr("No diagnosis is stored yet: run probaudit diagnose."),
                             diagScroll));
}

// A generation study: the table, one diverging prompt, the gaps.
void PresentationWindow::addGenerationSlides(const QFont& big) {
    const int row = tellingGenerationRow(*m_review);
    const analysis::GenerationRow* g =
        row >= 0 ? &m_review->generation_rows[std::size_t(row)] : nullptr;
    auto* table = new QTableView;
    auto* model = new GenerationTableModel(table);
    model->setReview(m_review);
    showTable(table, model, big);
    table->hideColumn(GenerationTableModel::DiffersColumn); // the kind says it; keeps rows whole
    m_stack->addWidget(
        slide(tr("Same prompts, temperature 0: do the outputs reproduce?"),
              g ? tr("%1 prompts. Most telling: %2, %3 of %4 outputs byte-identical, pooled record "
                     "Jaccard %5.")
                      .arg(m_review->items.size())
                      .arg(generationRowName(*g))
                      .arg(qulonglong(g->cmp.identical))
                      .arg(qulonglong(g->cmp.items.size()))
                      .arg(QString::number(g->cmp.pooled_jaccard, 'f', 4))
                : tr("Nothing to compare yet: a generation study needs two finished runs."),
              table));
    const std::int64_t item = tellingGenerationItem(*m_review, row);
    auto* outputs = new QTextBrowser;
    outputs->setFont(big);
    QString subtitle = tr("Every output is byte-identical: there is no diverging prompt.");
    if (g != nullptr && item >= 0) {
        const analysis::GenerationItemDiff* d = nullptr;
        for (const auto& x : g->cmp.items) {
            d = x.id == m_review->items[std::size_t(item)].id ? &x : d;
        }
        outputs->setHtml(
            outputsHtml(*g, m_review->output(g->run_a, item), m_review->output(g->run_b, item), d));
        subtitle = tr("Prompt %1 under %2: the outputs part at generated token %3, where the "
                      "reference's top-2 logit gap was %4.")
                       .arg(QString::fromStdString(m_review->items[std::size_t(item)].id))
                       .arg(generationRowName(*g))
                       .arg(d ? d->first_divergence + 1 : 0) // 1-based, as the outputs say
                       .arg(d ? QString::number(double(d->gap_at_divergence), 'g', 3)
                              : QStringLiteral("–"));
    }
    m_stack->addWidget(slide(tr("One prompt, two outputs"), subtitle, outputs));
    auto* gaps = new QChartView;
    gaps->setRenderHint(QPainter::Antialiasing);
    if (g != nullptr) {
        QChart* chart = makeGapHistogram(g->cmp);
        styleChart(chart, kScale);
        gaps->setChart(chart);
    }
    m_stack->addWidget(slide(tr("Do outputs fork at near ties?"),
                             tr("The reference's top-2 logit gap where outputs first diverge, "
                                "against its gaps at every step."),
                             gaps));
}

QWidget* PresentationWindow::slide(const QString& title, const QString& subtitle, QWidget* body) {
    auto* w = new QWidget;
    auto* t = new QLabel(title, w);
    QFont tf = font();
    tf.setPointSizeF(tf.pointSizeF() * 1.5);
    tf.setBold(true);
    t->setFont(tf);
    t->setWordWrap(true);
    auto* s = new QLabel(subtitle, w);
    s->setWordWrap(true);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(t);
    v->addWidget(s);
    v->addSpacing(12);
    v->addWidget(body, 1);
    m_titles << title;
    return w;
}

int PresentationWindow::slideCount() const {
    return m_stack->count();
}
int PresentationWindow::currentSlide() const {
    return m_stack->currentIndex();
}
QString PresentationWindow::slideTitle(int index) const {
    return m_titles.value(index);
}

void PresentationWindow::showSlide(int index) {
    index = std::clamp(index, 0, slideCount() - 1);
    m_stack->setCurrentIndex(index);
    m_footer->setText(
        tr("%1 / %2  ·  ← → to move  ·  Esc to leave").arg(index + 1).arg(slideCount()));
}

void PresentationWindow::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_Right:
    case Qt::Key_Space:
    case Qt::Key_PageDown:
    case Qt::Key_Down:
        showSlide(currentSlide() + 1);
        return;
    case Qt::Key_Left:
    case Qt::Key_Backspace:
    case Qt::Key_PageUp:
    case Qt::Key_Up:
        showSlide(currentSlide() - 1);
        return;
    case Qt::Key_Home:
        showSlide(0);
        return;
    case Qt::Key_End:
        showSlide(slideCount() - 1);
        return;
    case Qt::Key_Escape:
        close();
        return;
    default:
        QWidget::keyPressEvent(e);
    }
}

} // namespace probaudit::ui
