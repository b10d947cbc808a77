#pragma once
// Whole next-token distributions compared between two runs of a label_tokens head that records
// its vocabulary (a head with "vocabulary": true), after the standard of llama.cpp's
// `llama-perplexity --kl-divergence`, at the one position that decides:
//   KL divergence  per item, KL(P_a || P_b) = sum over every vocabulary token t of
//                  p_a(t) (log p_a(t) - log p_b(t)), in nats; mean, median, p99 and max
//   same top token the share of items whose most likely vocabulary token is the same in both
//                  runs, with a Wilson 95% interval
// Unlike token_metrics.h (top-K lists of a server or a generation head), nothing is left out:
// both rows hold the whole vocabulary. Torch-free, Qt-free.
#include "core/analysis/stats.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace probaudit::analysis {

struct VocabularyKl {
    std::int64_t items = 0;                        // items both runs recorded a vocabulary for
    double mean = 0, median = 0, p99 = 0, max = 0; // KL(P_a || P_b), nats
    std::int64_t same_top = 0;                     // items with the same most likely token
    Interval same_top_share;                       // same_top / items, Wilson 95%
    bool available() const { return items > 0; }
};

// KL(P || Q) in nats of two rows of log-probabilities over one vocabulary, summed in double
// after each row is renormalised in double (a float32 softmax sums to 1 only up to rounding);
// 0 for equal rows, never negative (a rounding residue below 0 is 0), +infinity when Q gives no
// probability to a token P gives some. Throws probaudit::Error when the sizes differ or a row
// has a NaN.
double vocabularyKlDivergence(const std::vector<float>& logP, const std::vector<float>& logQ);

// The most likely token of a row (the first of equal ones).
std::int64_t topToken(const std::vector<float>& logProbs);

// Records paired by item (both in item order, as Ledger::records gives them, read with their
// vocabulary); items without a vocabulary in either run or without finite logits add nothing.
// Throws probaudit::Error when the two runs' vocabularies differ in size (another tokenizer).
VocabularyKl vocabularyKl(const std::vector<ledger::Record>& a,
                          const std::vector<ledger::Record>& b);

nlohmann::json toJson(const VocabularyKl& k);

} // namespace probaudit::analysis
