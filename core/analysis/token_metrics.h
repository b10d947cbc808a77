#pragma once
// Per-token distribution metrics between two generation runs over the same prompts, where both
// have the top-K log-probabilities of every step (an endpoint's top_logprobs, or an engine
// generation head's top_logprobs), after the
// standard of llama.cpp's `llama-perplexity --kl-divergence`:
//   KL divergence  per position, KL(P_a || P_b) = sum_t p_a(t) log(p_a(t) / p_b(t)) over the
//                  tokens both top-K lists hold, each list renormalised over that overlap (the
//                  rest of the vocabulary is not known); mean, median, p99 and max over positions
//   top-1          the share of positions whose most likely token is the same, with a Wilson
//                  95% interval ("same top token")
//   RMS Δp         the root mean square of p_b(t) - p_a(t) for the token run a chose, in points,
//                  over the positions where b's list holds it
// Positions are compared while the two contexts are the same: from the first step up to and
// including the first step whose chosen tokens differ (after it, the runs condition on other
// text). Torch-free, Qt-free.
#include "core/analysis/stats.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace probaudit::analysis {

// One item's generated tokens and, per step, the top-K alternatives (token, log-probability).
struct TokenTrace {
    std::vector<std::string> tokens;
    std::vector<std::vector<std::pair<std::string, double>>> top;
};

struct TokenMetrics {
    std::int64_t positions = 0;  // compared (both have a top-K list, same context)
    std::int64_t no_overlap = 0; // positions whose top-K lists share no token (no KL)
    double kl_mean = 0, kl_median = 0, kl_p99 = 0, kl_max = 0; // nats, over the overlap
    Interval top1;                 // share of positions with the same top token
    std::int64_t dp_positions = 0; // positions where b's list holds a's chosen token
    double rms_dp = 0;             // points
    bool available() const { return positions > 0; }
};

// KL(P_a || P_b) over the overlap of two top-K lists, each renormalised over it; returns false
// when they share no token.
bool overlapKl(const std::vector<std::pair<std::string, double>>& a,
               const std::vector<std::pair<std::string, double>>& b, double& kl);

// Items paired by index; an item without top-K lists in either run adds nothing.
TokenMetrics tokenMetrics(const std::vector<TokenTrace>& a, const std::vector<TokenTrace>& b);

// One run's traces by item index (`items` long) from its stored exchanges with a server (an
// endpoint run's `requests`); items without an exchange or without top-K lists stay empty.
// Throws probaudit::Error on an exchange that is not the JSON a run writes.
std::vector<TokenTrace> tokenTraces(const std::vector<ledger::RequestRecord>& requests,
                                    std::size_t items);
// The same from an engine run's generation outputs (a head with top_logprobs): tokens are named
// by their ids, which is what identifies them within one model.
std::vector<TokenTrace> tokenTraces(const std::vector<ledger::GenerationRecord>& outputs,
                                    std::size_t items);
// A run's traces: from its exchanges with a server when it has them, else from its outputs.
std::vector<TokenTrace> runTokenTraces(const std::vector<ledger::RequestRecord>& requests,
                                       const std::vector<ledger::GenerationRecord>& outputs,
                                       std::size_t items);

nlohmann::json toJson(const TokenMetrics& m);

} // namespace probaudit::analysis
