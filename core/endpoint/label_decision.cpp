#include "core/endpoint/label_decision.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace probaudit::endpoint {

LabelDecision decideLabels(const Step& first, const std::vector<std::string>& labels) {
    if (first.top.empty()) {
        throw ReplyError("the server returned no alternatives (top_logprobs) for the first token: "
                         "a label-token decision needs them; use a generation head for a server "
                         "without log-probabilities");
    }
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    LabelDecision d;
    d.cutoff = first.top.back().logprob;
    d.logprobs.assign(labels.size(), kNaN);
    d.probs.assign(labels.size(), kNaN);
    double best = -INFINITY, second = -INFINITY, norm = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        for (const TokenLogprob& t : first.top) {
            if (t.token == labels[i]) {
                d.logprobs[i] = t.logprob;
            }
        }
        const double lp = d.logprobs[i];
        if (std::isnan(lp)) {
            ++d.missing;
            continue;
        }
        if (lp > best) {
            second = best;
            best = lp;
            d.decision = int(i);
        } else if (lp > second) {
            second = lp;
        }
    }
    if (d.decision < 0) {
        d.margin = kNaN;
        return d;
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (!std::isnan(d.logprobs[i])) {
            norm += std::exp(d.logprobs[i] - best);
        }
    }
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (!std::isnan(d.logprobs[i])) {
            d.probs[i] = std::exp(d.logprobs[i] - best) / norm;
        }
    }
    // A missing label lies below the cut-off; the margin is against the better of the two.
    const double rival = d.missing > 0 ? std::max(second, d.cutoff) : second;
    d.margin = labels.size() < 2 ? kNaN : best - rival;
    return d;
}

std::string splitLabel(const Step& first, const std::vector<std::string>& labels) {
    const auto listed = [&](const std::string& token) {
        return token == first.token ||
               std::any_of(first.top.begin(), first.top.end(),
                           [&](const TokenLogprob& t) { return t.token == token; });
    };
    const auto prefixOf = [](const std::string& token, const std::string& label) {
        return !token.empty() && token.size() < label.size() &&
               label.compare(0, token.size(), token) == 0;
    };
    for (const std::string& label : labels) {
        if (listed(label)) {
            continue; // a token of its own (another token may still be a prefix of it)
        }
        if (prefixOf(first.token, label) ||
            std::any_of(first.top.begin(), first.top.end(),
                        [&](const TokenLogprob& t) { return prefixOf(t.token, label); })) {
            return label;
        }
    }
    return {};
}

} // namespace probaudit::endpoint
