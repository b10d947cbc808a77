#pragma once
// Runtime pinning (DESIGN.md: pin / runtime lock), computed; the CLI presents it.
//   probaudit pin STUDY --run ID -o runtime.lock.json [--ledger L] [--sample K]
//     stores the run's environment fingerprint, config, head, records digest, and the exact
//     results of a K-item sample rerun now (the run must come from this environment).
//   probaudit check runtime.lock.json [--study S] [--json]
//     compares the current environment with the pinned one, naming every difference and
//     whether it can move numbers; with --study, reruns the sample and compares bit for bit.
//     Exit codes: 0 identical, 3 the environment differs (in a way that can move numbers),
//     4 the results differ.
#include "core/analysis/fingerprint.h"
#include "core/common/runtime_lock.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::tasks {

struct PinOptions {
    std::string study, ledger, output;
    long long run = 0;
    int sample = 32;
};

// What a pin wrote (the lock file itself has all of it and more).
struct PinResult {
    std::int64_t run = 0;
    std::string head;       // the head's name
    std::string configName; // the run's config
    std::string output;     // the lock file written
    std::string envHash, recordsSha256;
    std::size_t sampleItems = 0;
};

// Writes the lock to o.output; throws probaudit::Error when the run is not a finished study run
// or was recorded in another environment than this one.
PinResult pinRun(const PinOptions& o);

struct CheckOptions {
    std::string lock, study;
};

struct CheckResult {
    RuntimeLock lock; // the lock file as read
    std::vector<analysis::EnvDifference> differences;
    // What `check --json` prints: lock, run, environment_differences, sample (with --study:
    // items, changed, changed_ids), exit.
    nlohmann::json result;
    int exit = 0; // 0, protocol::kExitEnvironmentDiffers or protocol::kExitResultsDiffer
};

CheckResult checkLock(const CheckOptions& o);

// The config a lock pins, as JSON (for re-executing with its CPU capability first).
std::string lockedConfigJson(const std::string& lockPath);

} // namespace probaudit::tasks
