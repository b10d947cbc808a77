#pragma once
// `probaudit score MODEL --head H --input ITEMS.jsonl [--config JSON] [--capture L]
//  [--output RECORDS.jsonl] [--json]`: the engine over a file of items without a study or a
// ledger (quick checks, benchmarks): prints accuracy, decisions and throughput.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

struct ScoreOptions {
    std::string model, head, input, config, capture = "none", output;
    std::size_t limit = 0;
    std::size_t warmup = 0; // batches run once, untimed, before the measured run
    std::size_t repeat = 1; // measured passes; the fastest is reported
    bool gemmTime = false;  // then one more pass, its time inside GEMMs measured
};

nlohmann::json score(const ScoreOptions& o);
std::string formatScore(const nlohmann::json& s);

} // namespace probaudit::app
