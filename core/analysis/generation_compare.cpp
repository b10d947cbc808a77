#include "core/analysis/generation_compare.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

namespace probaudit::analysis {

double GapHistogram::lowerEdge(int bin) {
    return bin <= 0 ? 0.0 : std::pow(10.0, double(bin - 5));
}

int GapHistogram::bin(double gap) {
    int b = 0;
    while (b + 1 < kBins && gap >= lowerEdge(b + 1)) {
        ++b;
    }
    return b;
}

namespace {

std::size_t distinct(const std::vector<std::string>& records) {
    return std::set<std::string>(records.begin(), records.end()).size();
}

} // namespace

GenerationComparison compareGenerations(const std::vector<GenerationOutput>& a,
                                        const std::vector<GenerationOutput>& b,
                                        const RecordSpec& records) {
    std::unordered_map<std::string, const GenerationOutput*> byId;
    for (const auto& o : b) {
        if (!byId.emplace(o.id, &o).second) {
            throw Error("the second run holds item " + o.id + " twice");
        }
    }
    if (a.size() != b.size()) {
        throw Error("the runs hold " + std::to_string(a.size()) + " and " +
                    std::to_string(b.size()) + " items");
    }
    GenerationComparison c;
    c.has_answers = !records.reduction.empty();
    for (const auto& x : a) {
        const auto it = byId.find(x.id);
        if (it == byId.end()) {
            throw Error("item " + x.id + " is not in the second run");
        }
        const GenerationOutput& y = *it->second;
        GenerationItemDiff d;
        d.id = x.id;
        // The text too: a server that returns no tokens (no log-probabilities) gives only text.
        d.identical = x.tokens == y.tokens && x.text == y.text;
        if (!d.identical) {
            const auto n = std::min(x.tokens.size(), y.tokens.size());
            std::size_t k = 0;
            while (k < n && x.tokens[k] == y.tokens[k]) {
                ++k;
            }
            d.first_divergence = static_cast<std::int64_t>(k);
            // Where one run stopped and the other went on, the shorter one's last step decided.
            // A gap the run does not know (a server without two alternatives per token) is NaN
            // and counts in no bin.
            const std::size_t at = std::min(k, x.gaps.empty() ? 0 : x.gaps.size() - 1);
            d.gap_at_divergence =
                x.gaps.empty() ? std::numeric_limits<float>::quiet_NaN() : x.gaps[at];
            if (!std::isnan(d.gap_at_divergence)) {
                c.gaps.at_divergence[GapHistogram::bin(d.gap_at_divergence)]++;
            }
        } else {
            ++c.identical;
        }
        for (const float g : x.gaps) {
            if (!std::isnan(g)) {
                c.gaps.all_steps[GapHistogram::bin(g)]++;
            }
        }
        const auto ra = parseRecords(x.text, records);
        const auto rb = parseRecords(y.text, records);
        d.records_a = distinct(ra);
        d.records_b = distinct(rb);
        d.counts = setCounts(ra, rb);
        d.jaccard = jaccard(ra, rb);
        c.records_a += d.records_a;
        c.records_b += d.records_b;
        c.pooled.intersection += d.counts.intersection;
        c.pooled.union_size += d.counts.union_size;
        if (c.has_answers) {
            d.answer_a = reduceAnswer(ra, records.reduction);
            d.answer_b = reduceAnswer(rb, records.reduction);
            c.answers_agree += d.answer_a == d.answer_b ? 1 : 0;
        }
        c.items.push_back(std::move(d));
    }
    c.pooled_jaccard = c.pooled.union_size == 0
                           ? 1.0
                           : double(c.pooled.intersection) / double(c.pooled.union_size);
    return c;
}

} // namespace probaudit::analysis
