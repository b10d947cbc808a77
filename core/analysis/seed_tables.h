#pragma once
// The field reports' tables from any study's stored runs (issue "Demos that tell the seeds'
// stories"): the near-tie table (flip rate per reference-margin bin with its Wilson 95%
// interval, for every config against the reference), the first report's shape table (from the
// stored diagnosis) and its accuracy table (the reference against the batched path, paired 95%
// interval, decision agreement), and the second report's concurrency table for generation
// studies. One computation, written by `probaudit summary --seed-tables`, the report and the
// workbench. Torch-free, Qt-free.
#include "core/analysis/review.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace probaudit::analysis {

struct NearTieBin {
    double low = 0, high = 0; // |margin| of the reference record, [low, high)
    std::int64_t items = 0, flips = 0;
    Interval rate; // flips / items, Wilson 95%
};

// One config against the reference: its flips placed by the reference's margin.
struct NearTieRow {
    std::string config;
    std::int64_t run = 0;
    std::int64_t items = 0, flips = 0;
    std::vector<NearTieBin> bins; // marginEdges(), every bin (also empty ones)
};

// Every config of the review with a comparison, the reference itself left out.
std::vector<NearTieRow> nearTies(const Review& rv);

// The bins where any config has items, as Markdown: reference margin | items | then one
// column per config: "k (rate, low–high%)"; and the sentence that answers the question (how
// much of the flips sit below a margin of 0.1, 1).
void writeNearTiesMarkdown(std::ostream& out, const std::vector<NearTieRow>& rows);
nlohmann::json nearTiesJson(const std::vector<NearTieRow>& rows);

// A config's divergence rate per top-2 gap bin of a generation comparison: the steps where the
// two runs diverge among all steps of the reference in that bin, Wilson 95%.
Interval divergenceRate(const GenerationComparison& c, int bin);

// The first report's accuracy table for one head: the reference against the batched path.
struct AccuracyRow {
    std::string head, batched; // the batched path's config
    std::int64_t items = 0, labelled = 0;
    std::optional<double> accuracy_batched, accuracy_reference;
    std::optional<Interval> diff; // reference minus batched, paired bootstrap 95%
    double agreement = 1;
    std::int64_t flips = 0;
};

// The batched path of a review: `wanted` when given (Error when the study has no such config
// or it has no finished run); else the first config in study order that differs from the
// reference only in shape axes and has batch_size > 1, or none.
std::optional<std::string> batchedPath(const Review& rv, const std::string& wanted);
// The row of `rv`'s head; none when the batched path has no comparison.
std::optional<AccuracyRow> accuracyRow(const Review& rv, const std::string& batched);

// `probaudit summary --seed-tables`: (a) the shape table from the stored diagnosis (or a
// sentence saying how to get it), (b) the accuracy table, one row per head (`reviews`: one per
// head variant), (c) for a generation study the concurrency table; then the near-tie table.
void writeSeedTablesMarkdown(std::ostream& out, const std::vector<const Review*>& reviews,
                             const std::string& batched);
nlohmann::json seedTablesJson(const std::vector<const Review*>& reviews,
                              const std::string& batched);

} // namespace probaudit::analysis
