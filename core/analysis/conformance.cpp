#include "core/analysis/conformance.h"

#include "core/analysis/compare.h"
#include "core/analysis/diagnosis.h" // formatPoints

#include <algorithm>
#include <set>

namespace probaudit::analysis {

using nlohmann::json;

// No distance measured counts as closest: the verdict then rests on the floor alone.
bool ServerConformance::closestToServed() const {
    return closest.empty() || std::find(closest.begin(), closest.end(), serves) != closest.end();
}

const char* verdictName(ConformanceVerdict v) {
    switch (v) {
    case ConformanceVerdict::Conforms:
        return "conforms";
    case ConformanceVerdict::Differs:
        return "differs";
    case ConformanceVerdict::TooLittle:
        return "too_little";
    case ConformanceVerdict::Untested:
        break;
    }
    return "untested";
}

namespace {

// Comparison without the bootstrap: the verdict reads flips and Δp only.
Comparison quickCompare(const Review& rv, std::int64_t a, std::int64_t b) {
    CompareOptions o;
    o.bootstrap_resamples = 0;
    return compare(rv.data.at(a), rv.data.at(b), rv.items, o);
}

// What a verdict counts of a comparison: flips among the items decided in both runs (a failed
// request is no decision, not another one), the items without a decision in either run, and
// the items decided in both whose Δp is unknown (a label the server did not list).
struct Counted {
    std::int64_t flips = 0, undecided = 0, unlisted = 0;
};
Counted counted(const Comparison& k) {
    Counted c;
    for (const ItemDiff& d : k.diffs) {
        const bool decided = d.decision_a >= 0 && d.decision_b >= 0;
        c.flips += decided && d.flip;
        c.undecided += !decided;
        c.unlisted += decided && !d.exact();
    }
    return c;
}

// A config's engine-side settings: its JSON without the axes of a server's requests (toJson
// leaves them out at their defaults), with `variant` as its model.
json engineSettings(json config, const std::string& variant) {
    for (const char* axis : {"concurrency", "arrival_seed", "repeat", "prefix_cache", "seed"}) {
        config.erase(axis);
    }
    config["model"] = variant;
    return config;
}

// The home environment's row with a finished, loaded run of exactly this config.
const ReviewRow* rowWith(const Review& rv, const json& config) {
    for (const auto& r : rv.rows) {
        if (!r.other_env && r.run && rv.data.count(r.run->id) && r.config_json == config) {
            return &r;
        }
    }
    return nullptr;
}

// The served variant's other runtime configs against the baseline.
void measureFloor(const Review& rv, const ReviewRow& base, ServerConformance& c) {
    for (const auto& r : rv.rows) {
        if (r.other_env || !r.run || !rv.data.count(r.run->id) || &r == &base ||
            r.config_json.value("model", "") != c.serves) {
            continue;
        }
        const Comparison k = quickCompare(rv, base.run->id, r.run->id);
        const std::int64_t flips = counted(k).flips;
        ++c.floor_configs;
        if (flips > c.floor_flips) {
            c.floor_flips = flips;
            c.floor_flips_config = r.config;
        }
        c.floor_dp = std::max(c.floor_dp, k.max_dp);
    }
}

// Every local variant with a run of the baseline's settings, against the server's run.
void measureDistances(const Review& rv, const std::set<std::string>& locals, const json& settings,
                      ServerConformance& c) {
    for (const std::string& v : locals) {
        const ReviewRow* r = rowWith(rv, engineSettings(settings, v));
        if (r == nullptr) {
            continue;
        }
        const Comparison k = quickCompare(rv, r->run->id, c.run);
        c.distances.push_back({v, r->config, counted(k).flips, k.max_dp});
    }
    const auto nearer = [](const ServerDistance& a, const ServerDistance& b) {
        return a.flips != b.flips ? a.flips < b.flips : a.max_dp < b.max_dp;
    };
    const auto best = std::min_element(c.distances.begin(), c.distances.end(), nearer);
    for (const auto& d : c.distances) {
        if (!nearer(*best, d)) {
            c.closest.push_back(d.variant);
        }
    }
}

std::string quotedList(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) {
        out += (out.empty() ? "\"" : ", \"") + n + "\"";
    }
    return out;
}

std::string count(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

void judge(ServerConformance& c) {
    const std::string served = "\"" + c.serves + "\"";
    const std::int64_t unknown = c.undecided + c.inexact; // disjoint (counted())
    if (c.items > 0 && double(unknown) > kTooLittleShare * double(c.items)) {
        c.verdict = ConformanceVerdict::TooLittle;
        c.finding = "the server returned too little to decide: " + std::to_string(unknown) +
                    " of " + std::to_string(c.items) +
                    " items came back without a decision or without every label among its "
                    "top_logprobs; ask for more of them ($.models." +
                    c.variant + ".top_logprobs) or look at the failed requests";
        return;
    }
    if (c.floor_configs == 0) {
        c.verdict = ConformanceVerdict::Untested;
        c.finding = "the runtime floor of " + served +
                    " is not measured: record another runtime config of it (a batch size, a "
                    "dtype) to judge the server against it";
        return;
    }
    const std::string floor = "at most " + count(c.floor_flips, "flip", "flips") + " and Δp " +
                              formatPoints(c.floor_dp) + " points under " + served +
                              "'s own runtime configs";
    const std::string moved = count(c.flips, "flip", "flips") + " of " + std::to_string(c.items) +
                              " decisions, largest Δp " + formatPoints(c.max_dp) + " points";
    if (c.flips > c.floor_flips) {
        c.verdict = ConformanceVerdict::Differs;
        c.finding = "the server changes more decisions than the runtime floor: " + moved +
                    " against " + served + ", " + floor +
                    (c.closestToServed()
                         ? "; among the local variants its answers are still closest to " + served +
                               ": the same weights computed by other kernels, or weights not "
                               "among the local variants"
                         : "; its answers are closest to " + quotedList(c.closest));
    } else if (!c.closestToServed()) {
        c.verdict = ConformanceVerdict::Differs;
        c.finding = "the server answers more like " + quotedList(c.closest) + " than like " +
                    served + ", the variant it claims to serve (" + moved + " against " + served +
                    ")";
    } else {
        c.verdict = ConformanceVerdict::Conforms;
        c.finding = "the server's decisions stay within the runtime floor of " + served + ": " +
                    moved + ", " + floor +
                    (c.max_dp > c.floor_dp ? "; its probabilities move more than the floor's (a "
                                             "runtime with other kernels)"
                                           : "");
    }
}

} // namespace

std::vector<ServerConformance> serverConformance(const Review& rv) {
    std::vector<ServerConformance> out;
    const auto models = rv.study.find("models");
    if (models == rv.study.end() || !models->is_object() || rv.generation) {
        return out;
    }
    std::set<std::string> locals;
    for (const auto& [name, m] : models->items()) {
        if (m.is_object() && m.value("format", "") != "endpoint") {
            locals.insert(name);
        }
    }
    for (const auto& r : rv.rows) {
        const std::string variant = r.config_json.value("model", "");
        const auto m = models->find(variant);
        if (r.other_env || !r.run || !rv.data.count(r.run->id) || m == models->end() ||
            !m->is_object() || m->value("format", "") != "endpoint" ||
            rv.data.at(r.run->id).records.empty()) {
            continue; // not a server's run, or a shard's part of one without items
        }
        ServerConformance c;
        c.config = r.config;
        c.variant = variant;
        c.serves = m->value("serves", "");
        c.run = r.run->id;
        const json settings = engineSettings(r.config_json, c.serves);
        const ReviewRow* base = rowWith(rv, settings);
        if (base == nullptr) {
            c.finding = "no run of \"" + c.serves +
                        "\" with the same engine settings to compare the server with; record "
                        "one (a config with \"model\": \"" +
                        c.serves + "\")";
            out.push_back(std::move(c));
            continue;
        }
        c.baseline = base->config;
        c.baseline_run = base->run->id;
        const Comparison k = quickCompare(rv, c.baseline_run, c.run);
        const Counted n = counted(k);
        c.items = k.items;
        c.flips = n.flips;
        c.undecided = n.undecided;
        c.inexact = n.unlisted;
        c.max_dp = k.max_dp;
        c.p99_dp = k.p99_dp;
        measureFloor(rv, *base, c);
        measureDistances(rv, locals, settings, c);
        judge(c);
        out.push_back(std::move(c));
    }
    return out;
}

json toJson(const ServerConformance& c) {
    json distances = json::array();
    for (const auto& d : c.distances) {
        distances.push_back({{"variant", d.variant},
                             {"config", d.config},
                             {"flips", d.flips},
                             {"max_dp", d.max_dp}});
    }
    return {{"config", c.config},
            {"variant", c.variant},
            {"serves", c.serves},
            {"baseline", c.baseline},
            {"run", c.run},
            {"baseline_run", c.baseline_run},
            {"items", c.items},
            {"flips", c.flips},
            {"undecided", c.undecided},
            {"inexact", c.inexact},
            {"max_dp", c.max_dp},
            {"p99_dp", c.p99_dp},
            {"floor",
             {{"configs", c.floor_configs},
              {"max_flips", c.floor_flips},
              {"max_flips_config", c.floor_flips_config},
              {"max_dp", c.floor_dp}}},
            {"distances", distances},
            {"closest", c.closest},
            {"verdict", verdictName(c.verdict)},
            {"finding", c.finding}};
}

} // namespace probaudit::analysis
