#pragma once
// Distance to exact, drawn: |p - p_exact| in points for the reference run and the selected
// config over the same log bins (0, then the Δp histogram's edges), side by side, so the side
// whose bars sit further left is the one nearer the float64 run. For the charts tab and the
// report.
#include "core/analysis/exact_distance.h"

#include <QString>

class QChart;

namespace probaudit::ui {

QChart* makeExactChart(const analysis::ExactDistance& d, const QString& reference,
                       const QString& config);

} // namespace probaudit::ui
