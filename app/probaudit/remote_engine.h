#pragma once
// What the commands that run the engine (run, diagnose, env) share for --engine ssh://…: the
// options, and the remote side's --snapshot-to (a consistent copy of the ledger sent back
// through the same connection; runner/remote_run.h).
#include "app/probaudit/events.h"

#include "core/runner/remote_run.h"

#include <CLI/CLI.hpp>

#include <string>

namespace probaudit::app {

struct EngineArgs {
    std::string engine; // "" = here; ssh://user@host[:port]
    runner::RemoteOptions remote;
    std::string snapshotTo; // the remote side: after the command, a copy of its ledger here

    bool remoteEngine() const { return !engine.empty(); }
    // remote, its target parsed from `engine` (throws probaudit::Error for a bad address).
    runner::RemoteOptions target() const;
};

// --engine, --remote-probaudit, --ssh-config; with `ledgers` also --remote-ledger and the hidden
// --snapshot-to. `what` ends the --engine help: "run there, then ...".
void addEngineOptions(CLI::App* sub, EngineArgs& a, const std::string& what, bool ledgers);

// After a command that wrote `ledger` and exited with `exit`: with --snapshot-to, a consistent
// copy of the ledger there and {"event":"snapshot","path":...,"bytes":N}. Returns the exit code
// (an error event and 1 when the copy cannot be made).
int snapshotAfter(const EngineArgs& a, const std::string& ledger, int exit, Events& events);

} // namespace probaudit::app
