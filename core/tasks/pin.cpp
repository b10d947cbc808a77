#include "core/tasks/pin.h"

#include "core/analysis/fingerprint.h"
#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/common/utc_now.h"
#include "core/common/vocabulary.h"
#include "core/engine/engine.h"
#include "core/engine/env_fingerprint.h"
#include "core/ledger/ledger.h"
#include "core/pyrunner/transformers_runner.h"
#include "core/runner/runner_batches.h"
#include "core/runner/study_session.h"
#include "core/study/study.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cinttypes>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>

namespace probaudit::tasks {

using nlohmann::json;

namespace {

std::string hex64(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    return buf;
}

// One sample item's results, from whichever runner computed them.
struct SampleRecord {
    std::string id;
    std::vector<float> probs, logits;
    int decision = -1;
    std::vector<std::uint64_t> hashes;
};

// The sample's results as exact data: float32 bit patterns in hex, layer hashes in hex.
std::vector<LockedResult> sampleResults(const std::vector<SampleRecord>& records) {
    std::vector<LockedResult> out;
    for (const auto& r : records) {
        auto bits = [](const std::vector<float>& v) {
            std::vector<std::string> a;
            for (float f : v) {
                std::uint32_t u = 0;
                std::memcpy(&u, &f, 4);
                char buf[12];
                std::snprintf(buf, sizeof buf, "%08x", u);
                a.emplace_back(buf);
            }
            return a;
        };
        std::vector<std::string> hashes;
        for (auto h : r.hashes) {
            hashes.push_back(hex64(h));
        }
        out.push_back({r.id, r.probs, bits(r.probs), bits(r.logits), r.decision, hashes});
    }
    return out;
}

// Where a pinned config runs: the built-in engine, or the transformers runner in the Python
// environment the lock (or the study) names, with the config's CPU capability.
struct Runtime {
    std::string modelPath;
    HeadSpec head;
    RunConfig config;
    std::optional<study::Environment> python; // set for the transformers runner
};

std::optional<study::Environment> pythonEnvironment(const study::Study& s, const RunConfig& c) {
    if (c.runner != Runner::Transformers) {
        return std::nullopt;
    }
    const study::Environment* e = s.environment(c.env);
    if (e == nullptr) {
        throw Error(s.file, "no environment \"" + c.env + "\" in $.environments");
    }
    return *e;
}

study::Environment withCapability(study::Environment e, const RunConfig& c) {
    if (c.cpu_capability != CpuCapability::Auto) {
        e.vars.push_back("ATEN_CPU_CAPABILITY=" + nameString(c.cpu_capability));
    }
    return e;
}

// The runtime's fingerprint, with the config's settings applied (thread counts are in it).
json currentEnvironment(const Runtime& rt) {
    if (!rt.python) {
        engine::Engine::applyProcessSettings(rt.config);
        return engine::collectEnvironment();
    }
    runner::TransformersRunner tr(withCapability(*rt.python, rt.config));
    tr.load(rt.modelPath, rt.head.toJson(), rt.config.toJson());
    return tr.fingerprint();
}

// Reruns the sample as one group under the config (the same batches wherever it is rerun);
// `environment` gets the fingerprint of the runtime that computed it.
std::vector<SampleRecord> rerunSample(const Runtime& rt, const std::vector<engine::Item>& sample,
                                      json& environment) {
    std::vector<SampleRecord> out;
    if (!rt.python) {
        engine::Engine eng(rt.modelPath, rt.head);
        eng.prepare(rt.config);
        environment = engine::collectEnvironment();
        for (const auto& r : eng.run(sample, rt.config, engine::Capture::Hashes)) {
            out.push_back(
                {sample[r.item].id, r.head.probs, r.head.logits, r.head.decision, r.layer_hashes});
        }
        return out;
    }
    runner::TransformersRunner tr(withCapability(*rt.python, rt.config));
    tr.load(rt.modelPath, rt.head.toJson(), rt.config.toJson());
    environment = tr.fingerprint();
    std::vector<std::string> texts;
    for (const auto& it : sample) {
        texts.push_back(it.text);
    }
    const auto tokens = tr.tokenize(texts, rt.config.max_length);
    std::vector<const runner::RunnerItem*> items;
    for (const auto& t : tokens) {
        items.push_back(&t);
    }
    out.resize(sample.size());
    runner::runRunnerBatches(
        tr, items, rt.head, rt.config, "hashes", {}, /*trace=*/false,
        [&](std::vector<ledger::Record>&& recs, double) {
            for (auto& r : recs) {
                const auto k = std::size_t(r.item);
                out[k] = {sample[k].id, r.probs, r.logits, r.decision, r.layer_hashes};
            }
            return true;
        });
    return out;
}

// The checkpoint a config runs: its model variant's ($.models), or the study's one model.
std::string variantPath(const study::Study& s, const RunConfig& config) {
    if (s.models.empty()) { // a server: no checkpoint
        return s.model_path;
    }
    const study::ModelVariant* v = s.variant(config.model);
    if (v == nullptr) {
        throw Error(s.file, "the run's model variant \"" + config.model +
                                "\" is not one of the study's $.models");
    }
    return v->path;
}

} // namespace

PinResult pinRun(const PinOptions& o) {
    const study::Study s = study::Study::load(o.study);
    const std::string ledgerPath = o.ledger.empty() ? runner::defaultLedgerPath(o.study) : o.ledger;
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    const ledger::Run run = led.run(o.run);
    if (run.status != ledger::RunStatus::Finished || run.kind != RunKind::Study) {
        throw Error(ledgerPath, "run " + std::to_string(o.run) +
                                    " is not a finished study run; pin a finished one");
    }
    const RunConfig config = RunConfig::fromJson(led.config(run.config_hash));
    const HeadSpec head =
        HeadSpec::fromJson(run.head_json, "run " + std::to_string(o.run) + " head");
    const json pinnedEnv = led.environment(run.env_hash);
    const Runtime rt{variantPath(s, config), head, config, pythonEnvironment(s, config)};
    // The sample: the first K items, rerun now as one group under the run's config, so that a
    // check elsewhere reruns exactly the same batches.
    const auto items = led.items();
    std::vector<engine::Item> sample;
    for (std::size_t i = 0; i < items.size() && int(sample.size()) < o.sample; ++i) {
        sample.push_back({items[i].id, items[i].text, items[i].label});
    }
    json env;
    const auto records = rerunSample(rt, sample, env);
    if (ledger::Ledger::environmentHash(env) != run.env_hash) {
        throw Error(
            ledgerPath,
            "run " + std::to_string(o.run) +
                " was recorded in another environment than this one; pin it where it was recorded");
    }
    RuntimeLock lock;
    for (const auto& it : sample) {
        lock.sample_items.emplace_back(it.id, it.text);
    }
    lock.created = utcNow();
    lock.study = s.name;
    lock.ledger = ledgerPath;
    lock.run = run.id;
    lock.head = head;
    lock.config_name = run.config_name;
    lock.config = config;
    lock.config_hash = run.config_hash;
    lock.environment = pinnedEnv;
    lock.environment_hash = run.env_hash;
    lock.records_sha256 = run.records_sha256;
    lock.items = run.items_total;
    lock.sample_results = sampleResults(records);
    if (rt.python) { // check starts the runner there again
        const study::Environment& e = *rt.python;
        lock.runner_environment = LockedRunnerEnvironment{e.name, e.python, e.vars};
        lock.model = rt.modelPath;
    }
    std::ofstream out(o.output);
    if (!out) {
        throw Error(o.output, "cannot write");
    }
    out << lock.toJson().dump(2) << "\n";
    return PinResult{run.id,       head.name,          run.config_name, o.output,
                     run.env_hash, run.records_sha256, sample.size()};
}

std::string lockedConfigJson(const std::string& lockPath) {
    return RuntimeLock::load(lockPath).config.toJson().dump();
}

CheckResult checkLock(const CheckOptions& o) {
    const RuntimeLock lock = RuntimeLock::load(o.lock);
    Runtime rt{lock.model, lock.head, lock.config, std::nullopt};
    if (const auto& e = lock.runner_environment) {
        rt.python = study::Environment{e->name, e->python, e->env};
    }
    std::optional<study::Study> s;
    if (!o.study.empty()) {
        s = study::Study::load(o.study);
        rt.modelPath = variantPath(*s, lock.config);
    }
    const json current = currentEnvironment(rt);
    const auto diffs = analysis::fingerprintDiff(lock.environment, current);
    bool envMoves = false;
    json diffJson = json::array();
    for (const auto& d : diffs) {
        envMoves = envMoves || d.moves_numerics;
        diffJson.push_back({{"what", d.path},
                            {"pinned", d.pinned},
                            {"current", d.current},
                            {"can_move_numbers", d.moves_numerics},
                            {"why", d.why}});
    }
    json result{{"lock", o.lock}, {"run", lock.run}, {"environment_differences", diffJson}};
    int code = envMoves ? protocol::kExitEnvironmentDiffers : 0;
    if (s) {
        std::vector<engine::Item> sample;
        for (const auto& [id, text] : lock.sample_items) {
            sample.push_back({id, text, std::nullopt});
        }
        json unused;
        const auto now = sampleResults(rerunSample(rt, sample, unused));
        const auto& then = lock.sample_results;
        std::int64_t changed = 0;
        json changedIds = json::array();
        for (std::size_t i = 0; i < then.size() && i < now.size(); ++i) {
            if (!then[i].sameBits(now[i])) {
                ++changed;
                changedIds.push_back(then[i].id);
            }
        }
        result["sample"] = {
            {"items", then.size()}, {"changed", changed}, {"changed_ids", changedIds}};
        if (changed > 0) {
            code = protocol::kExitResultsDiffer;
        }
    }
    result["exit"] = code;
    return CheckResult{lock, diffs, result, code};
}

} // namespace probaudit::tasks
