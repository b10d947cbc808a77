#pragma once
// How a counterfactual localisation (analysis/localization.h) is printed: `probaudit localize`
// and the diagnosis ladder's "cause" rung share its table.
#include "core/analysis/localization.h"

namespace probaudit::app {

// Rows: the hidden state by which Δp is complete; columns: the share each operator class's
// splice removes on average, and (in brackets) the items it is the cause of; then the count of
// items explained.
void printCauseTable(const analysis::Localization& l);

} // namespace probaudit::app
