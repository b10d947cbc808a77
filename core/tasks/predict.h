#pragma once
// What `probaudit predict MODEL --head SPEC --text "..." [--config JSON]` computes: one input
// through the engine: class probabilities, decision, margin and the per-layer norms of its
// decision vector, as JSON (the CLI formats it).
#include "core/common/run_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::tasks {

// --config as given on the command line (empty: the defaults); one-line errors.
RunConfig configFromArg(const std::string& configJson);

nlohmann::json predict(const std::string& modelPath, const std::string& head,
                       const std::string& text, const std::string& configJson);

// ATEN_CPU_CAPABILITY is read once when libtorch starts: when a config asks for a capability
// the process was not started with, re-executes this program with it set (same arguments).
void ensureCpuCapability(const std::string& configJson, int argc, char** argv);

} // namespace probaudit::tasks
