#pragma once
// What `probaudit generate MODEL (--prompt TEXT ... | --input ITEMS.jsonl) [--template T]
// [--max-new-tokens N] [--stop S ...] [--no-eos] [--config JSON]` computes: greedy generation,
// batched by the config's batch_size with left padding; per prompt the new tokens, the text,
// why it ended, and every step's logit and top-2 gap, as JSON (the CLI formats it).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::tasks {

struct GenerateArgs {
    std::string model;
    std::vector<std::string> prompts;
    std::string input; // JSONL of {"id", "text"}; the template wraps each text
    std::string templateText = "{text}";
    long maxNewTokens = 32;
    std::vector<std::string> stop;
    bool noEos = false;
    std::string config;
};

nlohmann::json generate(const GenerateArgs& args);

// `probaudit generation-probe MODEL --input ITEMS.jsonl --template T --records SPEC
// [--concurrency C] [--arrival-seeds A,B] [...generate options]`: the second field report's
// table, produced automatically. Four serving-simulation runs (concurrency 1 and C, each with
// arrival seeds A and B) compared pairwise: concurrency 1 run twice (must be byte-identical),
// concurrency C run twice (run-to-run: only the arrival order differs), concurrency 1 vs C;
// records, byte-identical share, pooled record Jaccard, answer agreement, and the gaps at
// divergence points against the gaps at every step.
struct ProbeArgs {
    GenerateArgs gen;
    std::string records = R"({"mode":"lines"})"; // a RecordSpec (core/analysis/records.h)
    long concurrency = 4;
    std::vector<std::uint64_t> seeds{1, 2};
};

nlohmann::json generationProbe(const ProbeArgs& args);

} // namespace probaudit::tasks
