#pragma once
// Comparing two runs of one study from their stored records (DESIGN.md, Analyses): per-item
// Δp, flips, bit-identity, margins; the summary with accuracy, a paired bootstrap interval of
// the accuracy difference and McNemar's exact test; per-layer divergence and the first
// divergent layer; margin and Δp histograms; the kernel-trace diff; the three-level verdict.
// Works on stored records only, so runs from other machines compare like local ones.
#include "core/analysis/stats.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

struct RunData {
    ledger::Run run;
    std::vector<ledger::Record> records; // by item, as Ledger::records() returns them
};

struct ItemDiff {
    std::int64_t item = 0;
    // Δp in points: 100 x |p_a - p_b| (multi-class: the largest over classes); NaN when a class's
    // p is not known in one of the runs (a label a server did not list, a failed request).
    double dp = 0;
    bool flip = false;          // decisions differ
    bool bit_identical = false; // every recorded float and hash the same bits
    float p_a = 0, p_b = 0;     // p: the positive class (binary) or run A's decision class
    float margin_a = 0, margin_b = 0;
    int decision_a = -1, decision_b = -1;
    std::optional<int> label;
    int first_divergent_layer = -1; // hidden-state index (0 = embeddings); -1 none; -2 not captured
    bool exact() const { return !std::isnan(dp); }
    // For sorting by Δp, largest first: an unknown Δp sorts below every known one.
    double dpOrder() const { return exact() ? dp : -1; }
};

struct LayerDivergence {
    int layer = 0;              // hidden-state index: 0 = embeddings, i = after layer i
    double share_different = 0; // items whose real-token states differ bitwise
    std::optional<double> rel_l2_median, rel_l2_max; // decision-token vector, when captured
};

struct Bin {
    double low = 0, high = 0;
    std::int64_t count = 0, flips = 0, changed = 0; // changed: the probability moved at all
    double mean_dp = 0;
};

struct KernelDiff {
    TraceEntryKind kind = TraceEntryKind::Op;
    std::string name;
    std::int64_t count_a = 0, count_b = 0;
};

struct Verdict {
    bool accuracy = true;  // the accuracy difference's interval contains 0 (true without labels)
    bool decisions = true; // no flips
    bool probabilities = true; // every item bit-identical
    std::string sentence() const;
};

struct Comparison {
    std::int64_t run_a = 0, run_b = 0;
    std::int64_t items = 0; // compared: recorded in both runs
    // Items whose Δp is not known (a label a server did not list in its top_logprobs, in either
    // run): the Δp statistics leave them out; their decisions are compared all the same.
    std::int64_t inexact = 0;
    // Items without a decision in either run (a failed request, non-finite logits).
    std::int64_t undecided = 0;
    double max_dp = 0, mean_dp = 0, p99_dp = 0; // over the items with a known Δp
    std::int64_t flips = 0;
    double agreement = 1;
    double bit_identical_share = 1;
    std::int64_t labelled = 0;
    std::optional<double> accuracy_a, accuracy_b;
    std::optional<Interval> accuracy_diff; // b - a, paired bootstrap 95%
    std::int64_t only_a_correct = 0, only_b_correct = 0;
    std::optional<double> mcnemar_p;
    std::vector<std::int64_t> first_divergent; // count per hidden-state index
    std::int64_t no_divergent_layer =
        0; // items whose hidden states all match (differences, if any, in the head)
    std::vector<LayerDivergence> layers;
    std::vector<Bin> margin_bins; // by |margin| in run A, log-spaced
    std::int64_t dp_zero = 0;     // items with Δp exactly 0
    std::vector<Bin> dp_bins;     // Δp > 0, log-spaced (points)
    std::vector<KernelDiff> kernel_diff;
    Verdict verdict;
    std::vector<ItemDiff> diffs; // by item
    // Which hidden states differ, per item: bit l % 64 of word diffs_index * layer_words + l / 64
    // is set when hidden state l's real-token bytes differ (the heatmap's click-through).
    std::size_t layer_words = 0;
    std::vector<std::uint64_t> layer_bits;
    bool layerDiffers(std::size_t diffIndex, std::size_t layer) const {
        return layer_words > 0 && layer / 64 < layer_words &&
               ((layer_bits[diffIndex * layer_words + layer / 64] >> (layer % 64)) & 1U) != 0;
    }
};

struct CompareOptions {
    int bootstrap_resamples = 10000;
    std::uint64_t bootstrap_seed = 20150810;
};

// Bin edges (numpy.histogram convention: [e_i, e_i+1), the last bin closed).
const std::vector<double>& marginEdges();
const std::vector<double>& dpEdges();

Comparison compare(const RunData& a, const RunData& b, const std::vector<ledger::Item>& items,
                   const CompareOptions& options = {});

// Relative L2 distance |b - a| / |a| per hidden state between the decision-token vectors of
// two records (empty when vectors were not captured).
std::vector<double> layerRelL2(const ledger::Record& a, const ledger::Record& b);

std::vector<KernelDiff> kernelTraceDiff(const nlohmann::json& a, const nlohmann::json& b);

nlohmann::json toJson(const Comparison& c, bool withItems);

// Where the hidden states start to differ, as the field report's table says it: "none",
// "none (head only)" when only the head's output moved, "layer 1", "layer 1 to 6",
// "embeddings", or "not captured".
std::string firstLayers(const Comparison& c);

} // namespace probaudit::analysis
