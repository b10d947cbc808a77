#pragma once
// A generation comparison's logit gaps: the share of the divergence points and of all decoded
// steps per top-2 logit-gap decade (are forks near ties?). For the generation page and the
// report.
#include "core/analysis/generation_compare.h"

class QChart;

namespace probaudit::ui {

QChart* makeGapHistogram(const analysis::GenerationComparison& c);

} // namespace probaudit::ui
