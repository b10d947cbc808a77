#pragma once
// The comparison charts, built by one set of functions for the workbench and the report:
// the Δp histogram; the margin histogram with unchanged, changed and flipped items stacked per
// bin (the near-tie view); the scatter of p(ref) against p(cfg) with flips marked and the
// threshold lines. Clicking a bar or a point calls back (the review page filters its items
// table: ui/pages/chartspanel.h).
#include "ui/models/itemsmodel.h"

#include <functional>

class QChart;
class QChartView;

namespace probaudit::ui {

// A click on a bar: a description of the selection and the filter it means.
using BarClick = std::function<void(const QString& description, const ItemFilter& filter)>;
using PointClick = std::function<void(std::int64_t item)>;

QChart* makeDpHistogram(const analysis::Comparison& c, const BarClick& onClick = {});
QChart* makeMarginHistogram(const analysis::Comparison& c, const BarClick& onClick = {});
// At most `maxPoints` items of each kind (Δp = 0, Δp > 0, flipped) are drawn, evenly chosen;
// the legend says how many of how many. `threshold`: the decision threshold line (binary heads),
// negative for none.
QChart* makeScatter(const analysis::Comparison& c, double threshold, int maxPoints = 3000,
                    const PointClick& onClick = {});
// A chart in the light or dark theme of the application (create charts with it: a theme set
// after the series are added would override their meaning-carrying colours).
QChart* newChart();
// Applies the application's background and font (scaled) to a chart.
void styleChart(QChart* chart, double fontScale = 1.0);

} // namespace probaudit::ui
