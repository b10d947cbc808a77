#pragma once
// A run of the transformers runner over items it tokenized (pyrunner/transformers_runner.h): the
// engine's batch plan for the config, one "forward" per batch, each row decided here with the
// engine's definition (engine::decide), so that its records mean what the engine's mean. Used
// by recorded runs (StudySession) and by pin/check's sample reruns. This header is torch-free.
#include "core/common/head_spec.h"
#include "core/common/run_config.h"
#include "core/ledger/ledger.h"
#include "core/pyrunner/transformers_runner.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace probaudit::runner {

// One batch's records: those of the positions not skipped, in the batch's row order, each with
// item = its position in `items`, batch, row, padded length and seconds filled in. Returns
// false to stop after this batch.
using RunnerBatchSink = std::function<bool(std::vector<ledger::Record>&& records, double seconds)>;

// Runs `items` (by position) under `config`; a batch whose positions are all in `skip` (empty:
// none) is not sent. With `trace`, returns the kernel trace of the batches sent (also when the
// sink stopped them), else an empty one. Throws probaudit::Error when the runner fails.
RunnerTrace runRunnerBatches(TransformersRunner& runner,
                             const std::vector<const RunnerItem*>& items, const HeadSpec& head,
                             const RunConfig& config, const std::string& capture,
                             const std::vector<bool>& skip, bool trace,
                             const RunnerBatchSink& sink);

} // namespace probaudit::runner
