#pragma once
// Exports of a review (issue "Reports and audit bundles"): per-item differences of any
// comparison as CSV or JSON lines, and the headline table as CSV or Markdown. One writer per
// format, shared by the CLI (`probaudit compare --csv|--jsonl`, `probaudit summary
// [--csv]`) and the workbench's File → Export.
#include "analysis/review.h"

#include <ostream>

namespace probaudit::analysis {

// One row per compared item: item, id, label, p_a, p_b, dp_points, flip, bit_identical,
// margin_a, margin_b, decision_a, decision_b, first_divergent_layer (RFC 4180 quoting).
void writeItemsCsv(std::ostream& out, const Comparison& c, const std::vector<ledger::Item>& items);
// The same fields, one JSON object per line.
void writeItemsJsonl(std::ostream& out, const Comparison& c,
                     const std::vector<ledger::Item>& items);
// The headline: config | accuracy | agreement with reference | flips | largest Δp (points) |
// bit-identical | first divergent layer, the reference first.
void writeHeadlineMarkdown(std::ostream& out, const Review& rv);
void writeHeadlineCsv(std::ostream& out, const Review& rv);

} // namespace probaudit::analysis
