#pragma once
// `probaudit run STUDY --jobs N`: up to N (head, config) runs at once, each in its own engine
// process (the same `probaudit run`, one config) that records into a job ledger of its own in
// LEDGER.jobs/. A finished job's run is imported into the study's ledger (sealed again there,
// Ledger::importRun) in the order a serial run records them, so run ids, records and seals are
// those of `run --all` without --jobs (a study with a server variant: its servers' runs come
// after the others). A config with `threads` T occupies T of the N slots. A
// job that was cut off keeps its job ledger and resumes from it on the next `run --jobs`. A
// server variant's configs are recorded after the jobs, one at a time, by this process.
#include "core/runner/events.h"
#include "core/runner/study_session.h"

#include <atomic>
#include <string>
#include <vector>

namespace probaudit::runner {

// The arguments of a child `probaudit run` that records one head under one config into
// `ledger` and reports JSON-lines events on its standard output.
std::vector<std::string> childRunArgs(const RunOptions& o, const std::string& ledger,
                                      const std::string& head, const std::string& config);

// Where the job ledger of `head` under the config with hash `configHash` lives.
std::string jobLedgerPath(const std::string& ledger, const std::string& head,
                          const std::string& configHash);

// Runs the selected (head, config) pairs as jobs (see above) and imports them into the
// session's ledger. Returns the exit code as runStudy does; events of the jobs are relayed
// with "job": "K/N" (started and progress carry no run id: the run has its id once imported).
int runJobs(const RunOptions& o, StudySession& session, const Selection& selection, Events& events,
            const std::atomic<bool>& stop);

} // namespace probaudit::runner
