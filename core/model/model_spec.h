#pragma once
// Model hyper-parameters, as the checkpoint defines them (never mixed with run settings,
// which live in RunConfig). Filled from a Hugging Face config.json or from GGUF metadata.
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace probaudit::model {

enum class Family { Llama, Bert };

struct RopeScaling {
    std::string type = "default"; // default | linear | llama3
    double factor = 1.0;
    double low_freq_factor = 1.0;            // llama3
    double high_freq_factor = 4.0;           // llama3
    std::int64_t original_max_positions = 0; // llama3
};

struct ModelSpec {
    std::string model_type; // llama, mistral, qwen2, qwen3, bert
    Family family = Family::Llama;
    std::vector<std::string> architectures;
    std::int64_t vocab_size = 0;
    std::int64_t hidden_size = 0;
    std::int64_t intermediate_size = 0;
    std::int64_t num_layers = 0;
    std::int64_t num_heads = 0;
    std::int64_t num_kv_heads = 0;
    std::int64_t head_dim = 0;
    std::int64_t max_positions = 0;
    double norm_eps = 0.0;  // rms_norm_eps (llama family) or layer_norm_eps (bert)
    std::string activation; // silu | gelu | gelu_new | gelu_pytorch_tanh | relu
    bool tie_word_embeddings = false;
    bool attention_bias = false;     // q/k/v (and o for llama/mistral) projections carry bias
    bool attention_out_bias = false; // o_proj bias (qwen2 has q/k/v bias only)
    bool mlp_bias = false;
    bool qk_norm = false; // qwen3: RMSNorm on q and k per head
    double rope_theta = 10000.0;
    RopeScaling rope;
    std::int64_t sliding_window = 0;  // mistral; 0 = none
    std::int64_t type_vocab_size = 0; // bert
    std::int64_t pad_token_id = -1;
    // Token ids that end greedy generation: config.json's eos_token_id (a number or a list),
    // overridden by generation_config.json's when the folder has one; GGUF:
    // tokenizer.ggml.eos_token_id. Empty: generation stops only at stop strings and length.
    std::vector<std::int64_t> eos_token_ids;
    std::string stored_dtype;                     // config "dtype"/"torch_dtype", informational
    std::map<std::int64_t, std::string> id2label; // classifier heads
    std::vector<std::string> ignored_fields;      // unknown fields, reported by `inspect`
};

// Parses a Hugging Face config.json. Refuses (probaudit::Error naming the file) unknown model
// types and fields whose value would change the computation in a way the engine does not
// implement; unknown fields are listed in ignored_fields.
ModelSpec parseHfConfig(const std::string& jsonText, const std::string& path);
// eos_token_id of a config.json or generation_config.json object (a number or a list).
std::vector<std::int64_t> eosTokenIds(const nlohmann::json& j);
ModelSpec loadHfConfig(const std::string& path);

} // namespace probaudit::model
