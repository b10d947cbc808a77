#include "core/runner/study_session.h"

#include "core/ledger/model_identity.h"

#include "core/analysis/records.h"
#include "core/common/error.h"
#include "core/common/file_digest.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"
#include "core/endpoint/endpoint_run.h"
#include "core/engine/engine.h"
#include "core/ledger/ledger.h"
#include "core/ledger/model_identity.h"
#include "core/ledger/policy_record.h"
#include "core/process/child_process.h"
#include "core/runner/endpoint_recorder.h"
#include "core/runner/engine_recorder.h"
#include "core/runner/parallel_runs.h"
#include "core/runner/recorder.h"
#include "core/runner/transformers_recorder.h"
#include "core/study/study.h"
#include "core/sweep/sweep.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

namespace probaudit::runner {

using nlohmann::json;
namespace fs = std::filesystem;

std::string defaultLedgerPath(const std::string& studyPath) {
    std::string p = studyPath;
    for (const char* ext : {".study.json", ".json"}) {
        const std::size_t n = std::strlen(ext);
        if (p.size() > n && p.compare(p.size() - n, n, ext) == 0) {
            p.resize(p.size() - n);
            break;
        }
    }
    return p + ".ledger";
}

const HeadSpec& decisionHead(const study::Study& s, const std::string& studyPath,
                             const std::string& name, const std::string& generationRefusal) {
    const HeadSpec* head = name.empty() ? &s.heads.front() : s.head(name);
    if (head == nullptr) {
        throw Error(studyPath, "no head variant \"" + name + "\"");
    }
    if (head->generation()) {
        throw Error(studyPath, generationRefusal);
    }
    return *head;
}

namespace {

// A run's head identity: the head as the study defines it and, for an adapter, the SHA-256 of
// the adapter file as it is when the run starts, so that a run found recorded or resumed used
// these very weights (a changed adapter file is another run, never a mix of two).
json headIdentity(const HeadSpec& h) {
    json j = h.toJson();
    if (h.kind == HeadKind::Adapter && !h.adapter_path.empty()) {
        j["sha256"] = fileSha256(h.adapter_path);
    }
    return j;
}

// The digest of the model's files. A model only the transformers runner reads (an architecture
// the engine does not have) is digested by the files such a folder holds: config.json, the
// safetensors files and their index, tokenizer.json, in name order.
std::string variantDigest(const study::Study& s, const study::ModelVariant& v) {
    const bool engineConfigs = std::any_of(s.configs.begin(), s.configs.end(), [&](const auto& c) {
        return c.config.runner == Runner::Engine && s.variant(c.config.model) == &v;
    });
    try {
        return modelDigest(model::Checkpoint::open(v.path).files());
    } catch (const Error&) {
        if (engineConfigs || v.format != "hf") {
            throw;
        }
    }
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(v.path)) {
        const std::string name = e.path().filename().string();
        if (name == "config.json" || name == "tokenizer.json" ||
            name == "model.safetensors.index.json" || e.path().extension() == ".safetensors") {
            files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return modelDigest(files);
}

// The digests of the study's model, or of each of its variants, in its stored JSON.
void addModelDigests(const study::Study& s, json& studyJson) {
    // "model" is the reference variant (Study::resolvedJson), or the study's one model.
    const std::string shown = studyJson["model"].value("variant", s.models.front().name);
    for (const auto& v : s.models) {
        if (v.isEndpoint()) {
            continue; // a server: what it serves is in its runs' environment fingerprint
        }
        const std::string digest = variantDigest(s, v);
        if (v.name == shown) {
            studyJson["model"]["sha256"] = digest;
        }
        if (s.hasVariants()) {
            studyJson["models"][v.name]["sha256"] = digest;
        }
    }
}

// A ledger stays with the weights it was recorded with: one model's digest, or each variant's
// by name. A variant the study no longer names keeps its entry (its runs are in the ledger); a
// new one is added.
void checkModelsUnchanged(const json& stored, json& studyJson, const std::string& ledgerPath) {
    if (stored.contains("models") != studyJson.contains("models")) {
        throw Error(ledgerPath, std::string(stored.contains("models")
                                                ? "this ledger was recorded with model variants "
                                                  "($.models) and the study now has one $.model"
                                                : "this ledger was recorded with one model and "
                                                  "the study now has model variants ($.models)") +
                                    "; start a new ledger (--ledger PATH)");
    }
    if (const std::string why = ledger::modelsDiffer(stored, studyJson); !why.empty()) {
        throw Error(ledgerPath, why + " from the ones this ledger was recorded with; start a new "
                                      "ledger (--ledger PATH)");
    }
    studyJson = ledger::withVariantsOf(studyJson, stored);
}

// A config whose ATen CPU capability differs from this process's runs in a child engine
// process started with ATEN_CPU_CAPABILITY set (libtorch reads it once, at start). The
// parent releases the ledger meanwhile and relays the child's events.
int runInChild(const RunOptions& o, const std::string& ledgerPath, const std::string& head,
               const std::string& config, const std::string& capability, Events& events,
               const std::atomic<bool>& stop) {
    const std::vector<std::string> args = childRunArgs(o, ledgerPath, head, config);
    Child child = [&] {
        try {
            return Child::start("/proc/self/exe", "probaudit", args,
                                {"ATEN_CPU_CAPABILITY=" + capability}, Stdout::Capture,
                                /*ownGroup=*/true); // signals reach it through this process
        } catch (const Error&) {
            throw Error("cannot start the engine for ATEN_CPU_CAPABILITY=" + capability);
        }
    }();
    bool signalled = false;
    child.readLines([&](const std::string& line) {
        if (stop && !signalled) {
            child.signal(SIGINT);
            signalled = true;
        }
        const std::optional<json> e = tryParseJson(line);
        if (e && e->is_object() && eventKind(*e) != EventKind::Done) {
            events.emit(*e);
        }
    });
    const ChildExit end = child.wait();
    if (end.signal != 0) { // it could not say so itself
        events.emit({{"event", protocol::event::kError},
                     {"message", "config " + config + ": its engine (ATEN_CPU_CAPABILITY=" +
                                     capability + ") was killed by signal " +
                                     std::to_string(end.signal) + " (" + ::strsignal(end.signal) +
                                     "); run again to resume (a generation run starts again)"}});
    }
    return end.exitCode();
}

std::string currentCapability() {
    const char* c = std::getenv("ATEN_CPU_CAPABILITY");
    return c == nullptr ? std::string() : std::string(c);
}

} // namespace

Selection selectRuns(const study::Study& s, const RunOptions& o) {
    Selection sel;
    if (o.heads.empty()) {
        for (const auto& h : s.heads) {
            sel.heads.push_back(&h);
        }
    }
    for (const auto& name : o.heads) {
        const HeadSpec* h = s.head(name);
        if (h == nullptr) {
            throw Error(o.study, "no head variant \"" + name + "\"");
        }
        sel.heads.push_back(h);
    }
    if (o.configs.empty() && !o.all) {
        std::string names;
        for (const auto& c : s.configs) {
            names += (names.empty() ? "" : ", ") + c.name;
        }
        throw Error(
            o.study,
            "name the configs to run with --config NAME, or run them all with --all (configs: " +
                names + ")");
    }
    if (o.all) {
        // The reference first: every comparison needs it.
        sel.configs.push_back(s.config(s.reference));
        for (const auto& c : s.configs) {
            if (c.name != s.reference) {
                sel.configs.push_back(&c);
            }
        }
    }
    for (const auto& name : o.configs) {
        const auto* c = s.config(name);
        if (c == nullptr) {
            throw Error(o.study, "no config \"" + name + "\"");
        }
        if (std::find(sel.configs.begin(), sel.configs.end(), c) == sel.configs.end()) {
            sel.configs.push_back(c);
        }
    }
    return sel;
}

StudySession::StudySession(const RunOptions& o, Events& events, const std::atomic<bool>& stop)
    : m_opt(o), m_events(events), m_stop(stop),
      m_ledgerPath(o.ledger.empty() ? defaultLedgerPath(o.study) : o.ledger),
      m_study(study::Study::load(o.study)) {
    checkShard(o);
    const study::Dataset data = study::loadDataset(m_study.dataset, o.skipBadLines);
    for (const auto& w : data.warnings) {
        events.emit({{"event", "warning"}, {"message", "skipped " + w}});
    }
    std::vector<ledger::Item> ledgerItems;
    for (const auto& d : data.items) {
        m_items.push_back({d.id, d.text, d.label});
        ledgerItems.push_back(
            {static_cast<std::int64_t>(ledgerItems.size()), d.id, d.text, d.label, d.line});
    }
    for (const HeadSpec& h : m_study.heads) {
        if (h.generation()) {
            try {
                analysis::parseRecords("", h.records); // compiles a regex: refuse a broken one
            } catch (const Error& e) {
                throw Error(o.study, "$.heads." + h.name + "." + e.what());
            }
        }
    }
    m_context = std::make_unique<RecorderContext>(
        RecorderContext{m_opt, m_study, m_items, m_events, m_stop});
    m_engine = std::make_unique<EngineRecorder>(*m_context);
    m_transformers = std::make_unique<TransformersRecorder>(*m_context);
    json studyJson = m_study.resolvedJson();
    if (m_study.isEndpoint()) {
        if (o.jobs > 1) {
            throw Error(o.study, "an endpoint study records one run at a time (runs at once would "
                                 "share the server and change each other's concurrency); run "
                                 "it without --jobs");
        }
        std::vector<const HeadSpec*> heads;
        for (const HeadSpec& h : m_study.heads) {
            heads.push_back(&h);
        }
        // Before the ledger is touched: a server that cannot be audited leaves it as it was.
        m_endpointEnv = endpoint::preflight(m_study.endpoint, heads);
        m_endpoints[""] =
            std::make_unique<EndpointRecorder>(*m_context, m_study.endpoint, m_endpointEnv);
    } else {
        addModelDigests(m_study, studyJson);
        preflightRunners(o);
        preflightServers(o);
    }

    m_ledger = std::make_unique<ledger::Ledger>(m_ledgerPath, ledger::Ledger::Mode::Write);
    checkShardLedger(o);
    if (!m_ledger->hasStudy()) {
        m_ledger->atomically([&] {
            m_ledger->initStudy(studyJson, data.sha256, ledgerItems);
            ledger::registerPolicy(*m_ledger, json(), studyJson);
        });
    } else {
        const json stored = m_ledger->study();
        checkModelsUnchanged(stored, studyJson, m_ledgerPath);
        const auto storedItems = m_ledger->items();
        bool same =
            m_ledger->datasetSha256() == data.sha256 && storedItems.size() == ledgerItems.size();
        for (std::size_t i = 0; same && i < storedItems.size(); ++i) {
            same = storedItems[i].id == ledgerItems[i].id &&
                   storedItems[i].text == ledgerItems[i].text;
        }
        if (!same) {
            throw Error(
                m_ledgerPath,
                "the study's items differ from the ones in this ledger (dataset, limit, seed "
                "or skipped lines changed); start a new ledger (--ledger PATH)");
        }
        if (stored != studyJson) {
            m_ledger->atomically([&] {
                ledger::registerPolicy(*m_ledger, stored, studyJson);
                m_ledger->updateStudy(studyJson); // configs, heads or the policy changed
            });
        }
    }
    for (const auto& c : m_study.configs) {
        m_ledger->putConfig(c.config.hash(), c.name, c.config.toJson());
    }
    // Where the study file is, so the workbench can run more of its configs; its digest, so a
    // bundle packs only the very file the runs were made from.
    m_ledger->setMeta("study_path", fs::absolute(o.study).lexically_normal().string());
    m_ledger->setMeta("study_sha256", fileSha256(o.study));
    if (o.shard.active()) {
        m_ledger->setMeta("shard", o.shard.name()); // what `probaudit merge` reads
    }
}

Shard Shard::parse(const std::string& text) {
    Shard s;
    const auto slash = text.find('/');
    try {
        std::size_t a = 0, b = 0;
        s.index = std::stoi(text.substr(0, slash), &a);
        s.count = slash == std::string::npos ? 0 : std::stoi(text.substr(slash + 1), &b);
        if (a != slash || b != text.size() - slash - 1) {
            s.count = 0;
        }
    } catch (const std::exception&) {
        s.count = 0;
    }
    if (s.count < 1 || s.count > 4096 || s.index < 1 || s.index > s.count) {
        throw Error("--shard " + text + ": must be I/N with 1 <= I <= N <= 4096 (shard I of N)");
    }
    return s;
}

std::pair<std::size_t, std::size_t> Shard::batchRange(std::size_t batches) const {
    const auto at = [&](int k) { return batches * std::size_t(k) / std::size_t(count); };
    return {at(index - 1), at(index)};
}

void StudySession::checkShard(const RunOptions& o) const {
    if (!o.shard.active()) {
        return;
    }
    sweep::checkShardable(m_study, o.study);
    if (o.jobs > 1) {
        throw Error(o.study, "--shard and --jobs: a shard records its configs one after another "
                             "(run more shards instead)");
    }
}

void StudySession::checkShardLedger(const RunOptions& o) const {
    const std::string here = m_ledger->meta("shard");
    if (!o.shard.active()) {
        if (!here.empty()) {
            throw Error(m_ledgerPath, "this ledger holds shard " + here +
                                          " of a sweep; record into it with --shard " + here +
                                          ", or merge the shards (probaudit merge)");
        }
        return;
    }
    if (here.empty() && !m_ledger->runs().empty()) {
        throw Error(m_ledgerPath, "this ledger holds runs of the whole study; a shard records "
                                  "into a ledger of its own (--ledger shard-" +
                                      std::to_string(o.shard.index) + ".ledger)");
    }
    if (!here.empty() && here != o.shard.name()) {
        throw Error(m_ledgerPath, "this ledger holds shard " + here + ", not " + o.shard.name() +
                                      "; every shard records into a ledger of its own");
    }
}

StudySession::~StudySession() = default;

engine::Engine& StudySession::engine(const HeadSpec& head, const std::string& variant) {
    return m_engine->engine(head, variant);
}

const std::vector<tokenizer::Encoding>&
StudySession::encodings(const HeadSpec& head, std::int64_t maxLength, const std::string& variant) {
    return m_engine->encodings(head, maxLength, variant);
}

void StudySession::releaseLedger() {
    m_ledger.reset();
}

void StudySession::reopenLedger() {
    m_ledger = std::make_unique<ledger::Ledger>(m_ledgerPath, ledger::Ledger::Mode::Write);
}

namespace {

json startedEvent(const ActiveRun& run, const std::string& configHash, const std::string& env) {
    const RunRequest& r = run.req;
    json e{{"event", protocol::event::kStarted},
           {"run", run.id},
           {"head", r.head->name},
           {"config", r.configName},
           {"config_hash", configHash},
           {"environment", env},
           {"items", run.total()},
           {"resumed_items", run.already},
           {"kind", r.kind}};
    if (!r.label.empty()) {
        e["label"] = r.label;
    }
    if (!r.config.model.empty()) {
        e["model"] = r.config.model;
    }
    return e;
}

json skippedEvent(const RunRequest& r, std::int64_t id) {
    return {{"event", protocol::event::kSkipped},
            {"run", id},
            {"head", r.head->name},
            {"config", r.configName},
            {"reason", "already recorded in this environment"}};
}

// The "run-finished" event, as far as the session knows it; the recorder adds its own fields.
json finishedEvent(const ActiveRun& run, double seconds) {
    const RunRequest& r = run.req;
    json e{{"event", protocol::event::kRunFinished},
           {"run", run.id},
           {"head", r.head->name},
           {"config", r.configName},
           {"kind", r.kind},
           {"items_done", run.already + std::int64_t(run.doneHere)},
           {"items", run.total()},
           {"seconds", seconds},
           {"forward_seconds", run.forward}};
    return e;
}

// A study run resumes an unfinished run of the same head, config, environment and capture;
// any other run starts a new row. Sends the "started" event.
void openRun(ledger::Ledger& led, Events& events, ActiveRun& run, const std::string& configHash,
             const std::string& envHash) {
    const RunRequest& r = run.req;
    const json headJson = headIdentity(*r.head);
    std::optional<ledger::Run> resumable;
    if (r.kind == RunKind::Study) {
        resumable = led.findResumable(headJson, configHash, envHash, r.capture);
    }
    if (resumable) {
        run.id = resumable->id;
        led.resumeRun(run.id);
        run.skip.assign(run.items, false);
        for (std::int64_t i : led.recordedItems(run.id)) {
            run.skip[std::size_t(i)] = true; // study runs cover every item: ledger index = position
            ++run.already;
        }
    } else {
        run.id = led.beginRun(r.head->name, headJson, r.configName, configHash, envHash, r.capture,
                              static_cast<std::int64_t>(run.total()), r.kind, r.label);
    }
    if (!run.outside.empty()) { // a shard: the other shards' batches are not this run's
        run.skip.resize(run.items, false);
        for (std::size_t k = 0; k < run.items; ++k) {
            run.skip[k] = run.skip[k] || run.outside[k];
        }
    }
    events.emit(startedEvent(run, configHash, envHash));
}

} // namespace

std::optional<ledger::Run> StudySession::alreadyRecorded(const RunRequest& r,
                                                         const std::string& configHash,
                                                         const std::string& envHash) {
    if (r.kind != RunKind::Study || r.again) {
        return std::nullopt;
    }
    const json head = headIdentity(*r.head);
    if (auto done = m_ledger->findFinished(head, configHash, envHash, r.capture)) {
        return done;
    }
    if (m_opt.recordedIn.empty()) {
        return std::nullopt;
    }
    const ledger::Ledger other(m_opt.recordedIn, ledger::Ledger::Mode::Read);
    return other.findFinished(head, configHash, envHash, r.capture);
}

std::optional<RunOutcome> StudySession::skipIfRecorded(const RunRequest& r, const json& environment,
                                                       std::string& configHash,
                                                       std::string& envHash) {
    envHash = m_ledger->putEnvironment(environment);
    configHash = r.config.hash();
    m_ledger->putConfig(configHash, r.configName, r.config.toJson());
    const auto done = alreadyRecorded(r, configHash, envHash);
    if (!done) {
        return std::nullopt;
    }
    m_events.emit(skippedEvent(r, done->id));
    RunOutcome out;
    out.id = done->id;
    out.skipped = true;
    return out;
}

void StudySession::seal(std::int64_t run, json& finished) {
    m_ledger->finishRun(run);
    m_currentRun = 0;
    finished["status"] = "finished";
    finished["records_sha256"] = m_ledger->run(run).records_sha256;
    m_events.emit(finished);
}

RunOutcome StudySession::record(const RunRequest& r) {
    Recorder& recorder = recorderFor(r);
    ActiveRun run(r);
    recorder.plan(run);
    std::string configHash, envHash;
    if (auto skipped = skipIfRecorded(r, recorder.environment(r), configHash, envHash)) {
        return *skipped;
    }
    openRun(*m_ledger, m_events, run, configHash, envHash);
    m_currentRun = run.id;
    ProgressEvents progress(m_events, run, m_stop);
    const Computed computed = recorder.compute(run, *m_ledger, progress);
    json finished = finishedEvent(run, progress.seconds());
    finished.update(computed.finished);
    return endRun(run.id, finished, computed.stopped, !recorder.resumable(r));
}

Recorder& StudySession::recorderFor(const RunRequest& r) {
    if (m_study.onServer(r.config)) {
        const auto server = m_endpoints.find(m_study.isEndpoint() ? "" : r.config.model);
        if (server == m_endpoints.end()) { // a probe or a config not selected at the start
            throw Error(m_opt.study, "config \"" + r.configName + "\" runs on server variant \"" +
                                         r.config.model +
                                         "\", which this session did not check before it "
                                         "started; record it with --config " +
                                         r.configName);
        }
        return *server->second;
    }
    if (r.config.runner == Runner::Transformers) {
        return *m_transformers;
    }
    return *m_engine;
}

void StudySession::preflightRunners(const RunOptions& o) {
    // A session that names no configs (the diagnosis: its probes follow the reference and it
    // reads every config) may use them all.
    RunOptions every = o;
    every.all = every.all || every.configs.empty();
    m_transformers->preflight(selectRuns(m_study, every));
}

void StudySession::preflightServers(const RunOptions& o) {
    // A session that names no configs (the diagnosis: its probes follow the reference, which
    // runs local weights) asks no server.
    if (!m_study.hasServerVariant() || (!o.all && o.configs.empty())) {
        return;
    }
    const Selection sel = selectRuns(m_study, o);
    for (const study::NamedConfig* c : sel.configs) {
        if (!m_study.onServer(c->config) || m_endpoints.count(c->config.model) != 0) {
            continue;
        }
        const EndpointSpec& server = m_study.serverOf(c->config);
        json env = endpoint::preflight(server, sel.heads);
        env["variant"] = c->config.model;
        m_endpoints[c->config.model] =
            std::make_unique<EndpointRecorder>(*m_context, server, std::move(env));
    }
}

RunOutcome StudySession::endRun(std::int64_t run, json& finished, bool stopped, bool whole) {
    RunOutcome out;
    out.id = run;
    if (!stopped) {
        seal(run, finished);
        return out;
    }
    m_ledger->markRun(run, ledger::RunStatus::Interrupted,
                      whole ? "stopped by a signal; a generation run is recorded whole, "
                              "run again to record it from the start"
                            : "stopped by a signal; run again to resume");
    finished["status"] = "interrupted";
    m_events.emit(finished);
    out.cancelled = true;
    return out;
}

void StudySession::markFailed(const std::string& message) {
    if (m_ledger && m_currentRun != 0) {
        try {
            m_ledger->markRun(m_currentRun, ledger::RunStatus::Interrupted,
                              message + "; finished batches are kept, run again to resume");
        } catch (const std::exception&) {
            // The ledger itself failed (disk full): the run stays "running" with no writer,
            // which is resumable all the same.
        }
    }
}

int runStudy(const RunOptions& o, Events& events, const std::atomic<bool>& stop) {
    std::unique_ptr<StudySession> session;
    try {
        session = std::make_unique<StudySession>(o, events, stop);
        const study::Study& s = session->study();
        const Selection sel = selectRuns(s, o);
        if (o.jobs > 1) {
            return runJobs(o, *session, sel, events, stop);
        }
        for (const HeadSpec* head : sel.heads) {
            for (const study::NamedConfig* nc : sel.configs) {
                const RunConfig& cfg = nc->config;
                if (cfg.cpu_capability != CpuCapability::Auto && cfg.runner == Runner::Engine &&
                    nameString(cfg.cpu_capability) != currentCapability()) {
                    session->releaseLedger(); // the child process writes the ledger
                    const int rc = runInChild(o, session->ledgerPath(), head->name, nc->name,
                                              nameString(cfg.cpu_capability), events, stop);
                    if (rc != 0) {
                        return rc;
                    }
                    session->reopenLedger();
                    continue;
                }
                RunRequest req;
                req.head = head;
                req.configName = nc->name;
                req.config = cfg;
                req.capture = s.captureOf(cfg);
                req.again = o.again;
                if (session->record(req).cancelled) {
                    return protocol::kExitInterrupted;
                }
            }
        }
        events.emit({{"event", "done"}, {"ledger", session->ledgerPath()}});
        return 0;
    } catch (const std::exception& e) {
        if (session) {
            session->markFailed(e.what());
        }
        events.emit({{"event", "error"}, {"message", e.what()}});
        return 1;
    }
}

} // namespace probaudit::runner
