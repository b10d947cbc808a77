#pragma once
// Comparing two generation runs over the same prompts (the generation audits; the second field
// report): which outputs are byte-identical, where each pair first diverges and how near a tie
// the reference was there (its top-2 logit gap), record-level Jaccard per item and pooled over
// the dataset, answer-level agreement after a reduction, and the gaps at divergence points set
// against the gaps at every step (are forks near ties?). Torch-free, Qt-free.
#include "core/analysis/records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::analysis {

// One prompt's output as a generation run records it.
struct GenerationOutput {
    std::string id;
    std::vector<std::int32_t> tokens;
    std::vector<float> gaps; // the top-2 logit gap at each step (same length as tokens)
    std::string text;
};

struct GenerationItemDiff {
    std::string id;
    bool identical = false;             // the same tokens and the same text
    std::int64_t first_divergence = -1; // first step whose token differs (-1: identical)
    float gap_at_divergence = 0; // the reference's (a's) top-2 gap at that step; NaN: not known
    std::size_t records_a = 0;   // distinct records
    std::size_t records_b = 0;
    SetCounts counts;
    double jaccard = 1;
    std::string answer_a; // with a reduction
    std::string answer_b;
};

// Logit gaps in decades: [0, 1e-4), [1e-4, 1e-3), ..., [1, 10), [10, inf).
struct GapHistogram {
    static constexpr int kBins = 7;
    static double lowerEdge(int bin); // 0, 1e-4, 1e-3, 1e-2, 0.1, 1, 10
    static int bin(double gap);
    std::int64_t at_divergence[kBins] = {};
    std::int64_t all_steps[kBins] = {}; // every step of the reference run
};

struct GenerationComparison {
    std::vector<GenerationItemDiff> items; // in a's order
    std::size_t identical = 0;
    std::size_t records_a = 0; // distinct records, summed over items
    std::size_t records_b = 0;
    SetCounts pooled;          // summed over items: records are (item, record) pairs
    double pooled_jaccard = 1; // pooled.intersection / pooled.union_size (1 when both empty)
    bool has_answers = false;
    std::size_t answers_agree = 0;
    GapHistogram gaps;

    double identicalShare() const {
        return items.empty() ? 1.0 : double(identical) / double(items.size());
    }
    double answerAgreement() const {
        return items.empty() ? 1.0 : double(answers_agree) / double(items.size());
    }
};

// `a` is the reference; items are matched by id (both runs must hold the same ids). Throws
// probaudit::Error when they do not.
GenerationComparison compareGenerations(const std::vector<GenerationOutput>& a,
                                        const std::vector<GenerationOutput>& b,
                                        const RecordSpec& records);

} // namespace probaudit::analysis
