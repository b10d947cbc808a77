#include "core/analysis/review.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/run_config.h"
#include "core/common/sha256.h"
#include "core/common/vocabulary.h"

#include <algorithm>
#include <tuple>

namespace probaudit::analysis {

using nlohmann::json;

const ReviewRow* Review::row(const std::string& config) const {
    for (const auto& r : rows) {
        if (r.config == config) {
            return &r;
        }
    }
    return nullptr;
}

const ledger::Record* Review::record(std::int64_t run, std::int64_t item) const {
    const auto it = data.find(run);
    if (it == data.end()) {
        return nullptr;
    }
    const auto& recs = it->second.records;
    const auto pos =
        std::lower_bound(recs.begin(), recs.end(), item,
                         [](const ledger::Record& r, std::int64_t i) { return r.item < i; });
    return pos != recs.end() && pos->item == item ? &*pos : nullptr;
}

const ledger::GenerationRecord* Review::output(std::int64_t run, std::int64_t item) const {
    const auto it = generations.find(run);
    if (it == generations.end()) {
        return nullptr;
    }
    const auto& gens = it->second;
    const auto pos = std::lower_bound(
        gens.begin(), gens.end(), item,
        [](const ledger::GenerationRecord& g, std::int64_t i) { return g.item < i; });
    return pos != gens.end() && pos->item == item ? &*pos : nullptr;
}

std::vector<GenerationOutput> Review::outputs(std::int64_t run) const {
    std::vector<GenerationOutput> out;
    const auto it = generations.find(run);
    if (it == generations.end()) {
        return out;
    }
    for (const auto& g : it->second) {
        out.push_back({items.at(std::size_t(g.item)).id, g.tokens, g.gaps, g.text});
    }
    return out;
}

std::vector<std::string> differingAxes(const json& a, const json& b) {
    std::vector<std::string> out;
    for (const auto& [axis, value] : b.items()) {
        if (!a.contains(axis) || a.at(axis) != value) {
            out.push_back(axis);
        }
    }
    for (const auto& [axis, value] : a.items()) {
        if (!b.contains(axis)) {
            out.push_back(axis);
        }
    }
    return out;
}

namespace {

bool onlyAmong(const std::vector<std::string>& axes, const std::vector<std::string>& allowed) {
    return std::all_of(axes.begin(), axes.end(), [&](const std::string& a) {
        return std::find(allowed.begin(), allowed.end(), a) != allowed.end();
    });
}

// The finished study runs of the review's head, in the ledger's order.
std::vector<const ledger::Run*> finishedStudyRuns(const Review& rv) {
    std::vector<const ledger::Run*> out;
    for (const auto& r : rv.runs) {
        if (r.kind == RunKind::Study && r.head == rv.head &&
            r.status == ledger::RunStatus::Finished) {
            out.push_back(&r);
        }
    }
    return out;
}

// What each environment is without the settings a config makes in it (the thread counts):
// the runs of one machine and build share it whatever their configs' threads.
std::map<std::string, std::string> machinesOf(const Review& rv) {
    std::map<std::string, std::string> out;
    for (const auto& [hash, env] : rv.environments) {
        if (!env.is_object()) {
            out[hash] = hash;
            continue;
        }
        json e = env;
        e.erase("threads");
        const std::string text = e.dump(-1, ' ', false, json::error_handler_t::replace);
        out[hash] = sha256Hex(text.data(), text.size());
    }
    return out;
}

// The run whose environment is home (Review::home_env).
const ledger::Run* homeRun(const std::vector<const ledger::Run*>& runs,
                           const std::string& reference) {
    const ledger::Run *localRef = nullptr, *anyRef = nullptr, *local = nullptr, *any = nullptr;
    for (const ledger::Run* r : runs) {
        const bool ref = r->config_name == reference;
        anyRef = ref ? r : anyRef;
        localRef = ref && !r->imported() ? r : localRef;
        local = !r->imported() ? r : local;
        any = r;
    }
    for (const ledger::Run* r : {localRef, anyRef, local, any}) {
        if (r != nullptr) {
            return r;
        }
    }
    return nullptr;
}

// The latest finished run of `config` on machine `machine` (Review::machines).
std::optional<ledger::Run> latestOn(const Review& rv, const std::vector<const ledger::Run*>& runs,
                                    const std::string& config, const std::string& machine) {
    std::optional<ledger::Run> found;
    for (const ledger::Run* r : runs) {
        if (r->config_name == config && rv.machines.at(r->env_hash) == machine) {
            found = *r;
        }
    }
    return found;
}

// The reference first, then the study's configs, then configs run and since removed from it.
std::vector<std::string> rowOrder(const std::string& reference, const json& configs,
                                  const std::vector<std::string>& dropped) {
    std::vector<std::string> names;
    if (configs.contains(reference)) {
        names.push_back(reference);
    }
    for (const auto& [name, cfg] : configs.items()) {
        if (name != reference && std::find(dropped.begin(), dropped.end(), name) == dropped.end()) {
            names.push_back(name);
        }
    }
    for (const auto& name : dropped) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
        }
    }
    return names;
}

// The rows of one config (records not loaded yet): its latest run in the home environment
// under its own name (also when not run, unless the config was dropped from the study), then
// its latest run in each other environment it was recorded in, labelled with it.
// A server variant's config ($.models.NAME.endpoint) is at home on its server: its latest run's.
std::string homeOf(const Review& rv, const std::vector<const ledger::Run*>& runs,
                   const std::string& name, const json& cfg) {
    const json& models = rv.study.contains("models") ? rv.study["models"] : json::object();
    const std::string variant = cfg.value("model", "");
    if (!models.is_object() || !models.contains(variant) ||
        models[variant].value("format", "") != "endpoint") {
        return rv.home_machine;
    }
    std::string home = rv.home_machine;
    for (const ledger::Run* r : runs) {
        home = r->config_name == name ? rv.machines.at(r->env_hash) : home;
    }
    return home;
}

std::vector<ReviewRow> rowsOf(const Review& rv, const std::vector<const ledger::Run*>& runs,
                              const std::string& name, const json& cfg, const json& refJson,
                              bool dropped) {
    const std::string homeMachine = homeOf(rv, runs, name, cfg);
    std::vector<std::string> others; // machines, in the order they were first recorded
    for (const ledger::Run* r : runs) {
        const std::string& m = rv.machines.at(r->env_hash);
        if (r->config_name == name && m != homeMachine &&
            std::find(others.begin(), others.end(), m) == others.end()) {
            others.push_back(m);
        }
    }
    std::vector<ReviewRow> out;
    ReviewRow home;
    home.config = home.config_name = name;
    home.config_json = cfg;
    home.reference = name == rv.reference_name;
    home.differs_in = differingAxes(refJson, cfg);
    home.run = latestOn(rv, runs, name, homeMachine);
    if (home.run) {
        home.env_hash = home.run->env_hash;
        home.machine = homeMachine;
    }
    if (home.run || !dropped || others.empty()) {
        out.push_back(home);
    }
    for (const std::string& m : others) {
        ReviewRow row = home;
        row.run = latestOn(rv, runs, name, m);
        row.env_hash = row.run->env_hash;
        row.machine = m;
        row.config = name + " @ env:" + row.env_hash.substr(0, 8);
        row.other_env = true;
        row.reference = false;
        row.differs_in.push_back("environment");
        out.push_back(std::move(row));
    }
    return out;
}

// The table of a generation study: every config with a finished run is set against its nearest
// partner (rows are in review order: the reference first).
//   repeat   a config recorded twice (its last two runs), or an earlier config that differs
//            only in the arrival order
//   serving  else a config of lower concurrency that differs only in concurrency and arrival
//            order (the same arrival order preferred)
//   config   else the reference config
void generationTable(Review& rv, const ledger::Ledger& led) {
    // The runs of a row: its config in its environment.
    const auto finishedRuns = [&](const ReviewRow& row) {
        std::vector<const ledger::Run*> out;
        for (const ledger::Run* r : finishedStudyRuns(rv)) {
            if (r->config_name == row.config_name && rv.machines.at(r->env_hash) == row.machine) {
                out.push_back(r);
            }
        }
        return out;
    };
    const auto load = [&](std::int64_t run) {
        if (!rv.generations.count(run)) {
            rv.generations[run] = led.generations(run);
        }
    };
    const auto add = [&](const ReviewRow& a, std::int64_t runA, const ReviewRow& b,
                         std::int64_t runB, GenerationPairKind kind) {
        load(runA);
        load(runB);
        GenerationRow g;
        g.a = a.config;
        g.b = b.config;
        g.kind = kind;
        g.differs_in = differingAxes(a.config_json, b.config_json);
        if (a.machine != b.machine) {
            g.differs_in.push_back("environment");
        }
        g.run_a = runA;
        g.run_b = runB;
        g.cmp = compareGenerations(rv.outputs(runA), rv.outputs(runB), rv.records);
        const auto traces = [&](std::int64_t run) {
            const auto it = rv.generations.find(run);
            return runTokenTraces(
                led.requests(run),
                it == rv.generations.end() ? std::vector<ledger::GenerationRecord>() : it->second,
                rv.items.size());
        };
        const TokenMetrics tm = tokenMetrics(traces(runA), traces(runB));
        if (tm.available()) {
            g.tokens = tm;
        }
        rv.generation_rows.push_back(std::move(g));
    };
    const ReviewRow* ref = rv.row(rv.reference_name);
    for (std::size_t x = 0; x < rv.rows.size(); ++x) {
        const ReviewRow& b = rv.rows[x];
        if (!b.run) {
            continue;
        }
        load(b.run->id);
        const auto mine = finishedRuns(b);
        if (mine.size() >= 2) {
            add(b, mine[mine.size() - 2]->id, b, mine.back()->id, GenerationPairKind::Repeat);
        }
        if (b.reference) {
            continue;
        }
        // A run of another environment: against the same config recorded at home.
        const ReviewRow* partner = b.other_env ? rv.row(b.config_name) : nullptr;
        partner = partner != nullptr && partner->run ? partner : nullptr;
        GenerationPairKind kind = GenerationPairKind::Config;
        for (std::size_t y = 0; y < x && partner == nullptr; ++y) {
            const ReviewRow& a = rv.rows[y];
            const auto axes = differingAxes(a.config_json, b.config_json);
            if (a.run && a.machine == b.machine && !axes.empty() &&
                onlyAmong(axes, {"arrival_seed", "repeat"})) {
                partner = &a;
                kind = GenerationPairKind::Repeat;
            }
        }
        for (int sameArrival = 1; sameArrival >= 0 && partner == nullptr; --sameArrival) {
            for (const ReviewRow& a : rv.rows) {
                const auto axes = differingAxes(a.config_json, b.config_json);
                if (a.run && &a != &b && a.machine == b.machine &&
                    a.config_json.value("concurrency", 1) < b.config_json.value("concurrency", 1) &&
                    onlyAmong(axes, {"concurrency", "arrival_seed", "repeat"}) &&
                    (sameArrival == 0 || a.config_json.value("arrival_seed", 0) ==
                                             b.config_json.value("arrival_seed", 0))) {
                    partner = &a;
                    kind = GenerationPairKind::Serving;
                    break;
                }
            }
        }
        if (partner == nullptr && ref != nullptr && ref->run) {
            partner = ref;
            kind = GenerationPairKind::Config;
        }
        if (partner != nullptr) {
            add(*partner, partner->run->id, b, b.run->id, kind);
        }
    }
    const auto rank = [](GenerationPairKind kind) {
        return kind == GenerationPairKind::Repeat ? 0 : kind == GenerationPairKind::Serving ? 1 : 2;
    };
    // The second field report's order: run to run, then serving, then other configs; default
    // kernels before others, lower concurrency first.
    const auto key = [&](const GenerationRow& g) {
        std::vector<std::string> unread; // a config a later version wrote: its known axes
        const RunConfig b = RunConfig::fromJson(rv.row(g.b)->config_json, "$", unread);
        return std::make_tuple(rank(g.kind), b.kernels != Kernels::Default, b.concurrency);
    };
    std::stable_sort(
        rv.generation_rows.begin(), rv.generation_rows.end(),
        [&](const GenerationRow& p, const GenerationRow& q) { return key(p) < key(q); });
}

} // namespace

int modalFirstLayer(const Comparison& c) {
    if (c.layers.empty()) {
        return -2;
    }
    int best = -1;
    std::int64_t bestCount = 0;
    for (std::size_t l = 0; l < c.first_divergent.size(); ++l) {
        if (c.first_divergent[l] > bestCount) {
            best = int(l);
            bestCount = c.first_divergent[l];
        }
    }
    return best;
}

StudyFacts StudyFacts::read(const json& study) {
    const auto text = [](const json& j, const char* key) {
        return fieldString(j, key).value_or(std::string());
    };
    StudyFacts f;
    f.name = text(study, "name");
    f.reference = text(study, "reference");
    const json& model = fieldObject(study, "model");
    f.model = {text(model, "path"),     text(model, "format"), text(model, "sha256"),
               text(model, "endpoint"), text(model, "name"),   text(model, "api")};
    f.model.served = model.contains("endpoint");
    const json& dataset = fieldObject(study, "dataset");
    f.dataset_paths = fieldStrings(dataset, "path");
    f.labels = fieldStrings(dataset, "labels");
    return f;
}

namespace {

// The parts of the stored study the review reads, with the types it reads them as: a ledger
// may come from anyone, and a study row that parses as JSON can still be the wrong shape.
void checkStudyShape(const json& study, const std::string& ledgerPath) {
    const auto bad = [&](const std::string& what) {
        throw Error(ledgerPath, "the study row " + what + " (the ledger was edited or damaged)");
    };
    if (!study.is_object()) {
        bad("is not a JSON object");
    }
    if (study.contains("reference") && !study["reference"].is_string()) {
        bad("names no reference config");
    }
    for (const char* part : {"configs", "heads"}) {
        if (!study.contains(part)) {
            continue;
        }
        if (!study[part].is_object()) {
            bad(std::string("has ") + part + " that are not an object");
        }
        for (const auto& [name, value] : study[part].items()) {
            if (!value.is_object() || (value.contains("kind") && !value["kind"].is_string())) {
                bad(std::string("has ") + part + " entry \"" + name + "\" that is not an object");
            }
        }
    }
}

// The study's exact reference (the first home-environment row of a float64 config with a
// finished run): every other compared row gets both sides' distance to it.
void attachDistanceToExact(Review& rv) {
    const auto exact = std::find_if(rv.rows.begin(), rv.rows.end(), [](const ReviewRow& row) {
        return row.run && !row.other_env && isExactConfig(row.config_json);
    });
    if (exact == rv.rows.end() || !rv.reference_run) {
        return;
    }
    rv.exact_config = exact->config;
    const RunData& e = rv.data.at(exact->run->id);
    const RunData& ref = rv.data.at(rv.reference_run->id);
    for (ReviewRow& row : rv.rows) {
        if (row.cmp && row.config != exact->config) {
            row.exact = distanceToExact(*row.cmp, ref, rv.data.at(row.run->id), e, exact->config);
        }
    }
}

// Every run, with what the Runs view shows beside it: its environment, its model variant (a
// study with $.models) and, for an endpoint run, how the server served it.
void readRuns(const ledger::Ledger& led, Review& rv) {
    rv.runs = led.runs();
    std::map<std::string, std::string> variantOf; // config hash -> variant
    for (const auto& r : rv.runs) {
        if (rv.study.contains("models")) {
            if (!variantOf.count(r.config_hash)) {
                const json c = led.config(r.config_hash);
                variantOf[r.config_hash] = c.is_object() ? c.value("model", "") : "";
            }
            rv.run_variants[r.id] = variantOf[r.config_hash];
        }
        if (!rv.environments.count(r.env_hash)) {
            rv.environments[r.env_hash] = led.environment(r.env_hash);
        }
        // An endpoint run: what its exchanges say about the serving (the Runs view's column).
        if (envKind(rv.environments[r.env_hash]) == EnvKind::Endpoint) {
            if (const auto exchanges = led.requests(r.id); !exchanges.empty()) {
                rv.serving.emplace(r.id, requestStats(exchanges));
            }
        }
    }
}

Review loadReviewOf(const std::string& ledgerPath, const std::string& headName,
                    const ReviewProgress& progress, bool checkChain) {
    auto report = [&](float f) {
        if (progress && !progress(f)) {
            throw Error(ledgerPath, "opening was cancelled");
        }
    };
    Review rv;
    rv.path = ledgerPath;
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    if (!led.hasStudy()) {
        throw Error(ledgerPath, "the ledger holds no study yet (nothing has been run into it)");
    }
    if (checkChain) {
        rv.trust = ledger::assessTrust(led);
        rv.trust_checked = true;
    }
    rv.study = led.study();
    checkStudyShape(rv.study, ledgerPath);
    rv.study_path = led.meta("study_path");
    rv.dataset_sha256 = led.datasetSha256();
    rv.facts = StudyFacts::read(rv.study);
    rv.reference_name = rv.facts.reference;
    readRuns(led, rv);
    for (const auto& r : rv.runs) {
        if (r.kind == RunKind::Study && r.status == ledger::RunStatus::Finished &&
            std::find(rv.heads.begin(), rv.heads.end(), r.head) == rv.heads.end()) {
            rv.heads.push_back(r.head);
        }
    }
    rv.head = headName;
    if (rv.head.empty() && !rv.heads.empty()) {
        rv.head = rv.heads.front();
    }
    if (!headName.empty() &&
        std::find(rv.heads.begin(), rv.heads.end(), headName) == rv.heads.end()) {
        throw Error(ledgerPath, "no finished run of head \"" + headName + "\"");
    }
    rv.items = led.items();
    if (const auto stored = led.latestDiagnosis(rv.head)) {
        try {
            rv.diagnosis = Diagnosis::fromJson(*stored);
        } catch (const Error& e) {
            throw Error(ledgerPath, e.what());
        }
    }
    const json headJson = rv.study.value("heads", json::object()).value(rv.head, json::object());
    rv.generation = headKindOf(headJson) == HeadKind::Generation;
    if (rv.generation) {
        rv.records = RecordSpec::fromJson(headJson.value("records", json::object()));
    }
    report(0.05f);

    json configs = rv.study.value("configs", json::object());
    std::vector<std::string> dropped; // run, then removed from the study
    for (const auto& r : rv.runs) {
        if (r.kind == RunKind::Study && r.head == rv.head && !configs.contains(r.config_name)) {
            configs[r.config_name] = led.config(r.config_hash);
            if (!configs[r.config_name].is_object()) {
                throw Error(ledgerPath, "run " + std::to_string(r.id) + ": its config " +
                                            r.config_hash +
                                            " is not in the ledger (the ledger was edited or "
                                            "damaged)");
            }
            dropped.push_back(r.config_name);
        }
    }
    const std::vector<std::string> names = rowOrder(rv.reference_name, configs, dropped);
    const auto runs = finishedStudyRuns(rv);
    rv.machines = machinesOf(rv);
    if (const ledger::Run* home = homeRun(runs, rv.reference_name)) {
        rv.home_env = home->env_hash;
        rv.home_machine = rv.machines.at(home->env_hash);
    }
    rv.reference_run = latestOn(rv, runs, rv.reference_name, rv.home_machine);
    const json refJson = configs.value(rv.reference_name, json::object());
    std::size_t done = 0;
    for (const auto& name : names) {
        const bool wasDropped = std::find(dropped.begin(), dropped.end(), name) != dropped.end();
        for (ReviewRow& row : rowsOf(rv, runs, name, configs.at(name), refJson, wasDropped)) {
            if (row.run && !rv.generation) {
                rv.data.emplace(row.run->id, RunData{*row.run, led.records(row.run->id, true)});
            }
            if (row.run) {
                if (const auto it = rv.serving.find(row.run->id); it != rv.serving.end()) {
                    row.serving = it->second;
                }
            }
            // A shard's part of a server variant's run holds no item (shard 1 records it).
            if (row.run && rv.reference_run && !rv.generation &&
                !rv.data.at(row.run->id).records.empty()) {
                row.cmp =
                    compare(rv.data.at(rv.reference_run->id), rv.data.at(row.run->id), rv.items);
                row.modal_first_layer = modalFirstLayer(*row.cmp);
            }
            rv.rows.push_back(std::move(row));
        }
        report(0.05f + (rv.generation ? 0.45f : 0.95f) * float(++done) / float(names.size()));
    }
    if (rv.generation) {
        generationTable(rv, led);
        report(1.0f);
    } else {
        attachDistanceToExact(rv);
    }
    return rv;
}

} // namespace

Review loadReview(const std::string& ledgerPath, const std::string& headName,
                  const ReviewProgress& progress, bool checkChain) {
    try {
        return loadReviewOf(ledgerPath, headName, progress, checkChain);
    } catch (const nlohmann::json::exception& e) { // a stored value of the wrong type
        throw Error(ledgerPath, std::string("a stored value has the wrong type (the ledger was "
                                            "edited or damaged): ") +
                                    e.what());
    }
}

} // namespace probaudit::analysis
