#pragma once
// A label-token decision over an endpoint (DESIGN.md, "decision head"): the first generated
// token's alternatives (top_logprobs) restricted to the label tokens. p(label) is renormalised
// over the labels the server listed; the margin is the log-probability gap between the two best
// labels, which equals the gap of their logits, as the engine's margin. A label the server did
// not list is *missing*: its log-probability is below the smallest one listed (the cut-off), not
// minus infinity, so the decision is still the best listed label (no missing one can beat it),
// its margin is a lower bound (best minus the cut-off) and its p is an upper bound.
#include "core/endpoint/openai_api.h"

#include <string>
#include <vector>

namespace probaudit::endpoint {

struct LabelDecision {
    std::vector<double> logprobs; // per label, in label order; NaN: missing
    std::vector<double> probs;    // per label, renormalised over the listed ones; NaN: missing
    int decision = -1;            // the best listed label; -1 when none is listed
    double margin = 0;            // best minus second best (or minus the cut-off when missing)
    int missing = 0;              // labels not listed
    double cutoff = 0;            // the smallest log-probability listed
    bool bounded() const { return missing > 0; } // margin is a lower bound, p an upper bound
};

// From the first generated token's alternatives. Throws ReplyError when the server listed no
// alternatives (it returns no log-probabilities).
LabelDecision decideLabels(const Step& first, const std::vector<std::string>& labels);

// A label the server splits into several tokens shows as a label that is not among the first
// token's alternatives while a proper prefix of it is (" Pos" for " Positive"): returns the
// first such label, or "". A label listed as a token of its own is never split, whatever else
// is listed (" N" beside " No").
std::string splitLabel(const Step& first, const std::vector<std::string>& labels);

} // namespace probaudit::endpoint
