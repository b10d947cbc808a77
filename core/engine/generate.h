#pragma once
// Greedy generation (llama family) with a KV cache: prompts batched with left padding, one token
// per step for every unfinished row, stopping at the model's EOS ids, at stop strings or after
// max_new_tokens. Every step records the chosen token, its logit and the gap between the two
// largest logits (how near a tie the choice was).
//
// Serving simulation (Engine::serve): a continuous-batching scheduler like those of serving
// engines. Requests arrive in a seeded order (RunConfig arrival_seed) and wait in a queue; at
// most C = RunConfig concurrency sequences are resident. Whenever slots are free the next
// requests join: they are prefilled together (left padded) and their KV caches are merged into
// the running batch (left padded to a common length); then every resident sequence decodes one
// token; finished sequences leave and the cache is compacted. The batch a request shares, and
// its padding, is thus a hidden input, as in production. Concurrency 1 is the serial reference:
// every request alone, exactly as generate() at batch size 1.
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
    int top_logprobs = 0;    // per step, the K most likely tokens' log-probabilities (0: none)
    // false: the KV cache grows by concatenation, copying all of itself every step (KvCache::
    // grow_in_place; the reference its in-place growth is tested against).
    bool cache_in_place = true;
};

struct GenStep {
    std::int32_t token = 0;
    float logit = 0;        // the chosen token's logit (float32)
    float gap = 0;          // largest minus second-largest logit at this step (>= 0)
    std::int32_t batch = 0; // rows in the forward pass that produced it (the hidden input)
    // The K most likely tokens, most likely first, with their log-probabilities (log-softmax
    // of the float32 logits); empty unless GenerateOptions::top_logprobs.
    std::vector<std::int32_t> top_tokens;
    std::vector<float> top_logprobs;
};

struct Generation {
    std::vector<std::int32_t> prompt_ids;
    std::vector<GenStep> steps;
    std::string text;         // the new tokens decoded (without the EOS, cut before a stop string)
    std::string finish;       // eos | stop | length
    std::int64_t arrival = 0; // position in the arrival order (serving simulation; else the index)
};

// What the serving simulation did, and where its time went: model_seconds is the forward
// passes and LM-head products, record_seconds the per-step token choice and decoding (both
// paid by any generation); the rest of total_seconds is the scheduler's own work (admission,
// batch building, merging and compacting the KV cache). The clock starts after the model is
// loaded for the config and the prompts are encoded.
struct ServeStats {
    double total_seconds = 0;
    double model_seconds = 0;
    double record_seconds = 0;
    std::int64_t prefills = 0;     // prefill passes (a group of requests joining)
    std::int64_t decode_steps = 0; // decode passes
    std::int64_t max_resident = 0; // most co-resident sequences seen
    double overheadShare() const {
        return total_seconds > 0 ? (total_seconds - model_seconds - record_seconds) / total_seconds
                                 : 0.0;
    }
};

} // namespace probaudit::engine
