#include "core/analysis/compare.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace probaudit::analysis {

using nlohmann::json;

const std::vector<double>& marginEdges() {
    static const std::vector<double> e{0, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 1e38};
    return e;
}

const std::vector<double>& dpEdges() {
    static const std::vector<double> e{1e-7, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100};
    return e;
}

std::string Verdict::sentence() const {
    std::string s = std::string("accuracy ") + (accuracy ? "reproduces" : "does NOT reproduce") +
                    "; decisions " + (decisions ? "reproduce" : "do NOT reproduce") +
                    "; probabilities " +
                    (probabilities ? "reproduce bit for bit" : "do NOT reproduce bit for bit");
    return s;
}

namespace {

template <typename T> bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool bitIdentical(const ledger::Record& a, const ledger::Record& b) {
    return sameBits(a.probs, b.probs) && sameBits(a.logits, b.logits) &&
           std::memcmp(&a.margin, &b.margin, sizeof a.margin) == 0 && a.decision == b.decision &&
           sameBits(a.layer_hashes, b.layer_hashes) && sameBits(a.layer_vectors, b.layer_vectors) &&
           sameBits(a.layer_full, b.layer_full);
}

float positive(const ledger::Record& r, int cls) {
    return cls >= 0 && std::size_t(cls) < r.probs.size() ? r.probs[std::size_t(cls)] : NAN;
}

std::vector<Bin> emptyBins(const std::vector<double>& edges) {
    std::vector<Bin> bins;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
        bins.push_back(Bin{edges[i], edges[i + 1], 0, 0, 0, 0});
    }
    return bins;
}

} // namespace

std::vector<KernelDiff> kernelTraceDiff(const json& a, const json& b) {
    std::vector<KernelDiff> out;
    for (const auto& [part, kind] :
         {std::pair<const char*, TraceEntryKind>{"ops", TraceEntryKind::Op},
          {"device_kernels", TraceEntryKind::DeviceKernel}}) {
        std::map<std::string, std::pair<std::int64_t, std::int64_t>> counts;
        if (a.is_object() && a.contains(part)) {
            for (const auto& [name, n] : a[part].items()) {
                counts[name].first = n.get<std::int64_t>();
            }
        }
        if (b.is_object() && b.contains(part)) {
            for (const auto& [name, n] : b[part].items()) {
                counts[name].second = n.get<std::int64_t>();
            }
        }
        for (const auto& [name, c] : counts) {
            if (c.first != c.second) {
                out.push_back({kind, name, c.first, c.second});
            }
        }
    }
    return out;
}

std::vector<double> layerRelL2(const ledger::Record& a, const ledger::Record& b) {
    std::vector<double> out;
    const std::int64_t H = a.hidden;
    if (H <= 0 || a.hidden != b.hidden || a.layer_vectors.size() != b.layer_vectors.size()) {
        return out;
    }
    const std::size_t layers = a.layer_vectors.size() / std::size_t(H);
    for (std::size_t l = 0; l < layers; ++l) {
        double num = 0, den = 0;
        for (std::int64_t h = 0; h < H; ++h) {
            const double va = a.layer_vectors[l * std::size_t(H) + std::size_t(h)];
            const double vb = b.layer_vectors[l * std::size_t(H) + std::size_t(h)];
            num += (va - vb) * (va - vb);
            den += va * va;
        }
        out.push_back(den > 0 ? std::sqrt(num / den) : (num > 0 ? INFINITY : 0.0));
    }
    return out;
}

namespace {

// The records both runs have, by item.
std::vector<std::pair<const ledger::Record*, const ledger::Record*>> pairRecords(const RunData& a,
                                                                                 const RunData& b) {
    std::vector<std::pair<const ledger::Record*, const ledger::Record*>> pairs;
    std::size_t j = 0;
    for (const auto& ra : a.records) {
        while (j < b.records.size() && b.records[j].item < ra.item) {
            ++j;
        }
        if (j < b.records.size() && b.records[j].item == ra.item) {
            pairs.emplace_back(&ra, &b.records[j]);
        }
    }
    return pairs;
}

// An item's difference without its layers: p, Δp, decisions, margins, bit-identity, label.
ItemDiff diffItem(const ledger::Record& ra, const ledger::Record& rb,
                  const std::vector<ledger::Item>& items) {
    ItemDiff d;
    d.item = ra.item;
    const bool binary = ra.probs.size() == 2;
    const int cls = binary ? 1 : ra.decision;
    d.p_a = positive(ra, cls);
    d.p_b = positive(rb, cls);
    double dp = 0;
    for (std::size_t k = 0; k < std::min(ra.probs.size(), rb.probs.size()); ++k) {
        const double v = 100.0 * std::abs(double(ra.probs[k]) - double(rb.probs[k]));
        dp = std::isnan(v) || std::isnan(dp) ? std::numeric_limits<double>::quiet_NaN()
                                             : std::max(dp, v);
    }
    d.dp = dp;
    d.decision_a = ra.decision;
    d.decision_b = rb.decision;
    d.flip = ra.decision != rb.decision;
    d.margin_a = ra.margin;
    d.margin_b = rb.margin;
    d.bit_identical = bitIdentical(ra, rb);
    if (d.item >= 0 && std::size_t(d.item) < items.size()) {
        d.label = items[std::size_t(d.item)].label;
    }
    return d;
}

// The margin histogram (by run A's |margin|) and the Δp histogram.
void addToBins(Comparison& c, const ItemDiff& d) {
    if (!d.exact()) {
        return;
    }
    const double dp = d.dp;
    const int mb = binOf(marginEdges(), std::abs(double(d.margin_a)));
    if (mb >= 0) {
        Bin& bin = c.margin_bins[std::size_t(mb)];
        ++bin.count;
        bin.flips += d.flip;
        bin.changed += dp > 0;
        bin.mean_dp += dp;
    }
    if (dp == 0) {
        ++c.dp_zero;
    } else {
        const int db = binOf(dpEdges(), dp);
        if (db >= 0) {
            Bin& bin = c.dp_bins[std::size_t(db)];
            ++bin.count;
            bin.flips += d.flip;
            bin.changed += 1;
            bin.mean_dp += dp;
        }
    }
}

// Accuracy of both runs on the labelled items, the paired bootstrap interval of the difference
// and McNemar's test.
void accuracyLevel(Comparison& c, const std::vector<std::uint8_t>& correctA,
                   const std::vector<std::uint8_t>& correctB, const CompareOptions& opt) {
    c.labelled = static_cast<std::int64_t>(correctA.size());
    if (c.labelled == 0) {
        return;
    }
    double sa = 0, sb = 0;
    for (std::size_t i = 0; i < correctA.size(); ++i) {
        sa += correctA[i];
        sb += correctB[i];
    }
    c.accuracy_a = sa / double(c.labelled);
    c.accuracy_b = sb / double(c.labelled);
    c.accuracy_diff =
        pairedBootstrapDiff(correctA, correctB, opt.bootstrap_resamples, opt.bootstrap_seed);
    c.mcnemar_p = mcnemarExactP(c.only_a_correct, c.only_b_correct);
    c.verdict.accuracy = c.accuracy_diff->low <= 0 && c.accuracy_diff->high >= 0;
}

} // namespace

Comparison compare(const RunData& a, const RunData& b, const std::vector<ledger::Item>& items,
                   const CompareOptions& opt) {
    Comparison c;
    c.run_a = a.run.id;
    c.run_b = b.run.id;
    const auto pairs = pairRecords(a, b);
    c.items = static_cast<std::int64_t>(pairs.size());
    if (pairs.empty()) {
        throw Error("runs " + std::to_string(a.run.id) + " and " + std::to_string(b.run.id) +
                    " share no items");
    }
    const std::size_t nLayers = std::min(pairs.front().first->layer_hashes.size(),
                                         pairs.front().second->layer_hashes.size());
    std::vector<std::int64_t> layerDiff(nLayers, 0);
    std::vector<std::vector<double>> relL2(nLayers);
    c.first_divergent.assign(nLayers, 0);
    c.layer_words = (nLayers + 63) / 64;
    c.layer_bits.assign(c.layer_words * pairs.size(), 0);
    c.margin_bins = emptyBins(marginEdges());
    c.dp_bins = emptyBins(dpEdges());
    std::vector<double> dps;
    std::vector<std::uint8_t> correctA, correctB;
    std::int64_t identical = 0;
    for (const auto& [ra, rb] : pairs) {
        ItemDiff d = diffItem(*ra, *rb, items);
        identical += d.bit_identical;
        // Layers: the first hidden state whose real-token bytes differ.
        if (nLayers == 0) {
            d.first_divergent_layer = -2;
        } else {
            d.first_divergent_layer = -1;
            for (std::size_t l = 0; l < nLayers; ++l) {
                if (ra->layer_hashes[l] != rb->layer_hashes[l]) {
                    ++layerDiff[l];
                    c.layer_bits[c.diffs.size() * c.layer_words + l / 64] |= std::uint64_t(1)
                                                                             << (l % 64);
                    if (d.first_divergent_layer < 0) {
                        d.first_divergent_layer = int(l);
                    }
                }
            }
            if (d.first_divergent_layer >= 0) {
                ++c.first_divergent[std::size_t(d.first_divergent_layer)];
            } else {
                ++c.no_divergent_layer;
            }
        }
        const auto rel = layerRelL2(*ra, *rb);
        for (std::size_t l = 0; l < std::min(nLayers, rel.size()); ++l) {
            relL2[l].push_back(rel[l]);
        }
        addToBins(c, d);
        if (d.label) {
            const std::uint8_t ca = ra->decision == *d.label, cb = rb->decision == *d.label;
            correctA.push_back(ca);
            correctB.push_back(cb);
            c.only_a_correct += ca && !cb;
            c.only_b_correct += cb && !ca;
        }
        c.flips += d.flip;
        c.undecided += d.decision_a < 0 || d.decision_b < 0;
        if (d.exact()) {
            dps.push_back(d.dp);
        } else {
            ++c.inexact;
        }
        c.diffs.push_back(d);
    }
    for (Bin& bin : c.margin_bins) {
        bin.mean_dp = bin.count ? bin.mean_dp / double(bin.count) : 0;
    }
    for (Bin& bin : c.dp_bins) {
        bin.mean_dp = bin.count ? bin.mean_dp / double(bin.count) : 0;
    }
    const double n = double(c.items);
    if (!dps.empty()) {
        c.max_dp = *std::max_element(dps.begin(), dps.end());
        double sum = 0;
        for (double v : dps) {
            sum += v;
        }
        c.mean_dp = sum / double(dps.size());
        c.p99_dp = quantile(dps, 0.99);
    }
    c.agreement = 1.0 - double(c.flips) / n;
    c.bit_identical_share = double(identical) / n;
    for (std::size_t l = 0; l < nLayers; ++l) {
        LayerDivergence ld;
        ld.layer = int(l);
        ld.share_different = double(layerDiff[l]) / n;
        if (!relL2[l].empty()) {
            ld.rel_l2_median = quantile(relL2[l], 0.5);
            ld.rel_l2_max = *std::max_element(relL2[l].begin(), relL2[l].end());
        }
        c.layers.push_back(ld);
    }
    accuracyLevel(c, correctA, correctB, opt);
    c.verdict.decisions = c.flips == 0;
    c.verdict.probabilities = identical == c.items;
    c.kernel_diff = kernelTraceDiff(a.run.kernel_trace, b.run.kernel_trace);
    return c;
}

json toJson(const Comparison& c, bool withItems) {
    auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(); };
    auto bins = [](const std::vector<Bin>& bs) {
        json out = json::array();
        for (const Bin& b : bs) {
            out.push_back({{"low", b.low},
                           {"high", b.high},
                           {"count", b.count},
                           {"flips", b.flips},
                           {"changed", b.changed},
                           {"mean_dp", b.mean_dp}});
        }
        return out;
    };
    json layers = json::array();
    for (const auto& l : c.layers) {
        layers.push_back({{"layer", l.layer},
                          {"share_different", l.share_different},
                          {"rel_l2_median", opt(l.rel_l2_median)},
                          {"rel_l2_max", opt(l.rel_l2_max)}});
    }
    json kernels = json::array();
    for (const auto& k : c.kernel_diff) {
        kernels.push_back(
            {{"kind", k.kind}, {"name", k.name}, {"count_a", k.count_a}, {"count_b", k.count_b}});
    }
    json j{{"run_a", c.run_a},
           {"run_b", c.run_b},
           {"items", c.items},
           {"max_dp", c.max_dp},
           {"mean_dp", c.mean_dp},
           {"p99_dp", c.p99_dp},
           {"flips", c.flips},
           {"agreement", c.agreement},
           {"bit_identical_share", c.bit_identical_share},
           {"labelled", c.labelled},
           {"accuracy_a", opt(c.accuracy_a)},
           {"accuracy_b", opt(c.accuracy_b)},
           {"accuracy_diff", c.accuracy_diff ? json{{"estimate", c.accuracy_diff->estimate},
                                                    {"low", c.accuracy_diff->low},
                                                    {"high", c.accuracy_diff->high}}
                                             : json()},
           {"only_a_correct", c.only_a_correct},
           {"only_b_correct", c.only_b_correct},
           {"mcnemar_p", opt(c.mcnemar_p)},
           {"first_divergent_layer", c.first_divergent},
           {"no_divergent_layer", c.no_divergent_layer},
           {"layers", layers},
           {"margin_bins", bins(c.margin_bins)},
           {"dp_zero", c.dp_zero},
           {"dp_bins", bins(c.dp_bins)},
           {"kernel_diff", kernels},
           {"verdict",
            {{"accuracy", c.verdict.accuracy},
             {"decisions", c.verdict.decisions},
             {"probabilities", c.verdict.probabilities},
             {"sentence", c.verdict.sentence()}}}};
    if (withItems) {
        json items = json::array();
        for (const auto& d : c.diffs) {
            items.push_back({{"item", d.item},
                             {"dp", d.dp},
                             {"flip", d.flip},
                             {"bit_identical", d.bit_identical},
                             {"p_a", d.p_a},
                             {"p_b", d.p_b},
                             {"margin_a", d.margin_a},
                             {"margin_b", d.margin_b},
                             {"decision_a", d.decision_a},
                             {"decision_b", d.decision_b},
                             {"label", d.label ? json(*d.label) : json()},
                             {"first_divergent_layer", d.first_divergent_layer}});
        }
        j["item_diffs"] = items;
    }
    // Only endpoint runs have items without a known Δp or decision: other comparisons print as
    // they always did.
    if (c.inexact > 0) {
        j["inexact"] = c.inexact;
    }
    if (c.undecided > 0) {
        j["undecided"] = c.undecided;
    }
    return j;
}

std::string firstLayers(const Comparison& c) {
    int lo = -1, hi = -1;
    for (std::size_t l = 0; l < c.first_divergent.size(); ++l) {
        if (c.first_divergent[l] > 0) {
            lo = lo < 0 ? int(l) : lo;
            hi = int(l);
        }
    }
    auto name = [](int l) {
        return l == 0 ? std::string("embeddings") : "layer " + std::to_string(l);
    };
    if (c.layers.empty()) {
        return "not captured";
    }
    if (lo < 0) {
        return c.bit_identical_share < 1 ? "none (head only)" : "none";
    }
    if (lo == hi) {
        return name(lo);
    }
    return name(lo) + " to " + (hi == 0 ? "embeddings" : std::to_string(hi));
}

} // namespace probaudit::analysis
