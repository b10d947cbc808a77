#pragma once
// `probaudit run STUDY [--config NAME ...] [--all] [--head NAME ...]`: runs a study's head
// variants under its configurations and records everything in the study's ledger. Tokenizes
// once per head, plans the batches of each config, writes one transaction per batch, resumes
// an unfinished run of the same head, config, capture and environment where it stopped, and
// stops after the current batch on SIGINT/SIGTERM (exit 130).
#include "core/common/protocol.h"
#include "core/common/run_config.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/pyrunner/transformers_runner.h"
#include "core/runner/events.h"
#include "core/study/study.h"
#include "core/tokenizer/tokenizer.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::engine {
class Engine; // engine/engine.h (libtorch): this header stays torch-free for the CLI's files
struct Item;
} // namespace probaudit::engine

namespace probaudit::runner {

class Recorder; // runner/recorder.h: how a run's numbers are computed
class EngineRecorder;
class TransformersRecorder;
class EndpointRecorder;
struct RecorderContext;

// Shard I of N of a study (`run --shard I/N`, 1 <= I <= N): every config's batches, in the
// config's own run order over all items, split into N contiguous ranges of whole batches;
// shard I records range I. A batch is never split, so every item keeps its batch, padding,
// row and neighbours: merged shards are bit for bit a one-node run (ledger/merge.h).
struct Shard {
    int index = 0, count = 0; // count 0: not sharded
    bool active() const { return count > 0; }
    std::string name() const { return std::to_string(index) + "/" + std::to_string(count); }
    // "I/N"; throws probaudit::Error with what is wrong.
    static Shard parse(const std::string& text);
    // The batches [first, last) of `batches` that shard `index` of `count` records.
    std::pair<std::size_t, std::size_t> batchRange(std::size_t batches) const;
};

struct RunOptions {
    std::string study;
    std::string ledger;               // "" = next to the study: NAME.study.json -> NAME.ledger
    std::vector<std::string> configs; // names; empty with all = every config
    std::vector<std::string> heads;   // names; empty = every head variant
    bool all = false;
    bool again = false; // record a config that already has a finished run once more
    bool skipBadLines = false;
    int jobs = 1; // runs at once, each in its own engine process (runner/parallel_runs.h)
    // A ledger whose finished runs count as recorded (a job of `--jobs` skips what the study's
    // ledger has); "" = none.
    std::string recordedIn;
    Shard shard; // record one shard into its own ledger (decision heads of an engine study)
};

// The (head, config) pairs a run records, in the order it records them: every head, or the
// named ones; the configs named, or with `all` every config, the reference first.
struct Selection {
    std::vector<const HeadSpec*> heads;
    std::vector<const study::NamedConfig*> configs;
};
Selection selectRuns(const study::Study& s, const RunOptions& o);

// One run to record: a study config over every item, or a probe over a sample.
struct RunRequest {
    const HeadSpec* head = nullptr;
    std::string configName;
    RunConfig config;
    std::string capture = "hashes";
    RunKind kind = RunKind::Study;
    std::string label;               // probes: what the run is for
    std::vector<std::int64_t> items; // ledger item indices, ascending; empty = every item
    bool again = false;              // study: record even when a finished run exists
};

struct RunOutcome {
    std::int64_t id = 0;
    bool skipped = false;   // a finished run already existed (study runs without `again`)
    bool cancelled = false; // stopped by a signal after a committed batch
};

// A study opened for recording: the validated study and items, its ledger (writer lock held),
// and the recorders that compute runs (runner/recorder.h): the engine (one per head, the items
// tokenized once per head and max_length), the transformers runner, or the study's endpoint.
class StudySession {
public:
    StudySession(const RunOptions& o, Events& events, const std::atomic<bool>& stop);
    ~StudySession();

    const study::Study& study() const { return m_study; }
    const std::vector<engine::Item>& items() const { return m_items; }
    ledger::Ledger& ledger() { return *m_ledger; }
    const std::string& ledgerPath() const { return m_ledgerPath; }
    // variant: a config's "model" ("": the study's first variant).
    engine::Engine& engine(const HeadSpec& head, const std::string& variant = "");
    const std::vector<tokenizer::Encoding>& encodings(const HeadSpec& head, std::int64_t maxLength,
                                                      const std::string& variant = "");

    // Records a run (a study run resumes an unfinished one of the same key) and seals it.
    RunOutcome record(const RunRequest& request);
    // An endpoint study's server, as the preflight found it (environment fingerprint); null
    // for an engine study.
    const nlohmann::json& endpointEnvironment() const { return m_endpointEnv; }
    // After an error: the run being recorded is marked interrupted (resumable).
    void markFailed(const std::string& message);

    void releaseLedger(); // a child process is about to write it
    void reopenLedger();

private:
    // The finished run of `request` that record() skips (in this ledger, or in
    // RunOptions::recordedIn); none for probes and with `again`.
    std::optional<ledger::Run> alreadyRecorded(const RunRequest& request,
                                               const std::string& configHash,
                                               const std::string& envHash);

    // What computes a request's run: a server (an endpoint study, a server variant's config),
    // the transformers runner (a config with runner "transformers") or the engine.
    Recorder& recorderFor(const RunRequest& request);
    // Before the ledger is touched: every environment the selected configs name starts its
    // runner, answers "env" and loads the model, so an environment or model it cannot use
    // leaves the ledger as it was.
    void preflightRunners(const RunOptions& o);
    // Before the ledger is touched: every server variant the selected configs run answers its
    // preflight (endpoint/endpoint_run.h), so a server that cannot be audited leaves it as it was.
    // A session that selects no configs (the diagnosis) asks none.
    void preflightServers(const RunOptions& o);
    // Refuses what a shard cannot record (before the ledger is opened), and a ledger of another
    // shard, or of the whole study (before anything is written to it).
    void checkShard(const RunOptions& o) const;
    void checkShardLedger(const RunOptions& o) const;
    // Stores the run's environment and config (their hashes out); the outcome of a run that is
    // recorded already (the "skipped" event sent), or none.
    std::optional<RunOutcome> skipIfRecorded(const RunRequest& request,
                                             const nlohmann::json& environment,
                                             std::string& configHash, std::string& envHash);
    // Seals a run whose every item is recorded and sends its "run-finished" event.
    void seal(std::int64_t run, nlohmann::json& finished);
    // Seals the run, or, when it was stopped before every item was recorded, marks it
    // interrupted (a generation run is recorded whole: run again records it from the start)
    // and sends its "run-finished" event with status "interrupted".
    RunOutcome endRun(std::int64_t run, nlohmann::json& finished, bool stopped, bool generation);

    RunOptions m_opt;
    Events& m_events;
    const std::atomic<bool>& m_stop;
    std::string m_ledgerPath;
    study::Study m_study;
    std::vector<engine::Item> m_items;
    std::unique_ptr<ledger::Ledger> m_ledger;
    std::int64_t m_currentRun = 0;
    nlohmann::json m_endpointEnv;
    std::unique_ptr<RecorderContext> m_context;
    std::unique_ptr<EngineRecorder> m_engine;
    std::unique_ptr<TransformersRecorder> m_transformers;
    // By server: "" for an endpoint study's, else the server variant's name ($.models).
    std::map<std::string, std::unique_ptr<EndpointRecorder>> m_endpoints;
};

// Returns the exit code (common/protocol.h): 0 done, 130 interrupted (finished batches kept),
// 1 error (reported as an "error" event; finished batches kept). `stop` is polled between
// batches.
int runStudy(const RunOptions& o, Events& events, const std::atomic<bool>& stop);

// Called after every committed batch with the number of batches this process has committed;
// it may throw (the run is then marked interrupted, as after any error). For fault injection
// by test executables; none by default.
void setBatchObserver(std::function<void(std::int64_t committed)> observer);

std::string defaultLedgerPath(const std::string& studyPath);

// The decision head a command works on: `name`, or the study's first. Throws probaudit::Error
// naming the study for an unknown name, and with `generationRefusal` for a generation head.
const HeadSpec& decisionHead(const study::Study& s, const std::string& studyPath,
                             const std::string& name, const std::string& generationRefusal);

} // namespace probaudit::runner
