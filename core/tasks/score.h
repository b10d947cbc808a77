#pragma once
// What `probaudit score MODEL --head H --input ITEMS.jsonl [--config JSON] [--capture L]
// [--output RECORDS.jsonl]` computes: the engine over a file of items without a study or a
// ledger (quick checks, benchmarks): accuracy, decisions and throughput, as JSON (the CLI
// formats it); with `output`, the per-item records as JSON lines.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace probaudit::tasks {

struct ScoreOptions {
    std::string model, head, input, config, capture = "none", output;
    std::size_t limit = 0;
    std::size_t warmup = 0; // batches run once, untimed, before the measured run
    std::size_t repeat = 1; // measured passes; the fastest is reported
    bool gemmTime = false;  // then one more pass, its time inside GEMMs measured
};

nlohmann::json score(const ScoreOptions& o);

} // namespace probaudit::tasks
