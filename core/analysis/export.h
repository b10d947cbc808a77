#pragma once
// Exports of a review (issue "Reports and audit bundles"): per-item differences of any
// comparison as CSV or JSON lines, and the headline table as CSV or Markdown. One writer per
// format, shared by the CLI (`probaudit compare --csv|--jsonl`, `probaudit summary
// [--csv]`) and the workbench's File → Export.
#include "core/analysis/review.h"

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
// A generation study (rv.generation): the agreement table of writeGenerationMarkdown.
void writeHeadlineMarkdown(std::ostream& out, const Review& rv);
void writeHeadlineCsv(std::ostream& out, const Review& rv);

// A generation comparison as JSON: items, identical, records_a, records_b, pooled_jaccard,
// answers, answers_agree, gap_histogram [{from, at_divergence, all_steps}], differing_items
// [{id, first_divergence, gap_at_divergence, jaccard, answer_a, answer_b}].
nlohmann::json generationComparisonJson(const GenerationComparison& c);
// The second field report's table: comparison | records | byte-identical | Jaccard (pooled) |
// answers agree, one row per JSON object of `comparisons` (generationComparisonJson plus "name"
// and "a", the reference side's name), then the gap histogram of the one with the most
// divergent outputs.
void writeGenerationMarkdown(std::ostream& out, const nlohmann::json& comparisons);
// rv.generation_rows in that form, named "B vs A".
nlohmann::json generationTableJson(const Review& rv);

} // namespace probaudit::analysis
