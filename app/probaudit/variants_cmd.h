#pragma once
// `probaudit summary LEDGER --variants [--head NAME] [--json]`: the model variants table
// (analysis/variants.h): each variant against the reference variant under the same runtime
// settings, churn vs net, and the runtime noise floor.
#include <string>

namespace probaudit::app {

int summarizeVariants(const std::string& ledger, const std::string& head, bool asJson);

} // namespace probaudit::app
