#include "ui/charts/gapchart.h"

#include "ui/charts/charts.h"
#include "ui/models/colors.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QValueAxis>

#include <algorithm>

namespace probaudit::ui {

namespace {
// The translation context of the generation view's shared pieces (kept as it always was).
class GenerationView {
    Q_DECLARE_TR_FUNCTIONS(GenerationView)
};
} // namespace

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

} // namespace probaudit::ui
