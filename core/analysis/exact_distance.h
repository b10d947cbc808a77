#pragma once
// Distance to exact (DESIGN.md glossary, issue #50): which side of a comparison is right. A
// float64 run of the same head on the CPU is the exact reference; for two runs A (the study's
// reference config) and B, every item gets |p - p_exact| of each side, in points (100 x, the
// largest over the classes, as Δp), and which side is closer. Stored records only.
#include "core/analysis/compare.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

// One side's distances to exact over the compared items, in points.
struct ExactStats {
    double median = 0, p99 = 0, max = 0;
};

struct ExactDistance {
    std::string exact_config; // the float64 config's name
    std::int64_t exact_run = 0;
    std::int64_t items = 0; // items with every probability known in the three runs
    ExactStats a, b;        // run A (the reference) and run B
    std::int64_t a_closer = 0, b_closer = 0, ties = 0;
    // The exact sign test of a_closer against b_closer (two-sided; ties left out): is one side
    // closer on more items than chance would make it? float32 rounding alone splits the items
    // near-evenly between the sides.
    double sign_p = 1;
    // Per item of Comparison::diffs (same order): |p - p_exact| of A and B in points; NaN where
    // the item is not in the exact run or a probability is not known.
    std::vector<double> item_a, item_b;

    // The share of the items where B is closer to exact than A.
    double bCloserShare() const { return items > 0 ? double(b_closer) / double(items) : 0; }
    // The reference (A) is farther from exact than B: B is closer on more items than A is,
    // and the sign test says it is not chance (p < 0.05). referenceCloser: the other way.
    bool referenceFarther() const { return b_closer > a_closer && sign_p < 0.05; }
    bool referenceCloser() const { return a_closer > b_closer && sign_p < 0.05; }
    // 'the reference "ref" is farther from exact than "b8" (sign test p = 0.001): "b8" is closer
    // on 38% of 200 items, the reference on 22%, as close on 40%; median |p - p_exact| ...'
    // (the exact run is named where the sentence is introduced)
    std::string sentence(const std::string& nameA, const std::string& nameB) const;
};

// A stored config (canonical RunConfig JSON) is an exact reference: a valid config in float64.
bool isExactConfig(const nlohmann::json& config);

// |p - p_exact| in points of one record against the exact run's record of the same item: the
// largest over the classes; NaN when a probability is not known or the class counts differ.
double distanceToExact(const ledger::Record& r, const ledger::Record& exact);

// The distances of both sides of `cmp` (A against B) to the exact run `exact`.
ExactDistance distanceToExact(const Comparison& cmp, const RunData& a, const RunData& b,
                              const RunData& exact, const std::string& exactConfig);

nlohmann::json toJson(const ExactDistance& d);

} // namespace probaudit::analysis
