#pragma once
// A synthetic study ledger for the workbench tests and benchmarks: binary labels, a reference
// run and runs of other configs whose differences are known by construction (which items
// move, by how much, which flip, from which layer the hidden states differ), so a test can
// compute what every view must show without reading it back from the code under test.
#include "core/analysis/localization.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::testing {

struct FixtureConfig {
    std::string name;
    nlohmann::json config; // what differs from the reference's JSON
    // The change of item i's logit gap under this config (0: bit-identical).
    std::function<double(std::int64_t)> delta;
    // The first hidden state that differs for a moved item (later ones differ too).
    int first_layer = 1;
};

struct Fixture {
    std::int64_t items = 40;
    int layers = 4; // hidden states: layers + 1
    int hidden = 0; // > 0: decision-token vectors are recorded too
    std::vector<FixtureConfig> configs;
    nlohmann::json environment{{"cpu", "fixture"}}; // the fingerprint runs are recorded in
    std::map<std::string, nlohmann::json> config_environments; // by config name: another one
    // $.policy as a study file writes it (null: none); registered before the runs, and the
    // study then names its head "h" as a study file does.
    nlohmann::json policy;

    // The reference logit gap of item i: spread over [-3, 3], some very near 0.
    static double gap(std::int64_t i) { return double((i * 7) % 41 - 20) * 0.15 + 0.01; }
    static int label(std::int64_t i) { return int((i * 3) % 5 < 3); }
    static std::string text(std::int64_t i) {
        return (i % 4 == 0 ? "the soup was cold " : "a fine dinner ") + std::to_string(i);
    }
};

inline ledger::Record fixtureRecord(const Fixture& f, std::int64_t i, double delta, int firstLayer,
                                    std::uint64_t salt) {
    ledger::Record r;
    r.item = i;
    r.tokens = 6 + i % 9;
    const double g = Fixture::gap(i) + delta;
    const float l1 = float(g / 2), l0 = float(-g / 2);
    r.logits = {l0, l1};
    const double p1 = 1.0 / (1.0 + std::exp(-(double(l1) - double(l0))));
    r.probs = {float(1.0 - p1), float(p1)};
    r.decision = l1 >= l0 ? 1 : 0;
    r.margin = std::abs(l1 - l0);
    r.batch = i;
    r.padded_length = r.tokens;
    r.batch_seconds = 0.01;
    for (int l = 0; l <= f.layers; ++l) {
        const bool moved = delta != 0 && l >= firstLayer;
        r.layer_hashes.push_back(0x9e3779b97f4a7c15ULL * std::uint64_t(l + 1) ^ std::uint64_t(i) ^
                                 (moved ? salt : 0));
    }
    if (f.hidden > 0) {
        r.hidden = f.hidden;
        for (int l = 0; l <= f.layers; ++l) {
            for (int h = 0; h < f.hidden; ++h) {
                const bool moved = delta != 0 && l >= firstLayer;
                r.layer_vectors.push_back(float(h + 1) + (moved ? float(1e-3 * (l + 1)) : 0.0f));
            }
        }
    }
    return r;
}

// Writes the study, its items and one finished run per config (the reference first) for head
// "h". Returns the run ids in the order of `f.configs`.
inline std::vector<std::int64_t> writeFixtureLedger(const std::string& path, const Fixture& f) {
    ledger::Ledger led(path, ledger::Ledger::Mode::Write);
    nlohmann::json configs = nlohmann::json::object();
    const nlohmann::json base{{"batch_size", 1}, {"dtype", "float32"}, {"attention", "math"}};
    for (const auto& c : f.configs) {
        nlohmann::json j = base;
        j.update(c.config);
        configs[c.name] = j;
    }
    nlohmann::json study{{"name", "fixture-study"},
                         {"reference", f.configs.front().name},
                         {"configs", configs},
                         {"model", {{"path", "/nonexistent/model"}}},
                         {"dataset", {{"labels", {"negative", "positive"}}}}};
    const nlohmann::json head{
        {"kind", "adapter"}, {"name", "h"}, {"labels", {"negative", "positive"}}};
    if (!f.policy.is_null()) {
        study["policy"] = f.policy;
        study["heads"] = {{"h", head}};
    }
    std::vector<ledger::Item> items;
    for (std::int64_t i = 0; i < f.items; ++i) {
        items.push_back(
            {i, "item-" + std::to_string(i), Fixture::text(i), Fixture::label(i), i + 1});
    }
    led.initStudy(study, "fixture", items);
    ledger::registerPolicy(led, nlohmann::json(), study);
    const std::string env = led.putEnvironment(f.environment);
    std::vector<std::int64_t> ids;
    std::uint64_t salt = 0x1234;
    for (const auto& c : f.configs) {
        const std::string hash = "hash-" + c.name;
        led.putConfig(hash, c.name, configs[c.name]);
        const auto own = f.config_environments.find(c.name);
        const std::string runEnv =
            own == f.config_environments.end() ? env : led.putEnvironment(own->second);
        const auto run = led.beginRun("h", head, c.name, hash, runEnv, "hashes", f.items);
        std::vector<ledger::Record> batch;
        for (std::int64_t i = 0; i < f.items; ++i) {
            batch.push_back(fixtureRecord(f, i, c.delta ? c.delta(i) : 0.0, c.first_layer, salt));
            if (batch.size() == 512) {
                led.appendBatch(run, batch);
                batch.clear();
            }
        }
        if (!batch.empty()) {
            led.appendBatch(run, batch);
        }
        led.finishRun(run);
        ids.push_back(run);
        salt += 0x1111;
    }
    return ids;
}

// A study with an exact reference: "near" is exact on the even items (their gap moved by
// 1e-4, as the float64 run "exact" moves every item's) and the reference elsewhere, so the
// reference is farther from exact than "near" wherever float32 p tells them apart.
inline Fixture exactFixture() {
    Fixture f;
    f.configs = {
        {"reference", nlohmann::json::object(), {}, 1},
        {"near", nlohmann::json{{"batch_size", 8}},
         [](std::int64_t i) { return i % 2 == 0 ? 1e-4 : 0.0; }, 1},
        {"exact", nlohmann::json{{"dtype", "float64"}}, [](std::int64_t) { return 1e-4; }, 0}};
    return f;
}

// The default fixture: the reference; "batch-8" moves every third item by 1e-5 from layer 2
// and flips the items nearest the boundary (|gap| < 0.05, pushed across); "bfloat16" moves
// every item by 1e-3 from the embeddings (hidden state 0); "threads-2" is bit-identical.
inline Fixture defaultFixture(std::int64_t items = 40) {
    Fixture f;
    f.items = items;
    f.configs.push_back({"reference", nlohmann::json::object(), nullptr, 1});
    f.configs.push_back({"batch-8",
                         {{"batch_size", 8}},
                         [](std::int64_t i) {
                             const double g = Fixture::gap(i);
                             if (std::abs(g) < 0.05) {
                                 return g > 0 ? -0.1 : 0.1; // across the boundary
                             }
                             return i % 3 == 0 ? 1e-5 : 0.0;
                         },
                         2});
    f.configs.push_back(
        {"bfloat16", {{"dtype", "bfloat16"}}, [](std::int64_t) { return 1e-3; }, 0});
    f.configs.push_back({"threads-2", {{"threads", 2}}, nullptr, 1});
    return f;
}

// A generation study (head "words", records: lines, lower case, the most frequent as the
// answer) over `items` prompts with three finished runs: "serial" (the reference, arrival seed
// 1), "serial-reordered" (arrival seed 2, the same outputs) and "c4" (concurrency 4), whose
// outputs differ for every third item (i % 3 == 0): the second line reads "bad" instead of
// "fine", so the output forks at its second token, where the reference's top-2 logit gap was
// 5e-5. Per differing item: records {good, fine, item-i} against {good, bad, item-i}, 2 shared
// of 4, and the answers (ties: the smallest record) are "fine" against "bad".
inline void writeGenerationFixtureLedger(const std::string& path, std::int64_t items = 12) {
    ledger::Ledger led(path, ledger::Ledger::Mode::Write);
    const nlohmann::json configs{{"serial", {{"arrival_seed", 1}, {"concurrency", 1}}},
                                 {"serial-reordered", {{"arrival_seed", 2}, {"concurrency", 1}}},
                                 {"c4", {{"arrival_seed", 1}, {"concurrency", 4}}}};
    const nlohmann::json head{{"kind", "generation"},
                              {"name", "words"},
                              {"template", "List: {text}"},
                              {"max_new_tokens", 8},
                              {"stop", nlohmann::json::array()},
                              {"stop_at_eos", true},
                              {"records",
                               {{"mode", "lines"},
                                {"lowercase", true},
                                {"strip_bullets", true},
                                {"reduction", "most_frequent"}}}};
    const nlohmann::json study{{"name", "generation-fixture"},
                               {"reference", "serial"},
                               {"configs", configs},
                               {"heads", {{"words", head}}},
                               {"model", {{"path", "/nonexistent/model"}}},
                               {"dataset", nlohmann::json::object()}};
    std::vector<ledger::Item> list;
    for (std::int64_t i = 0; i < items; ++i) {
        list.push_back({i, "item-" + std::to_string(i), Fixture::text(i), std::nullopt, i + 1});
    }
    led.initStudy(study, "fixture", list);
    const std::string env = led.putEnvironment(nlohmann::json{{"cpu", "fixture"}});
    for (const std::string name : {"serial", "serial-reordered", "c4"}) {
        led.putConfig("hash-" + name, name, configs[name]);
        const auto run = led.beginRun("words", head, name, "hash-" + name, env, "hashes", items);
        std::vector<ledger::GenerationRecord> outs;
        for (std::int64_t i = 0; i < items; ++i) {
            const bool forks = name == "c4" && i % 3 == 0;
            ledger::GenerationRecord g;
            g.item = i;
            g.prompt_tokens = 5;
            g.text =
                std::string("Good\n") + (forks ? "bad" : "fine") + "\nitem-" + std::to_string(i);
            g.finish = "eos";
            g.arrival = i;
            g.tokens = {10, forks ? 12 : 11, 20 + std::int32_t(i)};
            g.logits = {9.0f, 7.5f, 6.0f};
            g.gaps = {0.5f, 5e-5f, 0.2f};
            g.batch = {1, name == "c4" ? 4 : 1, 1};
            outs.push_back(std::move(g));
        }
        led.appendGenerations(run, outs);
        led.finishRun(run);
    }
}

// A localised item "item-N" of a counterfactual localisation (the Cause view's and report's
// tests): its difference complete by hidden index `completeBy`, the class `cause` removing
// `share` of its Δp (every other class nothing), p 0.4 under A and 0.5 under B, no flip; its
// cause chosen as localize chooses it.
inline analysis::ItemCause fixtureCause(std::int64_t item, int completeBy, OpClass cause,
                                        double share) {
    analysis::ItemCause c;
    c.item = item;
    c.id = "item-" + std::to_string(item);
    c.p_a = 0.4;
    c.p_b = 0.5;
    c.decision_a = c.decision_b = 0;
    c.status = analysis::CauseStatus::Localised;
    c.complete_by = completeBy;
    c.removed = 1;
    for (int k = 0; k < kOpClassCount; ++k) {
        const auto cls = static_cast<OpClass>(k);
        c.classes.push_back(
            {cls, cls == cause ? share : 0.0, 0, 0.5 - 0.1 * (cls == cause ? share : 0.0)});
    }
    analysis::chooseCause(c, 0.95);
    return c;
}

} // namespace probaudit::testing
