// Hugging Face config.json -> ModelSpec. Handles both the transformers 4 spelling
// (rope_theta + rope_scaling) and the transformers 5 one (rope_parameters).
#include "core/model/model_spec.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace probaudit::model {

// eos_token_id as a number or a list of numbers (absent or null: none).
std::vector<std::int64_t> eosTokenIds(const nlohmann::json& j) {
    std::vector<std::int64_t> ids;
    const auto it = j.find("eos_token_id");
    if (it == j.end() || it->is_null()) {
        return ids;
    }
    if (it->is_number_integer()) {
        ids.push_back(it->get<std::int64_t>());
    } else if (it->is_array()) {
        for (const auto& v : *it) {
            if (v.is_number_integer()) {
                ids.push_back(v.get<std::int64_t>());
            }
        }
    }
    return ids;
}

using nlohmann::json;

namespace {

// Fields that never change the numerics of an inference forward pass.
const std::set<std::string> kInert = {"architectures",
                                      "transformers_version",
                                      "dtype",
                                      "torch_dtype",
                                      "initializer_range",
                                      "use_cache",
                                      "bos_token_id",
                                      "eos_token_id",
                                      "pad_token_id",
                                      "attention_dropout",
                                      "hidden_dropout_prob",
                                      "attention_probs_dropout_prob",
                                      "classifier_dropout",
                                      "gradient_checkpointing",
                                      "_name_or_path",
                                      "model_type",
                                      "id2label",
                                      "label2id",
                                      "num_labels",
                                      "problem_type",
                                      "tokenizer_class",
                                      "output_attentions",
                                      "output_hidden_states",
                                      "return_dict",
                                      "is_decoder",
                                      "add_cross_attention",
                                      "chunk_size_feed_forward",
                                      "tie_encoder_decoder",
                                      "max_window_layers",
                                      "pretraining_tp",
                                      "layer_types",
                                      "use_sliding_window",
                                      "sliding_window",
                                      "head_dim",
                                      "rope_theta",
                                      "rope_scaling",
                                      "rope_parameters",
                                      "qkv_bias",
                                      "mlp_bias",
                                      "attention_bias",
                                      "decoder_start_token_id",
                                      "sep_token_id",
                                      "cls_token_id",
                                      "prefix",
                                      "task_specific_params",
                                      "finetuning_task",
                                      "tie_word_embeddings",
                                      "use_bfloat16",
                                      "torchscript",
                                      "pruned_heads",
                                      "bad_words_ids",
                                      "begin_suppress_tokens",
                                      "suppress_tokens",
                                      "forced_bos_token_id",
                                      "forced_eos_token_id",
                                      "remove_invalid_values",
                                      "exponential_decay_length_penalty",
                                      "max_length",
                                      "min_length",
                                      "do_sample",
                                      "early_stopping",
                                      "num_beams",
                                      "num_beam_groups",
                                      "diversity_penalty",
                                      "temperature",
                                      "top_k",
                                      "top_p",
                                      "typical_p",
                                      "repetition_penalty",
                                      "length_penalty",
                                      "no_repeat_ngram_size",
                                      "encoder_no_repeat_ngram_size",
                                      "num_return_sequences",
                                      "output_scores",
                                      "return_dict_in_generate",
                                      "gradient_checkpointing_kwargs",
                                      "is_encoder_decoder",
                                      "cross_attention_hidden_size",
                                      "tf_legacy_loss",
                                      "use_return_dict"};

struct Reader {
    const json& j;
    const std::string& path;

    [[noreturn]] void fail(const std::string& problem) const { throw Error(path, problem); }

    std::int64_t requiredInt(const char* key) const {
        if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<std::int64_t>() <= 0) {
            fail(std::string("\"") + key + "\" must be a positive integer");
        }
        return j[key].get<std::int64_t>();
    }
    std::int64_t intOr(const char* key, std::int64_t fallback) const {
        if (!j.contains(key) || j[key].is_null()) {
            return fallback;
        }
        if (!j[key].is_number_integer()) {
            fail(std::string("\"") + key + "\" must be an integer");
        }
        return j[key].get<std::int64_t>();
    }
    double numberOr(const char* key, double fallback) const {
        if (!j.contains(key) || j[key].is_null()) {
            return fallback;
        }
        if (!j[key].is_number()) {
            fail(std::string("\"") + key + "\" must be a number");
        }
        return j[key].get<double>();
    }
    bool boolOr(const char* key, bool fallback) const {
        if (!j.contains(key) || j[key].is_null()) {
            return fallback;
        }
        if (!j[key].is_boolean()) {
            fail(std::string("\"") + key + "\" must be true or false");
        }
        return j[key].get<bool>();
    }
    std::string stringOr(const char* key, const std::string& fallback) const {
        if (!j.contains(key) || j[key].is_null()) {
            return fallback;
        }
        if (!j[key].is_string()) {
            fail(std::string("\"") + key + "\" must be a string");
        }
        return j[key].get<std::string>();
    }
};

void parseRope(const Reader& r, ModelSpec& s) {
    // transformers 5: rope_parameters {rope_type, rope_theta, factor, ...}
    // transformers 4: rope_theta + rope_scaling {type|rope_type, factor, ...} (or null)
    json params = json::object();
    if (r.j.contains("rope_parameters") && r.j["rope_parameters"].is_object()) {
        params = r.j["rope_parameters"];
    } else if (r.j.contains("rope_scaling") && r.j["rope_scaling"].is_object()) {
        params = r.j["rope_scaling"];
    } else if (r.j.contains("rope_scaling") && !r.j["rope_scaling"].is_null()) {
        r.fail("\"rope_scaling\" must be an object or null");
    }
    s.rope_theta = r.numberOr("rope_theta", 10000.0);
    if (params.contains("rope_theta")) {
        s.rope_theta = params["rope_theta"].get<double>();
    }
    std::string type = "default";
    if (params.contains("rope_type")) {
        type = params["rope_type"].get<std::string>();
    } else if (params.contains("type")) {
        type = params["type"].get<std::string>();
    }
    s.rope.type = type;
    if (type == "default") {
        return;
    }
    if (type != "linear" && type != "llama3") {
        r.fail("rope scaling type \"" + type +
               "\" is not supported (supported: default, linear, llama3)");
    }
    if (!params.contains("factor") || !params["factor"].is_number()) {
        r.fail("rope scaling \"" + type + "\" needs a numeric factor");
    }
    s.rope.factor = params["factor"].get<double>();
    if (type == "llama3") {
        for (const char* k :
             {"low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}) {
            if (!params.contains(k) || !params[k].is_number()) {
                r.fail(std::string("llama3 rope scaling needs \"") + k + "\"");
            }
        }
        s.rope.low_freq_factor = params["low_freq_factor"].get<double>();
        s.rope.high_freq_factor = params["high_freq_factor"].get<double>();
        s.rope.original_max_positions =
            params["original_max_position_embeddings"].get<std::int64_t>();
    }
}

// config.json as a JSON object (its own file: duplicate keys, last wins).
json parseConfigObject(const std::string& jsonText, const std::string& path) {
    json j;
    try {
        j = parseJson(jsonText, DuplicateKeys::LastWins); // a model's own file (DuplicateKeys)
    } catch (const JsonError& e) {
        throw Error(path, e.what());
    }
    if (!j.is_object()) {
        throw Error(path, "config is not a JSON object");
    }
    return j;
}

// The fields of every family: model type and family, sizes, token ids, dtype, activation,
// labels.
void parseCommonFields(const Reader& r, ModelSpec& s) {
    const json& j = r.j;
    s.model_type = r.stringOr("model_type", "");
    static const std::set<std::string> kLlamaFamily = {"llama", "mistral", "qwen2", "qwen3"};
    if (kLlamaFamily.count(s.model_type)) {
        s.family = Family::Llama;
    } else if (s.model_type == "bert") {
        s.family = Family::Bert;
    } else {
        r.fail("unknown model type \"" + s.model_type +
               "\" (supported: llama, mistral, qwen2, qwen3, bert)");
    }
    if (j.contains("architectures") && j["architectures"].is_array()) {
        for (const auto& a : j["architectures"]) {
            s.architectures.push_back(a.get<std::string>());
        }
    }
    s.vocab_size = r.requiredInt("vocab_size");
    s.hidden_size = r.requiredInt("hidden_size");
    s.intermediate_size = r.requiredInt("intermediate_size");
    s.num_layers = r.requiredInt("num_hidden_layers");
    s.num_heads = r.requiredInt("num_attention_heads");
    s.max_positions = r.requiredInt("max_position_embeddings");
    s.pad_token_id = r.intOr("pad_token_id", -1);
    s.eos_token_ids = eosTokenIds(j);
    s.stored_dtype = r.stringOr("dtype", r.stringOr("torch_dtype", ""));
    s.activation = r.stringOr("hidden_act", s.family == Family::Bert ? "gelu" : "silu");
    static const std::set<std::string> kActivations = {"silu", "gelu", "gelu_new",
                                                       "gelu_pytorch_tanh", "relu"};
    if (!kActivations.count(s.activation)) {
        r.fail("activation \"" + s.activation + "\" is not supported");
    }
    if (j.contains("id2label") && j["id2label"].is_object()) {
        for (const auto& [k, v] : j["id2label"].items()) {
            const bool index = !k.empty() && k.size() < 7 &&
                               k.find_first_not_of("0123456789") == std::string::npos;
            if (!index) {
                r.fail("id2label key \"" + k + "\" is not a class index");
            }
            s.id2label[std::stoll(k)] = v.get<std::string>();
        }
    }
}

// BERT: layer norm, token types, biased attention and MLP, absolute positions.
void parseBertFields(const Reader& r, ModelSpec& s) {
    s.num_kv_heads = s.num_heads;
    if (s.hidden_size % s.num_heads != 0) {
        r.fail("hidden_size is not a multiple of num_attention_heads");
    }
    s.head_dim = s.hidden_size / s.num_heads;
    s.norm_eps = r.numberOr("layer_norm_eps", 1e-12);
    s.type_vocab_size = r.intOr("type_vocab_size", 2);
    s.attention_bias = true;
    s.attention_out_bias = true;
    s.mlp_bias = true;
    const std::string pos = r.stringOr("position_embedding_type", "absolute");
    if (pos != "absolute") {
        r.fail("position_embedding_type \"" + pos + "\" is not supported (only absolute)");
    }
}

// The llama family: grouped-query heads, RMS norm, biases per model type, rope, sliding window.
void parseLlamaFields(const Reader& r, ModelSpec& s) {
    const json& j = r.j;
    s.num_kv_heads = r.intOr("num_key_value_heads", s.num_heads);
    if (s.num_kv_heads <= 0 || s.num_heads % s.num_kv_heads != 0) {
        r.fail("num_attention_heads must be a multiple of num_key_value_heads");
    }
    const std::int64_t defaultHeadDim = s.hidden_size / s.num_heads;
    s.head_dim = r.intOr("head_dim", defaultHeadDim);
    if (s.head_dim <= 0 || s.head_dim % 2 != 0) {
        r.fail("head_dim must be a positive even number");
    }
    s.norm_eps = r.numberOr("rms_norm_eps", 1e-6);
    s.tie_word_embeddings = r.boolOr("tie_word_embeddings", false);
    s.mlp_bias = r.boolOr("mlp_bias", false);
    if (s.model_type == "qwen2") {
        s.attention_bias = true; // q, k, v carry bias; o_proj does not
        s.attention_out_bias = false;
    } else {
        s.attention_bias = r.boolOr("attention_bias", false);
        s.attention_out_bias = s.attention_bias;
    }
    s.qk_norm = s.model_type == "qwen3";
    parseRope(r, s);
    if (r.intOr("pretraining_tp", 1) != 1) {
        r.fail("pretraining_tp other than 1 is not supported");
    }
    if (s.model_type == "mistral") {
        s.sliding_window = r.intOr("sliding_window", 0);
    } else if (r.boolOr("use_sliding_window", false)) {
        r.fail("use_sliding_window is not supported for " + s.model_type);
    }
    if (j.contains("layer_types") && j["layer_types"].is_array()) {
        for (const auto& t : j["layer_types"]) {
            if (t != "full_attention") {
                r.fail("layer type \"" + t.dump() + "\" is not supported (only full_attention)");
            }
        }
    }
}

// Logit soft-capping (Gemma 2) changes the numerics and is not implemented.
void refuseSoftcapping(const Reader& r) {
    const json& j = r.j;
    for (const char* softcap : {"attn_logit_softcapping", "final_logit_softcapping"}) {
        if (j.contains(softcap) && !j[softcap].is_null()) {
            r.fail(std::string("\"") + softcap + "\" is not supported");
        }
    }
}

// Fields neither used nor known to be inert, listed for the user.
void listIgnoredFields(const json& j, ModelSpec& s) {
    static const std::set<std::string> kUsed = {"vocab_size",
                                                "hidden_size",
                                                "intermediate_size",
                                                "num_hidden_layers",
                                                "num_attention_heads",
                                                "num_key_value_heads",
                                                "max_position_embeddings",
                                                "hidden_act",
                                                "rms_norm_eps",
                                                "layer_norm_eps",
                                                "type_vocab_size",
                                                "position_embedding_type",
                                                "attn_logit_softcapping",
                                                "final_logit_softcapping"};
    for (const auto& [k, v] : j.items()) {
        if (!kUsed.count(k) && !kInert.count(k)) {
            s.ignored_fields.push_back(k);
        }
    }
}

} // namespace

static ModelSpec parseHfConfigUnchecked(const std::string& jsonText, const std::string& path);

ModelSpec parseHfConfig(const std::string& jsonText, const std::string& path) {
    try {
        return parseHfConfigUnchecked(jsonText, path);
    } catch (const json::exception& e) {
        // A field of the wrong JSON type deep inside (e.g. rope parameters).
        throw Error(path, std::string("malformed config: ") + e.what());
    }
}

static ModelSpec parseHfConfigUnchecked(const std::string& jsonText, const std::string& path) {
    const json j = parseConfigObject(jsonText, path);
    const Reader r{j, path};
    ModelSpec s;
    parseCommonFields(r, s);
    if (s.family == Family::Bert) {
        parseBertFields(r, s);
    } else {
        parseLlamaFields(r, s);
    }
    refuseSoftcapping(r);
    listIgnoredFields(j, s);
    return s;
}

ModelSpec loadHfConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    return parseHfConfig(text, path);
}

} // namespace probaudit::model
