#pragma once
// Greedy generation (llama family) with a KV cache: prompts batched with left padding, one token
// per step for every unfinished row, stopping at the model's EOS ids, at stop strings or after
// max_new_tokens. Every step records the chosen token, its logit and the gap between the two
// largest logits (how near a tie the choice was).
#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::engine {

struct GenerateOptions {
    std::int64_t max_new_tokens = 32;
    // Generation ends once the decoded new text contains one of these; the text is cut before
    // it (the tokens keep the one that completed it).
    std::vector<std::string> stop;
    bool stop_at_eos = true; // the model's eos_token_ids end generation (the EOS is recorded)
};

struct GenStep {
    std::int32_t token = 0;
    float logit = 0; // the chosen token's logit (float32)
    float gap = 0;   // largest minus second-largest logit at this step (>= 0)
};

struct Generation {
    std::vector<std::int32_t> prompt_ids;
    std::vector<GenStep> steps;
    std::string text;   // the new tokens decoded (without the EOS, cut before a stop string)
    std::string finish; // eos | stop | length
};

} // namespace probaudit::engine
