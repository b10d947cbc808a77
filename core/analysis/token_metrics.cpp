#include "core/analysis/token_metrics.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace probaudit::analysis {

namespace {

using TopList = std::vector<std::pair<std::string, double>>;

// log-sum-exp of the log-probabilities of `list` whose tokens are in `keep`.
double logNorm(const TopList& list, const std::map<std::string, double>& keep) {
    double best = -INFINITY;
    for (const auto& [t, lp] : list) {
        if (keep.count(t) != 0) {
            best = std::max(best, lp);
        }
    }
    double sum = 0;
    for (const auto& [t, lp] : list) {
        if (keep.count(t) != 0) {
            sum += std::exp(lp - best);
        }
    }
    return best + std::log(sum);
}

const double* find(const TopList& list, const std::string& token) {
    for (const auto& [t, lp] : list) {
        if (t == token) {
            return &lp;
        }
    }
    return nullptr;
}

// The last step compared: the first whose chosen tokens differ, else the shorter run's last.
std::size_t comparedSteps(const TokenTrace& a, const TokenTrace& b) {
    const std::size_t n = std::min({a.tokens.size(), b.tokens.size(), a.top.size(), b.top.size()});
    for (std::size_t s = 0; s < n; ++s) {
        if (a.tokens[s] != b.tokens[s]) {
            return s + 1;
        }
    }
    return n;
}

} // namespace

bool overlapKl(const TopList& a, const TopList& b, double& kl) {
    std::map<std::string, double> inA, both;
    for (const auto& [t, lp] : a) {
        inA.emplace(t, lp);
    }
    for (const auto& [t, lp] : b) {
        if (inA.count(t) != 0) {
            both.emplace(t, lp);
        }
    }
    if (both.empty()) {
        return false;
    }
    const double na = logNorm(a, both), nb = logNorm(b, both);
    kl = 0;
    for (const auto& [t, lpb] : both) {
        const double la = inA.at(t) - na, lb = lpb - nb;
        kl += std::exp(la) * (la - lb);
    }
    kl = std::max(kl, 0.0); // rounding can leave -1e-17
    return true;
}

TokenMetrics tokenMetrics(const std::vector<TokenTrace>& a, const std::vector<TokenTrace>& b) {
    TokenMetrics m;
    std::vector<double> kls;
    std::int64_t sameTop = 0;
    double dpSquares = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const std::size_t steps = comparedSteps(a[i], b[i]);
        for (std::size_t s = 0; s < steps; ++s) {
            const TopList& ta = a[i].top[s];
            const TopList& tb = b[i].top[s];
            if (ta.empty() || tb.empty()) {
                continue;
            }
            ++m.positions;
            const auto best = [](const TopList& l) {
                return std::max_element(
                           l.begin(), l.end(),
                           [](const auto& x, const auto& y) { return x.second < y.second; })
                    ->first;
            };
            sameTop += best(ta) == best(tb);
            double kl = 0;
            if (overlapKl(ta, tb, kl)) {
                kls.push_back(kl);
            } else {
                ++m.no_overlap;
            }
            const double* pa = find(ta, a[i].tokens[s]);
            const double* pb = find(tb, a[i].tokens[s]);
            if (pa != nullptr && pb != nullptr) {
                const double dp = 100.0 * (std::exp(*pb) - std::exp(*pa));
                dpSquares += dp * dp;
                ++m.dp_positions;
            }
        }
    }
    if (m.positions == 0) {
        return m;
    }
    m.top1 = wilson(sameTop, m.positions);
    if (!kls.empty()) {
        double sum = 0;
        for (double v : kls) {
            sum += v;
        }
        m.kl_mean = sum / double(kls.size());
        m.kl_median = quantile(kls, 0.5);
        m.kl_p99 = quantile(kls, 0.99);
        m.kl_max = *std::max_element(kls.begin(), kls.end());
    }
    if (m.dp_positions > 0) {
        m.rms_dp = std::sqrt(dpSquares / double(m.dp_positions));
    }
    return m;
}

std::vector<TokenTrace> tokenTraces(const std::vector<ledger::RequestRecord>& requests,
                                    std::size_t items) {
    std::vector<TokenTrace> out(items);
    for (const auto& r : requests) {
        if (r.item < 0 || std::size_t(r.item) >= items) {
            continue;
        }
        try {
            const nlohmann::json ex = nlohmann::json::parse(r.json);
            TokenTrace& t = out[std::size_t(r.item)];
            t.tokens = ex.value("tokens", std::vector<std::string>());
            for (const auto& step : ex.value("top", nlohmann::json::array())) {
                auto& list = t.top.emplace_back();
                for (const auto& pair : step) {
                    list.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<double>());
                }
            }
        } catch (const nlohmann::json::exception& e) {
            throw Error("item " + std::to_string(r.item) +
                        ": its stored exchange with the server is not what a run writes (" +
                        e.what() + ")");
        }
    }
    return out;
}

std::vector<TokenTrace> tokenTraces(const std::vector<ledger::GenerationRecord>& outputs,
                                    std::size_t items) {
    std::vector<TokenTrace> out(items);
    for (const auto& g : outputs) {
        const std::size_t steps = g.tokens.size();
        if (g.item < 0 || std::size_t(g.item) >= items || steps == 0 || g.top_tokens.empty() ||
            g.top_tokens.size() != g.top_logprobs.size() || g.top_tokens.size() % steps != 0) {
            continue; // no top-K lists (the ledger's reader refuses inconsistent ones)
        }
        const std::size_t K = g.top_tokens.size() / steps;
        TokenTrace& t = out[std::size_t(g.item)];
        for (std::size_t s = 0; s < steps; ++s) {
            t.tokens.push_back(std::to_string(g.tokens[s]));
            auto& list = t.top.emplace_back();
            for (std::size_t k = 0; k < K; ++k) {
                list.emplace_back(std::to_string(g.top_tokens[s * K + k]),
                                  double(g.top_logprobs[s * K + k]));
            }
        }
    }
    return out;
}

std::vector<TokenTrace> runTokenTraces(const std::vector<ledger::RequestRecord>& requests,
                                       const std::vector<ledger::GenerationRecord>& outputs,
                                       std::size_t items) {
    return requests.empty() ? tokenTraces(outputs, items) : tokenTraces(requests, items);
}

nlohmann::json toJson(const TokenMetrics& m) {
    return {{"positions", m.positions},
            {"no_overlap", m.no_overlap},
            {"kl",
             {{"mean", m.kl_mean}, {"median", m.kl_median}, {"p99", m.kl_p99}, {"max", m.kl_max}}},
            {"top1_same", {{"share", m.top1.estimate}, {"low", m.top1.low}, {"high", m.top1.high}}},
            {"dp_positions", m.dp_positions},
            {"rms_dp_points", m.rms_dp},
            {"definition",
             "KL(P_a || P_b) per position over the tokens both top-K lists hold, each "
             "renormalised over them; positions up to the first differing token"}};
}

} // namespace probaudit::analysis
