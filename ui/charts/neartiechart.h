#pragma once
// Flips at near ties, answered: the flip rate of every config against the reference per
// reference-margin bin (log bins), each rate with its Wilson 95% interval as a whisker. Each
// config that flipped is drawn on its own; those that did not are one grey series at 0 whose
// whiskers reach the flip rate the sample still allows. For the charts tab, the report and
// presentation mode.
#include "core/analysis/seed_tables.h"

class QChart;

namespace probaudit::ui {

QChart* makeNearTieChart(const std::vector<analysis::NearTieRow>& rows);

} // namespace probaudit::ui
