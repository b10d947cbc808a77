#include "core/model/gguf_llama.h"

#include "core/common/error.h"

#include <cstring>

namespace probaudit::model {

ModelSpec ggufLlamaSpec(const GgufFile& f) {
    const std::string arch = f.getString("general.architecture");
    if (arch != "llama") {
        throw Error(f.path(), "GGUF architecture \"" + arch + "\" is not supported (llama only)");
    }
    ModelSpec s;
    s.model_type = "llama";
    s.family = Family::Llama;
    s.architectures = {"LlamaForCausalLM"};
    s.hidden_size = f.getInt("llama.embedding_length");
    s.intermediate_size = f.getInt("llama.feed_forward_length");
    s.num_layers = f.getInt("llama.block_count");
    s.num_heads = f.getInt("llama.attention.head_count");
    s.num_kv_heads = f.has("llama.attention.head_count_kv")
                         ? f.getInt("llama.attention.head_count_kv")
                         : s.num_heads;
    s.max_positions = f.getInt("llama.context_length");
    s.norm_eps = f.getFloat("llama.attention.layer_norm_rms_epsilon");
    s.rope_theta = f.has("llama.rope.freq_base") ? f.getFloat("llama.rope.freq_base") : 10000.0;
    s.activation = "silu";
    for (auto v : {s.hidden_size, s.intermediate_size, s.num_layers, s.num_heads, s.num_kv_heads,
                   s.max_positions}) {
        if (v <= 0) {
            throw Error(f.path(), "llama hyper-parameters must be positive");
        }
    }
    // Each block has tensors of its own: more blocks than tensors is a corrupt count, refused
    // before a tensor list is built for it.
    if (s.num_layers > static_cast<std::int64_t>(f.header().tensors.size())) {
        throw Error(f.path(), "block_count " + std::to_string(s.num_layers) + " exceeds the " +
                                  std::to_string(f.header().tensors.size()) +
                                  " tensors in the file");
    }
    if (s.num_heads % s.num_kv_heads != 0 || s.hidden_size % s.num_heads != 0) {
        throw Error(f.path(), "head counts do not divide the hidden size");
    }
    s.head_dim = f.has("llama.attention.key_length") ? f.getInt("llama.attention.key_length")
                                                     : s.hidden_size / s.num_heads;
    if (s.head_dim <= 0 || s.head_dim % 2 != 0) {
        throw Error(f.path(), "attention.key_length must be a positive even number");
    }
    if (f.has("llama.rope.dimension_count") &&
        f.getInt("llama.rope.dimension_count") != s.head_dim) {
        throw Error(f.path(), "partial rotary embeddings (rope.dimension_count != head dim) are "
                              "not supported");
    }
    if (f.has("llama.rope.scaling.type")) {
        const std::string type = f.getString("llama.rope.scaling.type");
        if (type == "linear") {
            s.rope.type = "linear";
            s.rope.factor = f.getFloat("llama.rope.scaling.factor");
        } else if (type != "none") {
            throw Error(f.path(), "rope scaling \"" + type + "\" is not supported in GGUF files");
        }
    }
    if (f.find("rope_freqs.weight") != nullptr) {
        throw Error(f.path(), "rope_freqs (llama3 rope factors) in GGUF files are not supported");
    }
    const auto* embd = f.find("token_embd.weight");
    if (embd == nullptr || embd->shape.size() != 2 || embd->shape[1] != s.hidden_size) {
        throw Error(f.path(), "missing or misshapen tensor \"token_embd.weight\"");
    }
    s.vocab_size = embd->shape[0];
    s.tie_word_embeddings = f.find("output.weight") == nullptr;
    s.stored_dtype = "gguf";
    if (f.has("tokenizer.ggml.eos_token_id")) {
        s.eos_token_ids.push_back(f.getInt("tokenizer.ggml.eos_token_id"));
    }
    return s;
}

std::vector<GgufTensorMapping> ggufLlamaTensors(const GgufFile& f, const ModelSpec& s) {
    std::vector<GgufTensorMapping> out = {{"model.embed_tokens.weight", "token_embd.weight", 0},
                                          {"model.norm.weight", "output_norm.weight", 0}};
    if (!s.tie_word_embeddings) {
        out.push_back({"lm_head.weight", "output.weight", 0});
    }
    static const std::pair<const char*, const char*> kLayer[] = {
        {"input_layernorm.weight", "attn_norm.weight"},
        {"self_attn.q_proj.weight", "attn_q.weight"},
        {"self_attn.k_proj.weight", "attn_k.weight"},
        {"self_attn.v_proj.weight", "attn_v.weight"},
        {"self_attn.o_proj.weight", "attn_output.weight"},
        {"post_attention_layernorm.weight", "ffn_norm.weight"},
        {"mlp.gate_proj.weight", "ffn_gate.weight"},
        {"mlp.up_proj.weight", "ffn_up.weight"},
        {"mlp.down_proj.weight", "ffn_down.weight"}};
    for (std::int64_t l = 0; l < s.num_layers; ++l) {
        const std::string hf = "model.layers." + std::to_string(l) + ".";
        const std::string gg = "blk." + std::to_string(l) + ".";
        for (const auto& [h, g] : kLayer) {
            std::int64_t heads = 0;
            if (std::strcmp(g, "attn_q.weight") == 0) {
                heads = s.num_heads;
            } else if (std::strcmp(g, "attn_k.weight") == 0) {
                heads = s.num_kv_heads;
            }
            out.push_back({hf + h, gg + g, heads});
        }
    }
    for (const auto& m : out) {
        if (f.find(m.gguf_name) == nullptr) {
            throw Error(f.path(), "missing tensor \"" + m.gguf_name + "\"");
        }
    }
    return out;
}

void unpermuteHeads(std::vector<float>& w, std::int64_t rows, std::int64_t cols,
                    std::int64_t heads) {
    if (heads <= 0 || rows % (2 * heads) != 0) {
        throw Error("cannot undo the q/k permutation: " + std::to_string(rows) + " rows, " +
                    std::to_string(heads) + " heads");
    }
    const std::int64_t half = rows / heads / 2;
    std::vector<float> out(w.size());
    for (std::int64_t h = 0; h < heads; ++h) {
        for (std::int64_t d = 0; d < half; ++d) {
            for (std::int64_t two = 0; two < 2; ++two) {
                const std::int64_t src = h * 2 * half + d * 2 + two;    // [heads, half, 2]
                const std::int64_t dst = h * 2 * half + two * half + d; // [heads, 2, half]
                std::memcpy(&out[std::size_t(dst * cols)], &w[std::size_t(src * cols)],
                            std::size_t(cols) * sizeof(float));
            }
        }
    }
    w.swap(out);
}

std::vector<float> loadGgufTensor(const GgufFile& f, const GgufTensorMapping& m) {
    const GgufTensorInfo* t = f.find(m.gguf_name);
    if (t == nullptr) {
        throw Error(f.path(), "missing tensor \"" + m.gguf_name + "\"");
    }
    std::vector<float> values = f.dequantize(*t);
    if (m.unpermute_heads > 0) {
        if (t->shape.size() != 2) {
            throw Error(f.path(), "tensor \"" + m.gguf_name + "\" is not a matrix");
        }
        unpermuteHeads(values, t->shape[0], t->shape[1], m.unpermute_heads);
    }
    return values;
}

} // namespace probaudit::model
