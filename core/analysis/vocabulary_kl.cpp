#include "core/analysis/vocabulary_kl.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace probaudit::analysis {

namespace {

// log(sum exp(x)) of a row, in double.
double logSumExp(const std::vector<float>& row) {
    double top = -std::numeric_limits<double>::infinity();
    for (float v : row) {
        top = std::max(top, static_cast<double>(v));
    }
    if (!std::isfinite(top)) {
        return top;
    }
    double sum = 0;
    for (float v : row) {
        sum += std::exp(static_cast<double>(v) - top);
    }
    return top + std::log(sum);
}

} // namespace

double vocabularyKlDivergence(const std::vector<float>& logP, const std::vector<float>& logQ) {
    if (logP.size() != logQ.size()) {
        throw Error("the two distributions cover " + std::to_string(logP.size()) + " and " +
                    std::to_string(logQ.size()) +
                    " vocabulary tokens; KL needs one vocabulary (the same tokenizer)");
    }
    const auto hasNan = [](const std::vector<float>& r) {
        return std::any_of(r.begin(), r.end(), [](float v) { return std::isnan(v); });
    };
    if (hasNan(logP) || hasNan(logQ)) {
        throw Error("a vocabulary distribution holds a NaN log-probability");
    }
    const double zp = logSumExp(logP), zq = logSumExp(logQ);
    double kl = 0;
    for (std::size_t t = 0; t < logP.size(); ++t) {
        const double lp = static_cast<double>(logP[t]) - zp;
        if (std::isinf(lp)) { // p(t) = 0 adds nothing
            continue;
        }
        const double lq = static_cast<double>(logQ[t]) - zq;
        kl += std::exp(lp) * (lp - lq); // +inf where q(t) = 0 < p(t)
    }
    return std::max(kl, 0.0);
}

std::int64_t topToken(const std::vector<float>& logProbs) {
    return std::distance(logProbs.begin(), std::max_element(logProbs.begin(), logProbs.end()));
}

VocabularyKl vocabularyKl(const std::vector<ledger::Record>& a,
                          const std::vector<ledger::Record>& b) {
    VocabularyKl out;
    std::vector<double> kls;
    std::size_t j = 0;
    for (const auto& ra : a) {
        while (j < b.size() && b[j].item < ra.item) {
            ++j;
        }
        if (j == b.size()) {
            break;
        }
        const auto& rb = b[j];
        if (rb.item != ra.item || ra.vocabulary.empty() || rb.vocabulary.empty() || ra.nonfinite ||
            rb.nonfinite) {
            continue;
        }
        kls.push_back(vocabularyKlDivergence(ra.vocabulary, rb.vocabulary));
        out.same_top += topToken(ra.vocabulary) == topToken(rb.vocabulary) ? 1 : 0;
    }
    out.items = static_cast<std::int64_t>(kls.size());
    if (kls.empty()) {
        return out;
    }
    double sum = 0;
    for (double k : kls) {
        sum += k;
    }
    out.mean = sum / static_cast<double>(kls.size());
    out.median = quantile(kls, 0.5);
    out.p99 = quantile(kls, 0.99);
    out.max = *std::max_element(kls.begin(), kls.end());
    out.same_top_share = wilson(out.same_top, out.items);
    return out;
}

nlohmann::json toJson(const VocabularyKl& k) {
    if (!k.available()) {
        return nullptr;
    }
    return {{"items", k.items},
            {"kl_mean", k.mean},
            {"kl_median", k.median},
            {"kl_p99", k.p99},
            {"kl_max", k.max},
            {"same_top", k.same_top},
            {"same_top_share",
             {{"estimate", k.same_top_share.estimate},
              {"low", k.same_top_share.low},
              {"high", k.same_top_share.high}}}};
}

} // namespace probaudit::analysis
