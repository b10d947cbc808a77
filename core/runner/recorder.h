#pragma once
// How a run's numbers are computed: one Recorder per way of computing them (the built-in
// engine, the transformers runner in a Python environment, an OpenAI-compatible endpoint).
// StudySession knows this interface only: it asks the recorder which items a run covers and
// which environment computes them, finds a run recorded already or resumes one, opens the
// run's ledger row, and seals the run once the recorder has computed and committed its items.
// Adding another way of computing runs (a model variant served elsewhere) is one new class.
// This header is torch-free.
#include "core/ledger/ledger.h"
#include "core/runner/events.h"
#include "core/runner/study_session.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace probaudit::runner {

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
    std::size_t total() const;
};

// Progress events, at most five a second (and the last); returns false to stop after a batch.
class ProgressEvents {
public:
    using Clock = std::chrono::steady_clock;
    ProgressEvents(Events& events, const ActiveRun& run, const std::atomic<bool>& stop);
    bool operator()(std::size_t done, std::size_t);
    double seconds() const;

private:
    Events& m_events;
    const ActiveRun& m_run;
    const std::atomic<bool>& m_stop;
    const std::size_t m_total;
    const Clock::time_point m_t0 = Clock::now();
    Clock::time_point m_last = m_t0 - std::chrono::seconds(1);
};

// What a recorder's computation ended with.
struct Computed {
    bool stopped = false; // stopped (a signal) before every item of the run was recorded
    // Fields the recorder adds to the run's "run-finished" event (common/protocol.h).
    nlohmann::json finished = nlohmann::json::object();
};

// What every recorder works from: the session's study, its items, options and events.
struct RecorderContext {
    const RunOptions& options;
    const study::Study& study;
    const std::vector<engine::Item>& items; // the study's items, in ledger order
    Events& events;
    const std::atomic<bool>& stop;
};

class Recorder {
public:
    virtual ~Recorder() = default;
    // Before the run's row exists: the items the run covers (run.items) and, for a shard, the
    // batches outside it (run.outside); loads and tokenizes what the run needs.
    virtual void plan(ActiveRun& run) = 0;
    // The environment fingerprint of what computes the run (DESIGN.md "environment
    // fingerprint"), after plan().
    virtual nlohmann::json environment(const RunRequest& request) = 0;
    // Computes the run's items that are not recorded yet (run.skip) and commits them to the
    // ledger, one transaction per batch (or per item, or the whole run).
    virtual Computed compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) = 0;
    // Whether a run stopped part way resumes where it stopped (false: it is recorded whole,
    // and runs again from the start).
    virtual bool resumable(const RunRequest& request) const = 0;
};

// Every committed batch (or item) of any recorder: counts it and calls the batch observer
// (setBatchObserver, study_session.h).
void batchCommitted();

} // namespace probaudit::runner
