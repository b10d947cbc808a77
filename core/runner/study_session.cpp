#include "runner/study_session.h"

#include "analysis/records.h"
#include "analysis/request_stats.h"
#include "common/error.h"
#include "common/file_digest.h"
#include "common/json_read.h"
#include "common/seeded_order.h"
#include "endpoint/endpoint_run.h"
#include "engine/engine.h"
#include "engine/env_fingerprint.h"
#include "ledger/ledger.h"
#include "runner/child_process.h"
#include "runner/parallel_runs.h"
#include "runner/runner_batches.h"
#include "study/study.h"
#include "sweep/sweep.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>

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

namespace {

using Clock = std::chrono::steady_clock;

// A run's head identity: the head as the study defines it and, for an adapter, the SHA-256 of
// the adapter file as it is when the run starts, so that a run found recorded or resumed used
// these very weights (a changed adapter file is another run, never a mix of two).
json headIdentity(const HeadSpec& h) {
    json j = h.toJson();
    if (h.kind == "adapter" && !h.adapter_path.empty()) {
        j["sha256"] = fileSha256(h.adapter_path);
    }
    return j;
}

// The digest of the model's files. A model only the transformers runner reads (an architecture
// the engine does not have) is digested by the files such a folder holds: config.json, the
// safetensors files and their index, tokenizer.json, in name order.
std::string studyModelDigest(const study::Study& s) {
    const bool engineConfigs = std::any_of(s.configs.begin(), s.configs.end(), [](const auto& c) {
        return c.config.runner == "engine";
    });
    try {
        return modelDigest(model::Checkpoint::open(s.model_path).files());
    } catch (const Error&) {
        if (engineConfigs || s.model_format != "hf") {
            throw;
        }
    }
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(s.model_path)) {
        const std::string name = e.path().filename().string();
        if (name == "config.json" || name == "tokenizer.json" ||
            name == "model.safetensors.index.json" || e.path().extension() == ".safetensors") {
            files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return modelDigest(files);
}

ledger::Record toRecord(const engine::ItemRecord& r) {
    ledger::Record o;
    o.item = static_cast<std::int64_t>(r.item);
    o.tokens = r.tokens;
    o.truncated = r.truncated;
    o.probs = r.head.probs;
    o.logits = r.head.logits;
    o.decision = r.head.decision;
    o.margin = r.head.margin;
    o.nonfinite = r.head.nonfinite;
    o.batch = r.batch;
    o.row = r.row;
    o.padded_length = r.padded_length;
    o.batch_seconds = r.batch_seconds;
    o.layer_hashes = r.layer_hashes;
    if (!r.layer_vectors.empty()) {
        o.hidden = static_cast<std::int64_t>(r.layer_vectors.front().size());
        for (const auto& v : r.layer_vectors) {
            o.layer_vectors.insert(o.layer_vectors.end(), v.begin(), v.end());
        }
    }
    if (!r.layer_full.empty()) {
        o.full_tokens = r.layer_full.front().size(0);
        for (const at::Tensor& t : r.layer_full) {
            const at::Tensor c = t.to(at::kFloat).contiguous();
            o.layer_full.insert(o.layer_full.end(), c.data_ptr<float>(),
                                c.data_ptr<float>() + c.numel());
        }
    }
    return o;
}

ledger::GenerationRecord toGenerationRecord(const engine::Generation& g, std::int64_t item) {
    ledger::GenerationRecord o;
    o.item = item;
    o.prompt_tokens = static_cast<std::int64_t>(g.prompt_ids.size());
    o.text = g.text;
    o.finish = g.finish;
    o.arrival = g.arrival;
    for (const auto& s : g.steps) {
        o.tokens.push_back(s.token);
        o.logits.push_back(s.logit);
        o.gaps.push_back(s.gap);
        o.batch.push_back(s.batch);
        o.top_tokens.insert(o.top_tokens.end(), s.top_tokens.begin(), s.top_tokens.end());
        o.top_logprobs.insert(o.top_logprobs.end(), s.top_logprobs.begin(), s.top_logprobs.end());
    }
    return o;
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
        if (e && e->is_object() && e->value("event", "") != protocol::event::kDone) {
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
    } else {
        studyJson["model"]["sha256"] = studyModelDigest(m_study);
        preflightRunners(o);
    }

    m_ledger = std::make_unique<ledger::Ledger>(m_ledgerPath, ledger::Ledger::Mode::Write);
    checkShardLedger(o);
    if (!m_ledger->hasStudy()) {
        m_ledger->initStudy(studyJson, data.sha256, ledgerItems);
    } else {
        const json stored = m_ledger->study();
        const json& storedModel = stored.at("model");
        if (storedModel.value("format", "") != m_study.model_format ||
            storedModel.value("sha256", "") != studyJson["model"].value("sha256", "")) {
            throw Error(m_ledgerPath,
                        "the model's files differ from the ones this ledger was recorded with; "
                        "start a new ledger (--ledger PATH)");
        }
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
            m_ledger->updateStudy(studyJson); // configs or heads added or changed
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

engine::Engine& StudySession::engine(const HeadSpec& head) {
    auto it = m_engines.find(head.name);
    if (it == m_engines.end()) {
        it =
            m_engines.emplace(head.name, std::make_unique<engine::Engine>(m_study.model_path, head))
                .first;
    }
    return *it->second;
}

const std::vector<tokenizer::Encoding>& StudySession::encodings(const HeadSpec& head,
                                                                std::int64_t maxLength) {
    const auto key = std::make_pair(head.name, maxLength);
    auto it = m_encodings.find(key);
    if (it == m_encodings.end()) {
        engine::Engine& eng = engine(head);
        std::vector<tokenizer::Encoding> e;
        e.reserve(m_items.size());
        for (const auto& item : m_items) {
            e.push_back(eng.encode(item, maxLength));
        }
        it = m_encodings.emplace(key, std::move(e)).first;
    }
    return it->second;
}

void StudySession::releaseLedger() {
    m_ledger.reset();
}

namespace {

std::function<void(std::int64_t)>& batchObserver() {
    static std::function<void(std::int64_t)> observer;
    return observer;
}

void batchCommitted() {
    static std::int64_t batches = 0;
    ++batches;
    if (batchObserver()) {
        batchObserver()(batches);
    }
}

} // namespace

void setBatchObserver(std::function<void(std::int64_t)> observer) {
    batchObserver() = std::move(observer);
}

void StudySession::reopenLedger() {
    m_ledger = std::make_unique<ledger::Ledger>(m_ledgerPath, ledger::Ledger::Mode::Write);
}

namespace {

// One run being recorded: its row, the items it covers and what this process has done of it.
struct ActiveRun {
    explicit ActiveRun(const RunRequest& r) : req(r) {}
    const RunRequest& req;
    std::int64_t id = 0;
    std::size_t items = 0;     // items the run covers
    std::int64_t already = 0;  // recorded before this process resumed it
    std::vector<bool> skip;    // by position: recorded already
    std::vector<bool> outside; // by position: in another shard's batches (empty: not sharded)
    std::size_t doneHere = 0;
    double forward = 0; // seconds in the model
    std::int64_t ledgerItem(std::size_t k) const {
        return req.items.empty() ? std::int64_t(k) : req.items[k];
    }
    // The items this run records: all it covers, less those of other shards.
    std::size_t total() const {
        return items - std::size_t(std::count(outside.begin(), outside.end(), true));
    }
};

// Progress events, at most five a second (and the last); returns false to stop after a batch.
class ProgressEvents {
public:
    ProgressEvents(Events& events, const ActiveRun& run, const std::atomic<bool>& stop)
        : m_events(events), m_run(run), m_stop(stop),
          m_total(run.total() - std::size_t(run.already)) {}
    bool operator()(std::size_t done, std::size_t) {
        const auto now = Clock::now();
        if (now - m_last >= std::chrono::milliseconds(200) || done == m_total) {
            m_last = now;
            const double secs = std::chrono::duration<double>(now - m_t0).count();
            const double rate = secs > 0 ? double(done) / secs : 0;
            m_events.emit({{"event", protocol::event::kProgress},
                           {"run", m_run.id},
                           {"done", std::size_t(m_run.already) + done},
                           {"total", m_run.total()},
                           {"items_per_second", rate},
                           {"eta_seconds", rate > 0 ? double(m_total - done) / rate : -1.0}});
        }
        return !m_stop.load();
    }
    double seconds() const { return std::chrono::duration<double>(Clock::now() - m_t0).count(); }

private:
    Events& m_events;
    const ActiveRun& m_run;
    const std::atomic<bool>& m_stop;
    const std::size_t m_total;
    const Clock::time_point m_t0 = Clock::now();
    Clock::time_point m_last = m_t0 - std::chrono::seconds(1);
};

// Every batch in one transaction, records in ledger item order.
void recordDecisions(engine::Engine& eng, ledger::Ledger& led, ActiveRun& run,
                     const std::vector<tokenizer::Encoding>& enc, ProgressEvents& progress) {
    auto sink = [&](const std::vector<engine::ItemRecord>& batch) {
        std::vector<ledger::Record> recs;
        recs.reserve(batch.size());
        for (const auto& rec : batch) {
            recs.push_back(toRecord(rec));
            recs.back().item = run.ledgerItem(rec.item);
        }
        std::sort(recs.begin(), recs.end(),
                  [](const auto& a, const auto& b) { return a.item < b.item; });
        if (!batch.empty()) {
            run.forward += batch.front().batch_seconds;
        }
        led.appendBatch(run.id, recs);
        run.doneHere += batch.size();
        batchCommitted();
    };
    eng.run(enc, run.req.config, engine::parseCapture(run.req.capture), std::ref(progress), sink,
            run.skip);
    led.setKernelTrace(run.id, eng.lastTrace().toJson());
}

// A generation run is recorded whole: under the serving simulation the batch a request shares
// depends on every other request, so the rest of a cut-off run would be another experiment.
// Outputs are written in one transaction at the end.
engine::ServeStats recordGeneration(engine::Engine& eng, ledger::Ledger& led, ActiveRun& run,
                                    const std::vector<engine::Item>& items,
                                    ProgressEvents& progress) {
    const HeadSpec& head = *run.req.head;
    std::vector<std::string> prompts;
    prompts.reserve(run.items);
    for (std::size_t k = 0; k < run.items; ++k) {
        prompts.push_back(head.prompt(items.at(std::size_t(run.ledgerItem(k))).text));
    }
    engine::GenerateOptions opt;
    opt.max_new_tokens = head.max_new_tokens;
    opt.stop = head.stop;
    opt.stop_at_eos = head.stop_at_eos;
    opt.top_logprobs = head.top_logprobs;
    engine::ServeStats serving;
    const auto outputs =
        run.req.config.batch_size > 1
            ? eng.generate(prompts, run.req.config, opt, std::ref(progress)) // static batches
            : eng.serve(prompts, run.req.config, opt, &serving, std::ref(progress));
    if (!eng.cancelled()) {
        std::vector<ledger::GenerationRecord> recs;
        recs.reserve(outputs.size());
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            recs.push_back(toGenerationRecord(outputs[k], run.ledgerItem(k)));
        }
        led.appendGenerations(run.id, recs);
        run.doneHere = recs.size();
        run.forward = serving.model_seconds;
        batchCommitted();
    }
    return serving;
}

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
    return e;
}

json skippedEvent(const RunRequest& r, std::int64_t id) {
    return {{"event", protocol::event::kSkipped},
            {"run", id},
            {"head", r.head->name},
            {"config", r.configName},
            {"reason", "already recorded in this environment"}};
}

json finishedEvent(const ActiveRun& run, double seconds, const engine::ServeStats* serving) {
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
    if (serving != nullptr) {
        e["serving"] = {{"total_seconds", serving->total_seconds},
                        {"model_seconds", serving->model_seconds},
                        {"record_seconds", serving->record_seconds},
                        {"overhead_share", serving->overheadShare()},
                        {"prefills", serving->prefills},
                        {"decode_steps", serving->decode_steps},
                        {"max_resident", serving->max_resident}};
    }
    return e;
}

// A study run resumes an unfinished run of the same head, config, environment and capture;
// any other run starts a new row. Sends the "started" event.
void openRun(ledger::Ledger& led, Events& events, ActiveRun& run, const std::string& configHash,
             const std::string& envHash) {
    const RunRequest& r = run.req;
    const json headJson = headIdentity(*r.head);
    std::optional<ledger::Run> resumable;
    if (r.kind == "study") {
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

// An endpoint run's requests: the prompts of the items it covers, their places in the run's
// arrival order (seeded by arrival_seed) and, in that order, the ones not recorded yet.
endpoint::EndpointRun endpointRun(const study::Study& s, const ActiveRun& run,
                                  const std::vector<engine::Item>& items) {
    const RunRequest& r = run.req;
    endpoint::EndpointRun er;
    er.endpoint = &s.endpoint;
    er.head = r.head;
    er.config = r.config;
    for (std::size_t k = 0; k < run.items; ++k) {
        er.items.push_back(run.ledgerItem(k));
        er.prompts.push_back(r.head->prompt(items.at(std::size_t(er.items.back())).text));
    }
    const std::vector<std::size_t> arrivals = seededOrder(run.items, r.config.arrival_seed);
    er.arrival.resize(run.items);
    for (std::size_t a = 0; a < arrivals.size(); ++a) {
        er.arrival[arrivals[a]] = static_cast<std::int64_t>(a);
        if (run.skip.empty() || !run.skip[arrivals[a]]) {
            er.order.push_back(arrivals[a]);
        }
    }
    return er;
}

} // namespace

std::optional<ledger::Run> StudySession::alreadyRecorded(const RunRequest& r,
                                                         const std::string& configHash,
                                                         const std::string& envHash) {
    if (r.kind != "study" || r.again) {
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
    if (m_study.isEndpoint()) {
        return recordEndpoint(r);
    }
    if (r.config.runner == "transformers") {
        return recordTransformers(r);
    }
    RunOutcome out;
    engine::Engine& eng = engine(*r.head);
    const bool generation = r.head->generation();
    // Decision heads read the items tokenized once per head; a generation encodes its prompts.
    static const std::vector<tokenizer::Encoding> none;
    const auto& all = generation ? none : encodings(*r.head, r.config.max_length);
    std::vector<tokenizer::Encoding> subsetEnc;
    if (!r.items.empty() && !generation) {
        for (std::int64_t i : r.items) {
            subsetEnc.push_back(all.at(std::size_t(i)));
        }
    }
    const std::vector<tokenizer::Encoding>& enc = r.items.empty() ? all : subsetEnc;
    ActiveRun run(r);
    run.items = generation ? (r.items.empty() ? m_items.size() : r.items.size()) : enc.size();
    if (m_opt.shard.active() && r.kind == "study" && !generation) {
        // The config's batches over all items, as a one-node run makes them; this shard's
        // range of whole batches is what it records.
        std::vector<std::int64_t> lengths;
        for (const auto& e : enc) {
            lengths.push_back(static_cast<std::int64_t>(e.ids.size()));
        }
        const engine::RunPlan plan = engine::Engine::plan(lengths, r.config);
        const auto [first, last] = m_opt.shard.batchRange(plan.batches.size());
        run.outside.assign(run.items, true);
        for (std::size_t b = first; b < last; ++b) {
            for (std::size_t i : plan.batches[b]) {
                run.outside[i] = false;
            }
        }
    }
    eng.prepare(r.config);
    std::string configHash, envHash;
    if (auto skipped = skipIfRecorded(r, engine::collectEnvironment(), configHash, envHash)) {
        return *skipped;
    }
    openRun(*m_ledger, m_events, run, configHash, envHash);
    m_currentRun = out.id = run.id;
    ProgressEvents progress(m_events, run, m_stop);
    engine::ServeStats serving;
    if (generation) {
        serving = recordGeneration(eng, *m_ledger, run, m_items, progress);
    } else {
        recordDecisions(eng, *m_ledger, run, enc, progress);
    }
    json finished = finishedEvent(run, progress.seconds(),
                                  generation && r.config.batch_size == 1 ? &serving : nullptr);
    return endRun(run.id, finished, eng.cancelled(), generation);
}

// An endpoint run commits every item as its reply comes (its record or output and its exchange
// with the server in one transaction), so a run stopped by a signal, a server fault or kill -9
// resumes with nothing recorded twice and nothing lost.
RunOutcome StudySession::recordEndpoint(const RunRequest& r) {
    RunOutcome out;
    ActiveRun run(r);
    run.items = r.items.empty() ? m_items.size() : r.items.size();
    std::string configHash, envHash;
    if (auto skipped = skipIfRecorded(r, m_endpointEnv, configHash, envHash)) {
        return *skipped;
    }
    openRun(*m_ledger, m_events, run, configHash, envHash);
    m_currentRun = out.id = run.id;
    ProgressEvents progress(m_events, run, m_stop);
    const bool generation = r.head->generation();
    const endpoint::EndpointStats stats = endpoint::runEndpoint(
        endpointRun(m_study, run, m_items),
        [&](endpoint::ItemOutcome&& o) {
            m_ledger->appendEndpointItems(
                run.id, generation ? std::vector<ledger::Record>{} : std::vector{o.record},
                generation ? std::vector{o.output} : std::vector<ledger::GenerationRecord>{},
                {o.request});
            ++run.doneHere;
            batchCommitted();
            return progress(run.doneHere, run.items);
        },
        &m_stop);
    json finished = finishedEvent(run, progress.seconds(), nullptr);
    finished["endpoint"] = analysis::toJson(analysis::requestStats(m_ledger->requests(run.id)));
    finished["endpoint"]["failed_here"] = stats.failed;
    if (run.already + std::int64_t(run.doneHere) < std::int64_t(run.items)) { // stopped
        m_ledger->markRun(run.id, ledger::RunStatus::Interrupted,
                          "stopped by a signal; run again to resume");
        finished["status"] = "interrupted";
        m_events.emit(finished);
        out.cancelled = true;
        return out;
    }
    seal(run.id, finished);
    return out;
}

TransformersRunner& StudySession::transformersRunner(const RunConfig& c) {
    const std::string key = c.env + "\n" + c.cpu_capability;
    auto it = m_runners.find(key);
    if (it == m_runners.end()) {
        const study::Environment* env = m_study.environment(c.env);
        if (env == nullptr) {
            throw Error(m_opt.study, "no environment \"" + c.env + "\" in $.environments");
        }
        study::Environment e = *env;
        if (!c.cpu_capability.empty()) { // the runner's own process: set before torch starts
            e.vars.push_back("ATEN_CPU_CAPABILITY=" + c.cpu_capability);
        }
        it = m_runners.emplace(key, std::make_unique<TransformersRunner>(e)).first;
    }
    return *it->second;
}

const std::vector<RunnerItem>&
StudySession::runnerItems(TransformersRunner& tr, const HeadSpec& head, std::int64_t maxLength) {
    const std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(&tr)) + "\n" +
                            head.name + "\n" + std::to_string(maxLength);
    auto it = m_runnerItems.find(key);
    if (it == m_runnerItems.end()) {
        std::vector<std::string> texts;
        for (const auto& item : m_items) {
            if (item.text.find_first_not_of(" \t\r\n") == std::string::npos) {
                throw Error("item " + item.id + ": empty text");
            }
            texts.push_back(item.text);
        }
        it = m_runnerItems.emplace(key, tr.tokenize(texts, maxLength)).first;
    }
    return it->second;
}

void StudySession::preflightRunners(const RunOptions& o) {
    // A session that names no configs (the diagnosis: its probes follow the reference and it
    // reads every config) may use them all.
    RunOptions every = o;
    every.all = every.all || every.configs.empty();
    const Selection sel = selectRuns(m_study, every);
    std::set<std::string> seen;
    for (const study::NamedConfig* nc : sel.configs) {
        const RunConfig& c = nc->config;
        if (c.runner != "transformers" || !seen.insert(c.env + "\n" + c.cpu_capability).second) {
            continue;
        }
        TransformersRunner& tr = transformersRunner(c);
        tr.fingerprint();
        for (const HeadSpec* h : sel.heads) {
            tr.load(m_study.model_path, h->toJson(), c.toJson());
        }
    }
}

namespace {

// A decision head's run on the transformers runner: its batches, one transaction each, records
// in ledger item order; returns false when stopped.
bool recordRunnerDecisions(TransformersRunner& tr, ledger::Ledger& led, ActiveRun& run,
                           const std::vector<RunnerItem>& all, ProgressEvents& progress,
                           RunnerTrace& trace) {
    std::vector<const RunnerItem*> items;
    for (std::size_t k = 0; k < run.items; ++k) {
        items.push_back(&all.at(std::size_t(run.ledgerItem(k))));
    }
    bool going = true;
    trace =
        runRunnerBatches(tr, items, *run.req.head, run.req.config, run.req.capture, run.skip,
                         /*trace=*/true, [&](std::vector<ledger::Record>&& recs, double seconds) {
                             for (auto& rec : recs) {
                                 rec.item = run.ledgerItem(std::size_t(rec.item));
                             }
                             std::sort(recs.begin(), recs.end(), [](const auto& x, const auto& y) {
                                 return x.item < y.item;
                             });
                             led.appendBatch(run.id, recs);
                             run.doneHere += recs.size();
                             run.forward += seconds;
                             batchCommitted();
                             going = progress(run.doneHere, run.total());
                             return going;
                         });
    return going;
}

// A generation head's run on the transformers runner: static batches of batch_size prompts
// (the engine's generate()), recorded whole in one transaction at the end, as the engine's
// generation runs are; returns false when stopped (nothing recorded).
bool recordRunnerGeneration(TransformersRunner& tr, ledger::Ledger& led, ActiveRun& run,
                            const std::vector<engine::Item>& items, ProgressEvents& progress) {
    const HeadSpec& head = *run.req.head;
    const auto B = static_cast<std::size_t>(run.req.config.batch_size);
    std::vector<ledger::GenerationRecord> recs;
    for (std::size_t first = 0; first < run.items; first += B) {
        std::vector<std::string> prompts;
        for (std::size_t k = first; k < std::min(run.items, first + B); ++k) {
            prompts.push_back(head.prompt(items.at(std::size_t(run.ledgerItem(k))).text));
        }
        const auto t0 = Clock::now();
        for (auto& g : tr.generate(prompts, head)) {
            const std::size_t k = first + std::size_t(g.item);
            g.item = run.ledgerItem(k);
            g.arrival = static_cast<std::int64_t>(k);
            recs.push_back(std::move(g));
        }
        run.forward += std::chrono::duration<double>(Clock::now() - t0).count();
        if (!progress(recs.size(), run.items)) {
            return false;
        }
    }
    led.appendGenerations(run.id, recs);
    run.doneHere = recs.size();
    batchCommitted();
    return true;
}

} // namespace

RunOutcome StudySession::recordTransformers(const RunRequest& r) {
    if (m_opt.shard.active()) {
        throw Error(m_opt.study, "config \"" + r.configName +
                                     "\" runs on the transformers runner; a sweep shard records "
                                     "engine configs");
    }
    RunOutcome out;
    TransformersRunner& tr = transformersRunner(r.config);
    tr.load(m_study.model_path, r.head->toJson(), r.config.toJson());
    const bool generation = r.head->generation();
    static const std::vector<RunnerItem> none;
    const auto& all = generation ? none : runnerItems(tr, *r.head, r.config.max_length);
    ActiveRun run(r);
    run.items = r.items.empty() ? m_items.size() : r.items.size();
    std::string configHash, envHash;
    if (auto skipped = skipIfRecorded(r, tr.fingerprint(), configHash, envHash)) {
        return *skipped;
    }
    openRun(*m_ledger, m_events, run, configHash, envHash);
    m_currentRun = out.id = run.id;
    ProgressEvents progress(m_events, run, m_stop);
    RunnerTrace trace;
    const bool whole = generation ? recordRunnerGeneration(tr, *m_ledger, run, m_items, progress)
                                  : recordRunnerDecisions(tr, *m_ledger, run, all, progress, trace);
    if (!generation) {
        m_ledger->setKernelTrace(run.id, trace.trace);
    }
    if (trace.opsFrom == "profiler") {
        m_events.emit({{"event", protocol::event::kWarning},
                       {"message", "config " + r.configName +
                                       ": the transformers runner counted the kernel trace's "
                                       "operators with torch.profiler, which slows a run by "
                                       "10-20% (" +
                                       trace.why + ")"}});
    }
    json finished = finishedEvent(run, progress.seconds(), nullptr);
    finished["runner"] = {{"kind", "transformers"},
                          {"environment", r.config.env},
                          {"row_hash", tr.ready().value("row_hash", "")}};
    if (!trace.opsFrom.empty()) {
        finished["runner"]["trace_ops"] = trace.opsFrom;
    }
    return endRun(run.id, finished,
                  !whole && run.already + std::int64_t(run.doneHere) < std::int64_t(run.total()),
                  generation);
}

RunOutcome StudySession::endRun(std::int64_t run, json& finished, bool stopped, bool generation) {
    RunOutcome out;
    out.id = run;
    if (!stopped) {
        seal(run, finished);
        return out;
    }
    m_ledger->markRun(run, ledger::RunStatus::Interrupted,
                      generation ? "stopped by a signal; a generation run is recorded whole, "
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
                if (!cfg.cpu_capability.empty() && cfg.runner == "engine" &&
                    cfg.cpu_capability != currentCapability()) {
                    session->releaseLedger(); // the child process writes the ledger
                    const int rc = runInChild(o, session->ledgerPath(), head->name, nc->name,
                                              cfg.cpu_capability, events, stop);
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
                req.capture = s.capture;
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
