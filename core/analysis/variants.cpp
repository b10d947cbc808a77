#include "core/analysis/variants.h"

#include <algorithm>
#include <cstdio>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

// Above the runtime floor: more flips than any runtime config, or as many and a larger Δp (the
// one rule of the variants table and the ladder's step).
bool aboveFloor(std::int64_t flips, double dp, std::int64_t floorFlips, double floorDp) {
    return flips > floorFlips || (flips == floorFlips && dp > floorDp);
}

// The row of the reference variant with the same runtime settings as `variantRow`.
const ReviewRow* baselineOf(const Review& rv, const ReviewRow& variantRow,
                            const std::string& refVariant) {
    json want = variantRow.config_json;
    want["model"] = refVariant;
    for (const auto& r : rv.rows) {
        if (!r.other_env && r.run && r.config_json == want) {
            return &r;
        }
    }
    return nullptr;
}

RuntimeFloor runtimeFloor(const Review& rv, const std::string& refVariant) {
    RuntimeFloor f;
    for (const auto& r : rv.rows) {
        if (r.other_env || r.reference || !r.cmp ||
            r.config_json.value("model", "") != refVariant) {
            continue;
        }
        ++f.configs;
        f.runs.emplace_back(r.config, r.run->id);
        if (r.cmp->flips > f.max_flips) {
            f.max_flips = r.cmp->flips;
            f.max_flips_config = r.config;
        }
        f.max_dp = std::max(f.max_dp, r.cmp->max_dp);
    }
    return f;
}

VariantRow variantRow(const Review& rv, const ReviewRow& row, const ReviewRow& base) {
    const Comparison c = compare(rv.data.at(base.run->id), rv.data.at(row.run->id), rv.items);
    VariantRow v;
    v.config = row.config;
    v.variant = row.config_json.value("model", "");
    v.baseline = base.config;
    v.items = c.items;
    v.flips = c.flips;
    v.max_dp = c.max_dp;
    v.p99_dp = c.p99_dp;
    v.labelled = c.labelled;
    v.broke = c.only_a_correct;
    v.fixed = c.only_b_correct;
    v.churn = wilson(v.broke + v.fixed, v.labelled);
    v.net = c.accuracy_diff;
    v.run = row.run->id;
    v.baseline_run = base.run->id;
    return v;
}

json intervalJson(const Interval& i) {
    return {{"estimate", i.estimate}, {"low", i.low}, {"high", i.high}};
}

} // namespace

VariantTable variantTable(const Review& rv) {
    VariantTable t;
    const auto models = rv.study.find("models");
    if (models == rv.study.end() || !rv.reference_run) {
        return t;
    }
    const ReviewRow* ref = rv.row(rv.reference_name);
    t.reference_variant = ref ? ref->config_json.value("model", "") : "";
    t.floor = runtimeFloor(rv, t.reference_variant);
    t.floor.reference_run = rv.reference_run->id;
    for (const auto& r : rv.rows) {
        const std::string variant = r.config_json.value("model", "");
        const bool server = models->contains(variant) && (*models)[variant].is_object() &&
                            (*models)[variant].value("format", "") == "endpoint";
        if (r.other_env || !r.run || variant == t.reference_variant || rv.generation || server) {
            continue; // a server is judged against the variant it serves (conformance.h)
        }
        const ReviewRow* base = baselineOf(rv, r, t.reference_variant);
        if (base == nullptr || !rv.data.count(base->run->id) || !rv.data.count(r.run->id)) {
            t.unpaired.push_back(r.config);
            continue;
        }
        VariantRow v = variantRow(rv, r, *base);
        v.above_floor =
            t.floor.configs > 0 && aboveFloor(v.flips, v.max_dp, t.floor.max_flips, t.floor.max_dp);
        t.rows.push_back(std::move(v));
    }
    return t;
}

void addVocabularyKl(VariantTable& t, const ledger::Ledger& led) {
    const auto kl = [&led](std::int64_t a, std::int64_t b) -> std::optional<VocabularyKl> {
        const VocabularyKl k =
            vocabularyKl(led.records(a, false, true), led.records(b, false, true));
        return k.available() ? std::optional<VocabularyKl>(k) : std::nullopt;
    };
    for (const auto& [config, run] : t.floor.runs) {
        if (const auto k = kl(t.floor.reference_run, run);
            k && (!t.floor.kl_mean || k->mean > *t.floor.kl_mean)) {
            t.floor.kl_mean = k->mean;
            t.floor.kl_config = config;
        }
    }
    for (auto& v : t.rows) {
        v.kl = kl(v.baseline_run, v.run);
        v.kl_above_floor = v.kl && t.floor.kl_mean && v.kl->mean > *t.floor.kl_mean;
    }
}

std::optional<LadderStep> variantStep(const std::vector<ConfigExplanation>& configs) {
    const auto isVariant = [](const ConfigExplanation& c) {
        return std::find(c.differs_in.begin(), c.differs_in.end(), "model") != c.differs_in.end();
    };
    std::vector<const ConfigExplanation*> alone; // differ from the reference in the variant only
    bool any = false;
    const ConfigExplanation* floor = nullptr; // the runtime config with the most flips
    double floorDp = 0;
    for (const auto& c : configs) {
        if (isVariant(c)) {
            any = true;
            if (c.result && c.differs_in.size() == 1) {
                alone.push_back(&c);
            }
        } else if (c.result) {
            if (floor == nullptr || c.result->flips > floor->result->flips) {
                floor = &c;
            }
            floorDp = std::max(floorDp, c.result->max_dp);
        }
    }
    if (!any) {
        return std::nullopt;
    }
    LadderStep s{"model variant", "", "", StepStatus::Untested};
    if (alone.empty()) {
        s.finding = "no config that differs from the reference in its model variant alone has a "
                    "run";
        s.verdict = "record one (a config with only \"model\" set) to judge the variant";
        return s;
    }
    std::vector<std::string> above;
    for (const ConfigExplanation* c : alone) {
        const ConfigResult& r = *c->result;
        s.finding += (s.finding.empty() ? "" : "; ") + c->config + ": " + std::to_string(r.flips) +
                     " flipped, largest Δp " + formatPoints(r.max_dp) + " points";
        if (floor != nullptr && aboveFloor(r.flips, r.max_dp, floor->result->flips, floorDp)) {
            above.push_back(c->config);
        }
    }
    if (floor == nullptr) {
        s.verdict = "the runtime noise floor is not measured: record a runtime config of the "
                    "reference variant (batch size, dtype, threads) to judge the variants";
        return s;
    }
    s.finding += "; the runtime configs flip at most " + std::to_string(floor->result->flips) +
                 (floor->result->flips > 0 ? " (" + floor->config + ")" : std::string()) +
                 ", largest Δp " + formatPoints(floorDp) + " points";
    std::string names;
    for (const auto& a : above) {
        names += (names.empty() ? "" : ", ") + a;
    }
    s.status = above.empty() ? StepStatus::Clean : StepStatus::Explains;
    s.verdict = above.empty()
                    ? "no variant changes more than the runtime settings already do"
                    : "the model variant changes more than the runtime settings do: " + names +
                          " (summary --variants: churn vs net)";
    return s;
}

json toJson(const VariantTable& t) {
    json rows = json::array();
    for (const auto& v : t.rows) {
        rows.push_back(
            {{"config", v.config},
             {"variant", v.variant},
             {"baseline", v.baseline},
             {"items", v.items},
             {"flips", v.flips},
             {"max_dp", v.max_dp},
             {"p99_dp", v.p99_dp},
             {"labelled", v.labelled},
             {"broke", v.broke},
             {"fixed", v.fixed},
             {"churn", intervalJson(v.churn)},
             {"net", v.net ? intervalJson(*v.net) : json()},
             {"above_noise_floor", t.floor.configs > 0 ? json(v.above_floor) : json()},
             {"vocabulary_kl", v.kl ? toJson(*v.kl) : json()},
             {"kl_above_noise_floor", v.kl && t.floor.kl_mean ? json(v.kl_above_floor) : json()}});
    }
    return {{"reference_variant", t.reference_variant},
            {"noise_floor",
             {{"configs", t.floor.configs},
              {"max_flips", t.floor.max_flips},
              {"max_flips_config", t.floor.max_flips_config},
              {"max_dp", t.floor.max_dp},
              {"kl_mean", t.floor.kl_mean ? json(*t.floor.kl_mean) : json()},
              {"kl_config", t.floor.kl_config}}},
            {"rows", rows},
            {"unpaired", t.unpaired}};
}

std::string formatShare(const Interval& i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f%% [%.1f, %.1f]", 100 * i.estimate, 100 * i.low,
                  100 * i.high);
    return buf;
}

std::string formatNetPoints(const std::optional<Interval>& i) {
    if (!i) {
        return "n/a (no labels)";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1f [%+.1f, %+.1f]", 100 * i->estimate, 100 * i->low,
                  100 * i->high);
    return buf;
}

std::string formatNats(double kl) {
    char buf[32];
    std::snprintf(buf, sizeof buf, kl < 1e-4 && kl > 0 ? "%.2e" : "%.4f", kl);
    return buf;
}

} // namespace probaudit::analysis
