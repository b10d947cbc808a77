#pragma once
// `probaudit generate MODEL (--prompt TEXT ... | --input ITEMS.jsonl) [--template T]
// [--max-new-tokens N] [--stop S ...] [--no-eos] [--config JSON] [--json]`: greedy generation,
// batched by the config's batch_size with left padding; per prompt the new tokens, the text,
// why it ended, and every step's logit and top-2 gap.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::app {

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
std::string formatGeneration(const nlohmann::json& g);

} // namespace probaudit::app
