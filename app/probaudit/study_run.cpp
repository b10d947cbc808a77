#include "study_run.h"

#include "common/error.h"
#include "common/sha256.h"
#include "engine/engine.h"
#include "engine/env_fingerprint.h"
#include "ledger/ledger.h"
#include "study/study.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace probaudit::app {

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

// SHA-256 over the model's files (names, sizes, bytes): a ledger belongs to one model.
std::string modelDigest(const model::Checkpoint& ckpt) {
    Sha256 h;
    for (const std::string& f : ckpt.files()) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            throw Error(f, "cannot read the model file");
        }
        h.update(fs::path(f).filename().string());
        std::vector<char> buf(1 << 20);
        while (in) {
            in.read(buf.data(), std::streamsize(buf.size()));
            h.update(buf.data(), std::size_t(in.gcount()));
        }
    }
    return h.hex();
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

// A config whose ATen CPU capability differs from this process's runs in a child engine
// process started with ATEN_CPU_CAPABILITY set (libtorch reads it once, at start). The
// parent releases the ledger meanwhile and relays the child's events.
int runInChild(const RunOptions& o, const std::string& ledgerPath, const std::string& head,
               const std::string& config, const std::string& capability, Events& events,
               const std::atomic<bool>& stop) {
    std::vector<std::string> args{"probaudit", "run",      o.study, "--ledger",
                                  ledgerPath,  "--config", config,  "--head",
                                  head,        "--events", "jsonl"};
    if (o.again) {
        args.push_back("--again");
    }
    if (o.skipBadLines) {
        args.push_back("--skip-bad-lines");
    }
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    std::vector<std::string> envStore;
    for (char** e = environ; *e != nullptr; ++e) {
        if (std::strncmp(*e, "ATEN_CPU_CAPABILITY=", 20) != 0) {
            envStore.emplace_back(*e);
        }
    }
    envStore.push_back("ATEN_CPU_CAPABILITY=" + capability);
    std::vector<char*> envp;
    for (auto& e : envStore) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    int pipeFd[2];
    if (::pipe(pipeFd) != 0) {
        throw Error("cannot start the engine for ATEN_CPU_CAPABILITY=" + capability);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipeFd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, pipeFd[0]);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    ::close(pipeFd[1]);
    if (rc != 0) {
        ::close(pipeFd[0]);
        throw Error("cannot start the engine for ATEN_CPU_CAPABILITY=" + capability);
    }
    FILE* in = ::fdopen(pipeFd[0], "r");
    char* line = nullptr;
    size_t cap = 0;
    bool signalled = false;
    while (::getline(&line, &cap, in) > 0) {
        if (stop && !signalled) {
            ::kill(pid, SIGINT);
            signalled = true;
        }
        try {
            json e = json::parse(line);
            if (e.value("event", "") != "done") {
                events.emit(e);
            }
        } catch (const json::exception&) {
        }
    }
    std::free(line);
    std::fclose(in);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

struct Selected {
    std::vector<const HeadSpec*> heads;
    std::vector<const study::NamedConfig*> configs;
};

Selected select(const study::Study& s, const RunOptions& o) {
    Selected sel;
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

std::string currentCapability() {
    const char* c = std::getenv("ATEN_CPU_CAPABILITY");
    return c == nullptr ? std::string() : std::string(c);
}

} // namespace

int runStudy(const RunOptions& o, Events& events, const std::atomic<bool>& stop) {
    const std::string ledgerPath = o.ledger.empty() ? defaultLedgerPath(o.study) : o.ledger;
    std::int64_t currentRun = 0; // the run being recorded (0: none)
    std::unique_ptr<ledger::Ledger> led;
    try {
        const study::Study s = study::Study::load(o.study);
        const Selected sel = select(s, o);
        const study::Dataset data = study::loadDataset(s.dataset, o.skipBadLines);
        for (const auto& w : data.warnings) {
            events.emit({{"event", "warning"}, {"message", "skipped " + w}});
        }
        std::vector<engine::Item> items;
        std::vector<ledger::Item> ledgerItems;
        for (const auto& d : data.items) {
            items.push_back({d.id, d.text, d.label});
            ledgerItems.push_back(
                {static_cast<std::int64_t>(ledgerItems.size()), d.id, d.text, d.label, d.line});
        }

        const model::Checkpoint ckpt = model::Checkpoint::open(s.model_path);
        json studyJson = s.resolvedJson();
        studyJson["model"]["sha256"] = modelDigest(ckpt);

        led = std::make_unique<ledger::Ledger>(ledgerPath, ledger::Ledger::Mode::Write);
        if (!led->hasStudy()) {
            led->initStudy(studyJson, data.sha256, ledgerItems);
        } else {
            const json stored = led->study();
            if (stored.at("model").value("sha256", "") != studyJson["model"]["sha256"]) {
                throw Error(ledgerPath,
                            "the model's files differ from the ones this ledger was recorded with; "
                            "start a new ledger (--ledger PATH)");
            }
            const auto storedItems = led->items();
            bool same =
                led->datasetSha256() == data.sha256 && storedItems.size() == ledgerItems.size();
            for (std::size_t i = 0; same && i < storedItems.size(); ++i) {
                same = storedItems[i].id == ledgerItems[i].id &&
                       storedItems[i].text == ledgerItems[i].text;
            }
            if (!same) {
                throw Error(
                    ledgerPath,
                    "the study's items differ from the ones in this ledger (dataset, limit, seed "
                    "or skipped lines changed); start a new ledger (--ledger PATH)");
            }
        }
        for (const auto& c : s.configs) {
            led->putConfig(c.config.hash(), c.name, c.config.toJson());
        }

        const engine::Capture capture = engine::parseCapture(s.capture);
        for (const HeadSpec* head : sel.heads) {
            std::unique_ptr<engine::Engine> eng;
            std::map<std::int64_t, std::vector<tokenizer::Encoding>> encodings; // by max_length
            for (const study::NamedConfig* nc : sel.configs) {
                const RunConfig& cfg = nc->config;
                if (!cfg.cpu_capability.empty() && cfg.cpu_capability != currentCapability()) {
                    led.reset(); // the child process writes the ledger
                    const int rc = runInChild(o, ledgerPath, head->name, nc->name,
                                              cfg.cpu_capability, events, stop);
                    if (rc != 0) {
                        return rc;
                    }
                    led = std::make_unique<ledger::Ledger>(ledgerPath, ledger::Ledger::Mode::Write);
                    continue;
                }
                if (!eng) {
                    eng = std::make_unique<engine::Engine>(s.model_path, *head);
                }
                auto enc = encodings.find(cfg.max_length);
                if (enc == encodings.end()) {
                    std::vector<tokenizer::Encoding> e;
                    e.reserve(items.size());
                    for (const auto& it : items) {
                        e.push_back(eng->encode(it, cfg.max_length));
                    }
                    enc = encodings.emplace(cfg.max_length, std::move(e)).first;
                }
                eng->prepare(cfg);
                const std::string envHash = led->putEnvironment(engine::collectEnvironment());
                const json headJson = head->toJson();
                if (!o.again) {
                    if (const auto done =
                            led->findFinished(headJson, cfg.hash(), envHash, s.capture)) {
                        events.emit({{"event", "skipped"},
                                     {"run", done->id},
                                     {"head", head->name},
                                     {"config", nc->name},
                                     {"reason", "already recorded in this environment"}});
                        continue;
                    }
                }
                std::vector<bool> skip;
                std::int64_t runId = 0;
                std::int64_t already = 0;
                if (const auto r = led->findResumable(headJson, cfg.hash(), envHash, s.capture)) {
                    runId = r->id;
                    led->resumeRun(runId);
                    skip.assign(items.size(), false);
                    for (std::int64_t i : led->recordedItems(runId)) {
                        skip[std::size_t(i)] = true;
                        ++already;
                    }
                } else {
                    runId = led->beginRun(head->name, headJson, nc->name, cfg.hash(), envHash,
                                          s.capture, static_cast<std::int64_t>(items.size()));
                }
                currentRun = runId;
                events.emit({{"event", "started"},
                             {"run", runId},
                             {"head", head->name},
                             {"config", nc->name},
                             {"config_hash", cfg.hash()},
                             {"environment", envHash},
                             {"items", items.size()},
                             {"resumed_items", already}});
                const auto t0 = Clock::now();
                auto lastEvent = t0 - std::chrono::seconds(1);
                double forward = 0;
                std::size_t doneHere = 0;
                const std::size_t total = items.size() - std::size_t(already);
                auto progress = [&](std::size_t done, std::size_t) {
                    const auto now = Clock::now();
                    if (now - lastEvent >= std::chrono::milliseconds(200) || done == total) {
                        lastEvent = now;
                        const double secs = std::chrono::duration<double>(now - t0).count();
                        const double rate = secs > 0 ? double(done) / secs : 0;
                        events.emit(
                            {{"event", "progress"},
                             {"run", runId},
                             {"done", std::size_t(already) + done},
                             {"total", items.size()},
                             {"items_per_second", rate},
                             {"eta_seconds", rate > 0 ? double(total - done) / rate : -1.0}});
                    }
                    return !stop.load();
                };
                auto sink = [&](const std::vector<engine::ItemRecord>& batch) {
                    std::vector<ledger::Record> recs;
                    recs.reserve(batch.size());
                    for (const auto& r : batch) {
                        recs.push_back(toRecord(r));
                    }
                    if (!batch.empty()) {
                        forward += batch.front().batch_seconds;
                    }
                    led->appendBatch(runId, recs);
                    doneHere += batch.size();
                };
                eng->run(enc->second, cfg, capture, progress, sink, skip);
                led->setKernelTrace(runId, eng->lastTrace().toJson());
                const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
                json finished{{"event", "run-finished"},
                              {"run", runId},
                              {"head", head->name},
                              {"config", nc->name},
                              {"items_done", already + std::int64_t(doneHere)},
                              {"items", items.size()},
                              {"seconds", seconds},
                              {"forward_seconds", forward}};
                if (eng->cancelled()) {
                    led->markRun(runId, ledger::RunStatus::Interrupted,
                                 "stopped by a signal; run again to resume");
                    finished["status"] = "interrupted";
                    events.emit(finished);
                    return kExitInterrupted;
                }
                led->finishRun(runId);
                currentRun = 0;
                finished["status"] = "finished";
                finished["records_sha256"] = led->run(runId).records_sha256;
                events.emit(finished);
            }
        }
        events.emit({{"event", "done"}, {"ledger", ledgerPath}});
        return 0;
    } catch (const std::exception& e) {
        if (led && currentRun != 0) {
            try {
                led->markRun(currentRun, ledger::RunStatus::Interrupted,
                             std::string(e.what()) +
                                 "; finished batches are kept, run again to resume");
            } catch (const std::exception&) {
                // The ledger itself failed (disk full): the run stays "running" with no writer,
                // which is resumable all the same.
            }
        }
        events.emit({{"event", "error"}, {"message", e.what()}});
        return 1;
    }
}

} // namespace probaudit::app
