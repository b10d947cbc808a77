#include "ui/charts/charts.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <cmath>
#include <map>

namespace probaudit::ui {

namespace {

QString edgeText(double v) {
    if (v >= 1e30) {
        return QStringLiteral("∞");
    }
    if (v == 0) {
        return QStringLiteral("0");
    }
    if (v < 0.01) {
        return QStringLiteral("1e%1").arg(int(std::lround(std::log10(v))));
    }
    return QString::number(v, 'g', 3);
}

QString binText(double low, double high) {
    return QStringLiteral("%1–%2").arg(edgeText(low), edgeText(high));
}

// A histogram's series with its axes: categories below, item counts on the left; hovering a
// segment names its bin, its set and its count.
void addHistogram(QChart* chart, QStackedBarSeries* series, const QStringList& cats,
                  const QString& xTitle, double maxCount,
                  const std::vector<std::pair<double, double>>& ranges) {
    QObject::connect(
        series, &QStackedBarSeries::hovered, chart, [ranges](bool on, int index, QBarSet* set) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const auto [lo, hi] = ranges[std::size_t(index)];
            QToolTip::showText(QCursor::pos(),
                               QCoreApplication::translate("Charts", "%1 in [%2, %3): %4 items")
                                   .arg(set->label(), edgeText(lo), edgeText(hi))
                                   .arg(set->at(index)));
        });
    series->setBarWidth(0.9);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(cats);
    x->setTitleText(xTitle);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    y->setRange(0, std::max(1.0, maxCount * 1.08));
    y->applyNiceNumbers();
    y->setTitleText(QCoreApplication::translate("Charts", "items"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignTop);
}

// The decision threshold as a dashed vertical and horizontal line, with one legend entry.
void addThresholdLines(QChart* chart, double threshold, QValueAxis* x, QValueAxis* y) {
    for (bool vertical : {true, false}) {
        auto* line = new QLineSeries;
        line->setName(vertical ? QCoreApplication::translate("Charts", "threshold") : QString());
        if (vertical) {
            line->append(threshold, 0);
            line->append(threshold, 1);
        } else {
            line->append(0, threshold);
            line->append(1, threshold);
        }
        QPen pen(QApplication::palette().color(QPalette::Mid));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.2);
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    // One legend entry for both lines.
    const auto markers = chart->legend()->markers(chart->series().last());
    for (auto* m : markers) {
        m->setVisible(false);
    }
}

// A click on a scatter series opens the item of the nearest point.
void openNearestOnClick(
    QChart* chart, QScatterSeries* s,
    const std::shared_ptr<std::map<const QScatterSeries*, std::vector<std::int64_t>>>& items,
    const PointClick& onClick) {
    QObject::connect(s, &QScatterSeries::clicked, chart, [s, items, onClick](QPointF p) {
        const auto pts = s->points();
        int best = -1;
        double bestD = 1e300;
        for (int i = 0; i < pts.size(); ++i) {
            const double dd = std::hypot(pts[i].x() - p.x(), pts[i].y() - p.y());
            if (dd < bestD) {
                bestD = dd;
                best = i;
            }
        }
        if (best >= 0) {
            onClick((*items)[s][std::size_t(best)]);
        }
    });
}

} // namespace

QChart* newChart() {
    auto* chart = new QChart;
    // The theme first: setting it later would repaint every series in the theme's colours.
    chart->setTheme(isDarkTheme() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    return chart;
}

void styleChart(QChart* chart, double fontScale) {
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * fontScale);
    QFont title = f;
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(f);
    for (auto* axis : chart->axes()) {
        axis->setLabelsFont(f);
        axis->setTitleFont(f);
    }
    chart->setMargins(QMargins(4, 4, 4, 4));
}

QChart* makeDpHistogram(const analysis::Comparison& c, const BarClick& onClick) {
    auto* chart = newChart();
    chart->setTitle(QCoreApplication::translate("Charts", "Δp per item (points), log bins"));
    auto* unchanged = new QBarSet(QCoreApplication::translate("Charts", "no flip"));
    auto* flipped = new QBarSet(QCoreApplication::translate("Charts", "flipped"));
    unchanged->setColor(changedColor());
    flipped->setColor(flipColor());
    QStringList cats;
    std::vector<std::pair<double, double>> ranges;
    // Δp exactly 0, then (0, 1e-7) (below the first edge), then the log bins.
    std::int64_t binned = 0, binnedFlips = 0;
    for (const auto& b : c.dp_bins) {
        binned += b.count;
        binnedFlips += b.flips;
    }
    std::int64_t zeroFlips = 0, tinyFlips = 0, tiny = 0;
    for (const auto& d : c.diffs) {
        if (d.dp == 0) {
            zeroFlips += d.flip;
        } else if (d.dp < c.dp_bins.front().low) {
            ++tiny;
            tinyFlips += d.flip;
        }
    }
    double maxCount = 0;
    auto add = [&](const QString& cat, std::int64_t count, std::int64_t flips, double lo,
                   double hi) {
        cats << cat;
        *unchanged << double(count - flips);
        *flipped << double(flips);
        ranges.emplace_back(lo, hi);
        maxCount = std::max(maxCount, double(count));
    };
    add(QStringLiteral("0"), c.dp_zero, zeroFlips, 0, 0);
    if (tiny > 0) {
        add(QStringLiteral("<%1").arg(edgeText(c.dp_bins.front().low)), tiny, tinyFlips, 1e-300,
            c.dp_bins.front().low);
    }
    for (const auto& b : c.dp_bins) {
        add(edgeText(b.low), b.count, b.flips, b.low, b.high); // lower edges: short, ordered
    }
    auto* series = new QStackedBarSeries;
    series->append(unchanged);
    series->append(flipped);
    addHistogram(chart, series, cats,
                 QCoreApplication::translate("Charts", "Δp (points), bins from the value shown"),
                 maxCount, ranges);
    if (onClick) {
        QObject::connect(
            series, &QStackedBarSeries::clicked, chart,
            [onClick, ranges, cats](int index, QBarSet*) {
                ItemFilter f;
                const auto [lo, hi] = ranges[std::size_t(index)];
                if (hi == 0) {
                    f.dpAbove.reset();
                    f.dpRange = std::make_pair(0.0, 1e-300);
                } else {
                    f.dpRange = std::make_pair(lo, hi);
                }
                onClick(
                    hi == 0
                        ? QCoreApplication::translate("Charts", "Δp = 0")
                        : QCoreApplication::translate("Charts", "Δp in %1").arg(binText(lo, hi)),
                    f);
            });
    }
    return chart;
}

QChart* makeMarginHistogram(const analysis::Comparison& c, const BarClick& onClick) {
    auto* chart = newChart();
    chart->setTitle(
        QCoreApplication::translate("Charts", "Reference margin |logit gap|: the near-tie view"));
    auto* same = new QBarSet(QCoreApplication::translate("Charts", "bit-identical p"));
    auto* changed = new QBarSet(QCoreApplication::translate("Charts", "p changed"));
    auto* flipped = new QBarSet(QCoreApplication::translate("Charts", "flipped"));
    same->setColor(unchangedColor());
    changed->setColor(changedColor());
    flipped->setColor(flipColor());
    QStringList cats;
    double maxCount = 0;
    for (const auto& b : c.margin_bins) {
        cats << edgeText(b.low); // lower edges: short, ordered; the tooltip names the bin
        *same << double(b.count - b.changed);
        *changed << double(b.changed - b.flips);
        *flipped << double(b.flips);
        maxCount = std::max(maxCount, double(b.count));
    }
    auto* series = new QStackedBarSeries;
    series->append(same);
    series->append(changed);
    series->append(flipped);
    std::vector<std::pair<double, double>> ranges;
    for (const auto& b : c.margin_bins) {
        ranges.emplace_back(b.low, b.high);
    }
    addHistogram(chart, series, cats,
                 QCoreApplication::translate("Charts",
                                             "|margin| in the reference run (logits), bins from "
                                             "the value shown"),
                 maxCount, ranges);
    if (onClick) {
        QObject::connect(series, &QStackedBarSeries::clicked, chart,
                         [onClick, ranges, same, changed, flipped](int index, QBarSet* set) {
                             ItemFilter f;
                             f.marginRange = ranges[std::size_t(index)];
                             QString what = QCoreApplication::translate("Charts", "|margin| in %1")
                                                .arg(binText(ranges[std::size_t(index)].first,
                                                             ranges[std::size_t(index)].second));
                             if (set == flipped) {
                                 f.flipsOnly = true;
                                 what += QCoreApplication::translate("Charts", ", flipped");
                             } else if (set == changed) {
                                 f.dpAbove = 0;
                                 what += QCoreApplication::translate("Charts", ", p changed");
                             } else if (set == same) {
                                 f.dpRange = std::make_pair(0.0, 1e-300);
                                 what += QCoreApplication::translate("Charts", ", p unchanged");
                             }
                             onClick(what, f);
                         });
    }
    return chart;
}

QChart* makeScatter(const analysis::Comparison& c, double threshold, int maxPoints,
                    const PointClick& onClick) {
    auto* chart = newChart();
    chart->setTitle(QCoreApplication::translate("Charts", "p (reference) against p (config)"));
    auto* same = new QScatterSeries;
    auto* changed = new QScatterSeries;
    auto* flipped = new QScatterSeries;
    auto kindOf = [&](const analysis::ItemDiff& d) {
        return d.flip ? flipped : (d.dp > 0 ? changed : same);
    };
    std::map<const QScatterSeries*, std::int64_t> total, seen, drawn;
    for (const auto& d : c.diffs) {
        ++total[kindOf(d)];
    }
    auto items = std::make_shared<std::map<const QScatterSeries*, std::vector<std::int64_t>>>();
    for (const auto& d : c.diffs) {
        QScatterSeries* s = kindOf(d);
        const std::int64_t step = std::max<std::int64_t>(1, (total[s] + maxPoints - 1) / maxPoints);
        if ((seen[s]++ % step) != 0) {
            continue;
        }
        ++drawn[s];
        s->append(double(d.p_a), double(d.p_b));
        (*items)[s].push_back(d.item);
    }
    auto name = [&](QScatterSeries* s, const QString& what) {
        s->setName(drawn[s] == total[s]
                       ? what
                       : QCoreApplication::translate("Charts", "%1 (%2 of %3 drawn)")
                             .arg(what)
                             .arg(drawn[s])
                             .arg(total[s]));
    };
    name(same, QCoreApplication::translate("Charts", "Δp = 0"));
    name(changed, QCoreApplication::translate("Charts", "Δp > 0"));
    name(flipped, QCoreApplication::translate("Charts", "flipped"));
    same->setColor(unchangedColor());
    changed->setColor(changedColor());
    flipped->setColor(flipColor());
    same->setMarkerSize(6);
    changed->setMarkerSize(7);
    flipped->setMarkerSize(11);
    for (auto* s : {same, changed, flipped}) {
        s->setBorderColor(Qt::transparent);
        chart->addSeries(s);
    }
    auto* x = new QValueAxis;
    auto* y = new QValueAxis;
    x->setRange(0, 1);
    y->setRange(0, 1);
    x->setTitleText(QCoreApplication::translate("Charts", "p (reference)"));
    y->setTitleText(QCoreApplication::translate("Charts", "p (config)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    if (threshold >= 0) {
        addThresholdLines(chart, threshold, x, y);
    }
    chart->legend()->setAlignment(Qt::AlignTop);
    if (onClick) {
        for (auto* series : {same, changed, flipped}) {
            openNearestOnClick(chart, series, items, onClick);
        }
    }
    return chart;
}

} // namespace probaudit::ui
