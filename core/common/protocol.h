#pragma once
// The runner protocol's vocabulary, shared by the CLI, `probaudit engine`, the workbench's run
// controller and the tests: exit codes, event names and request methods (docs/study-file.md,
// "Events" and "The engine protocol"). Runs report JSON-lines events:
//   {"event":"started", "run", "head", "config", "config_hash", "environment", "items",
//    "resumed_items", "kind"[, "label"]}
//   {"event":"progress", "run", "done", "total", "items_per_second", "eta_seconds"}
//   {"event":"run-finished", "run", "status", "items_done", "items", "seconds",
//    "forward_seconds"[, "records_sha256"][, "serving"]}
//   {"event":"skipped", "run", "head", "config", "reason"}
//   {"event":"warning", "message"}   {"event":"error", "message"}
//   {"event":"done", "ledger"[, "head"][, "imported", "from"]}  (head: the head a diagnosis
//     explained; imported/from: a run on another host, `run --engine ssh://`: how many
//     finished runs came into the local ledger, from where)
//   {"event":"snapshot", "path", "bytes"}  (the remote side of --engine ssh://, after done:
//     N bytes of its ledger's copy follow on the same stream)
// Under `run --jobs N` every event of a job also carries "job": "K/N"; its started and
// progress events carry no "run" (the run has its id in the study's ledger once imported).
// `probaudit engine` adds {"event":"ready","protocol":kVersion} and answers each request
// {"id", "method", "params"} with the run's events, each tagged with "id", then
// {"event":"result","result":...}. A request it cannot take (not JSON, not an object, no
// method, wrong types, a line over kMaxRequestBytes) gets {"event":"error","message"} with the
// request's id where it has one, and the engine serves the next; a client that goes away ends
// it after the current batch, never by SIGPIPE.
#include <cstddef>

namespace probaudit::protocol {

inline constexpr int kVersion = 1;
inline constexpr std::size_t kMaxRequestBytes = std::size_t(16) << 20; // one request line

// Exit codes of `probaudit` (and of a run reported as {"result":{"exit":N}}).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;              // bad input or a failed run
inline constexpr int kExitTampered = 2;           // verify: the hash chain is broken
inline constexpr int kExitEnvironmentDiffers = 3; // check: the runtime differs from the lock
inline constexpr int kExitResultsDiffer = 4;      // check: the lock's results do not reproduce
inline constexpr int kExitRuleFailed = 5;         // gate: a rule of the policy failed
inline constexpr int kExitRuleUnknown = 6;   // gate: no rule failed, but one could not be evaluated
inline constexpr int kExitInterrupted = 130; // stopped by a signal or cancel, work kept

namespace event {
inline constexpr const char* kReady = "ready";
inline constexpr const char* kStarted = "started";
inline constexpr const char* kProgress = "progress";
inline constexpr const char* kRunFinished = "run-finished";
inline constexpr const char* kSkipped = "skipped";
inline constexpr const char* kWarning = "warning";
inline constexpr const char* kError = "error";
inline constexpr const char* kDone = "done";
inline constexpr const char* kResult = "result";
} // namespace event

namespace method {
inline constexpr const char* kEnv = "env";
inline constexpr const char* kRun = "run";
inline constexpr const char* kDiagnose = "diagnose";
inline constexpr const char* kCancel = "cancel";
inline constexpr const char* kShutdown = "shutdown";
} // namespace method

} // namespace probaudit::protocol
