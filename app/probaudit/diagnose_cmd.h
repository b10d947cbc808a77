#pragma once
// `probaudit diagnose STUDY [--head NAME] [--sample N] [--batch N] [--seed S] [--cause-sample N]
// [--json]`: runs the diagnosis ladder (runner/diagnose.h) and prints it: the chain with one
// line of evidence per step, the field report's table (what changed | largest Δp | first layer
// that differs | flipped decisions), each study config explained with its forecast flips, and
// each differing config's cause (the layer × operator class table, its flips' cause lines).
#include "app/probaudit/remote_engine.h"

#include "core/runner/diagnose.h"

namespace probaudit::app {

// `events`: "" prints the probes one line each on stderr; "jsonl" streams the probe runs' events
// as JSON lines on stdout and ends with {"event":"done","ledger":...} (the workbench's Study →
// Diagnose). With a remote `engine` the ladder runs there and its probes and diagnosis come
// into the local ledger (runner::diagnoseRemote). Returns 0, 1 on error, 130 when stopped by a
// signal (finished probes are kept).
int diagnoseCommand(const runner::DiagnoseOptions& o, bool json, const std::string& events,
                    const EngineArgs& engine, const std::atomic<bool>& stop);

} // namespace probaudit::app
