#pragma once
// Runtime pinning (DESIGN.md: pin / runtime lock).
//   probaudit pin STUDY --run ID -o runtime.lock.json [--ledger L] [--sample K]
//     stores the run's environment fingerprint, config, head, records digest, and the exact
//     results of a K-item sample rerun now (the run must come from this environment).
//   probaudit check runtime.lock.json [--study S] [--json]
//     compares the current environment with the pinned one, naming every difference and
//     whether it can move numbers; with --study, reruns the sample and compares bit for bit.
//     Exit codes: 0 identical, 3 the environment differs (in a way that can move numbers),
//     4 the results differ.
#include "common/protocol.h"

#include <string>

namespace probaudit::app {

using protocol::kExitEnvironmentDiffers;
using protocol::kExitResultsDiffer;

struct PinOptions {
    std::string study, ledger, output;
    long long run = 0;
    int sample = 32;
};
int pinRun(const PinOptions& o);

struct CheckOptions {
    std::string lock, study;
    bool json = false;
};
int checkLock(const CheckOptions& o);

// The config a lock pins, as JSON (for re-executing with its CPU capability first).
std::string lockedConfigJson(const std::string& lockPath);

} // namespace probaudit::app
