#pragma once
// `probaudit run STUDY [--config NAME ...] [--all] [--head NAME ...]`: runs a study's head
// variants under its configurations and records everything in the study's ledger. Tokenizes
// once per head, plans the batches of each config, writes one transaction per batch, resumes
// an unfinished run of the same head, config, capture and environment where it stopped, and
// stops after the current batch on SIGINT/SIGTERM (exit 130).
#include "events.h"

#include <atomic>
#include <string>
#include <vector>

namespace probaudit::app {

struct RunOptions {
    std::string study;
    std::string ledger;               // "" = next to the study: NAME.study.json -> NAME.ledger
    std::vector<std::string> configs; // names; empty with all = every config
    std::vector<std::string> heads;   // names; empty = every head variant
    bool all = false;
    bool again = false; // record a config that already has a finished run once more
    bool skipBadLines = false;
};

inline constexpr int kExitInterrupted = 130;

// Returns the exit code: 0 done, 130 interrupted (finished batches kept), 1 error (reported as
// an "error" event; finished batches kept). `stop` is polled between batches.
int runStudy(const RunOptions& o, Events& events, const std::atomic<bool>& stop);

std::string defaultLedgerPath(const std::string& studyPath);

} // namespace probaudit::app
