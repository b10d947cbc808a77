#include "ui/charts/exactchart.h"

#include "ui/charts/charts.h"
#include "ui/models/colors.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace probaudit::ui {

namespace {

// Bin k of a distance: 0 for exactly 0, then one per Δp edge interval (analysis::dpEdges), the
// first also holding what lies below its lower edge; -1 for NaN (not compared).
int binOfDistance(double v) {
    if (std::isnan(v)) {
        return -1;
    }
    if (v == 0) {
        return 0;
    }
    const auto& e = analysis::dpEdges();
    const auto it = std::upper_bound(e.begin(), e.end(), v);
    const auto k = std::distance(e.begin(), it); // values in [e[k-1], e[k])
    return int(std::clamp<std::ptrdiff_t>(k, 1, std::ptrdiff_t(e.size()) - 1));
}

QString lowEdge(int bin) {
    if (bin == 0) {
        return QStringLiteral("0");
    }
    const double v = analysis::dpEdges()[std::size_t(bin - 1)];
    return v < 0.01 ? QStringLiteral("1e%1").arg(int(std::lround(std::log10(v))))
                    : QString::number(v, 'g', 3);
}

} // namespace

QChart* makeExactChart(const analysis::ExactDistance& d, const QString& reference,
                       const QString& config) {
    auto* chart = newChart();
    const auto pct = [&d](std::int64_t k) {
        return d.items > 0 ? int(std::lround(100.0 * double(k) / double(d.items))) : 0;
    };
    chart->setTitle(QCoreApplication::translate(
                        "Charts", "Distance to exact |p − p_exact| (points): %1 closer on %2%, "
                                  "the reference on %3%")
                        .arg(config)
                        .arg(pct(d.b_closer))
                        .arg(pct(d.a_closer)));
    const int bins = int(analysis::dpEdges().size());
    std::vector<double> a(std::size_t(bins), 0), b(std::size_t(bins), 0);
    for (std::size_t i = 0; i < d.item_a.size(); ++i) {
        if (std::isnan(d.item_a[i]) || std::isnan(d.item_b[i])) {
            continue;
        }
        a[std::size_t(binOfDistance(d.item_a[i]))] += 1;
        b[std::size_t(binOfDistance(d.item_b[i]))] += 1;
    }
    auto* refSet =
        new QBarSet(QCoreApplication::translate("Charts", "%1 (reference)").arg(reference));
    auto* cfgSet = new QBarSet(config);
    refSet->setColor(unchangedColor());
    cfgSet->setColor(changedColor());
    QStringList cats;
    double most = 0;
    for (int k = 0; k < bins; ++k) {
        cats << lowEdge(k);
        *refSet << a[std::size_t(k)];
        *cfgSet << b[std::size_t(k)];
        most = std::max({most, a[std::size_t(k)], b[std::size_t(k)]});
    }
    auto* series = new QBarSeries;
    series->append(refSet);
    series->append(cfgSet);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(cats);
    x->setTitleText(
        QCoreApplication::translate(
            "Charts", "|p − p_exact| (points), bins from the value shown; float64 run: %1")
            .arg(QString::fromStdString(d.exact_config)));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    y->setRange(0, std::max(1.0, most * 1.08));
    y->applyNiceNumbers();
    y->setTitleText(QCoreApplication::translate("Charts", "items"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignTop);
    return chart;
}

} // namespace probaudit::ui
