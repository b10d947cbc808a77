// Llama-family and BERT forward passes. Each operation mirrors the reference implementation's
// (transformers, eager attention) sequence of ATen calls, including where it computes in
// float32 (RMSNorm, RoPE tables, llama's softmax), so that float32 results agree with it to
// rounding and the same configuration always runs the same kernels.
#include "core/engine/transformer.h"

#include "core/common/error.h"
#include "core/engine/invariant_ops.h"
#include "core/engine/weights.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

#include <cmath>
#include <limits>

namespace probaudit::engine {

namespace {

using model::Family;
using model::ModelSpec;
namespace bi = invariant;

class Weights {
public:
    explicit Weights(LoadedWeights w) : m_w(std::move(w)) {}
    const at::Tensor& get(const std::string& name) const {
        const auto it = m_w.tensors.find(name);
        if (it == m_w.tensors.end()) {
            throw Error("checkpoint has no tensor \"" + name + "\"");
        }
        return it->second;
    }
    at::Tensor optional(const std::string& name) const {
        const auto it = m_w.tensors.find(name);
        return it == m_w.tensors.end() ? at::Tensor() : it->second;
    }
    bool has(const std::string& name) const { return m_w.tensors.count(name) != 0; }
    // Moves a tensor out (a layer's linear weight, which the layer then owns alone, so that
    // a change of its layout frees the old one).
    at::Tensor take(const std::string& name) {
        at::Tensor t = get(name);
        m_w.tensors.erase(name);
        return t;
    }
    at::ScalarType dtype() const { return m_w.dtype; }

private:
    LoadedWeights m_w;
};

// The dtype's lowest finite value (torch.finfo(dtype).min), which the reference's masks hold.
double lowestOf(at::ScalarType dtype) {
    switch (dtype) {
    case at::kDouble:
        return std::numeric_limits<double>::lowest();
    case at::kFloat:
        return double(std::numeric_limits<float>::lowest());
    case at::kHalf:
        return -65504.0;
    default:
        return -3.3895313892515355e38; // bfloat16
    }
}

// Additive attention mask [B, 1, L, L]: 0 where a query may attend a key (the key is a real
// token, and for causal models not in the future), the dtype's lowest value elsewhere.
at::Tensor additiveMask(const Batch& b, bool causal, at::ScalarType dtype, bool asBool) {
    const auto L = b.input_ids.size(1);
    const auto dev = b.input_ids.device();
    at::Tensor allowed = b.attention_mask.to(at::kBool).unsqueeze(1).unsqueeze(1); // [B,1,1,L]
    if (causal) {
        const at::Tensor tri =
            at::ones({L, L}, at::TensorOptions().dtype(at::kBool).device(dev)).tril();
        allowed = allowed.logical_and(tri.unsqueeze(0).unsqueeze(0)); // [B,1,L,L]
    } else {
        allowed = allowed.expand({b.rows(), 1, L, L});
    }
    if (asBool) {
        return allowed.contiguous();
    }
    const double lowest = lowestOf(dtype);
    return at::zeros(allowed.sizes(), at::TensorOptions().dtype(dtype).device(dev))
        .masked_fill(allowed.logical_not(), lowest);
}

// The same for new positions after `past` cached ones: mask [B, past + L] -> [B, 1, L, past + L],
// query i may see key j <= past + i.
at::Tensor cachedMask(const at::Tensor& attentionMask, std::int64_t L, std::int64_t past,
                      at::ScalarType dtype, bool asBool) {
    const auto Lk = attentionMask.size(1);
    const auto dev = attentionMask.device();
    const at::Tensor tri =
        at::ones({L, Lk}, at::TensorOptions().dtype(at::kBool).device(dev)).tril(past);
    const at::Tensor allowed = attentionMask.to(at::kBool).unsqueeze(1).unsqueeze(1).logical_and(
        tri.unsqueeze(0).unsqueeze(0));
    if (asBool) {
        return allowed.contiguous();
    }
    const double lowest = lowestOf(dtype);
    return at::zeros(allowed.sizes(), at::TensorOptions().dtype(dtype).device(dev))
        .masked_fill(allowed.logical_not(), lowest);
}

// Reports a hidden state (onHidden) and returns the one the pass goes on with (splice, when it
// gives one). Without either callback it does nothing.
at::Tensor reportHidden(const ForwardOptions& opt, int index, const at::Tensor& h) {
    if (opt.onHidden) {
        opt.onHidden(index, h);
    }
    if (opt.splice) {
        at::Tensor other = opt.splice(index, h);
        if (other.defined()) {
            return other;
        }
    }
    return h;
}

at::Tensor dense(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {}) {
    return at::linear(x, w, b.defined() ? c10::optional<at::Tensor>(b) : c10::nullopt);
}

// A layer's linear projection: oneDNN's GEMM on the packed weight under gemm onednn (the layout
// TransformerModel::useLayoutFor put it in), ATen's otherwise.
at::Tensor project(const Batch& batch, const at::Tensor& x, const at::Tensor& w,
                   const at::Tensor& b = {}) {
    return batch.onednn_gemm ? packedLinear(x, w, b) : dense(x, w, b);
}

// ---- llama family ----------------------------------------------------------------------------

// The reference's sequence (float32 variance, rsqrt, weight * normed; float64 in float64 runs,
// where transformers stays in float32, atLeastFloat32); the intermediate
// tensors are the norm's own, so the add, the rsqrt and the weight's product run in place: the
// same kernels on the same operands (the product commutes), fewer allocations.
at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& weight, double eps) {
    const at::Tensor h = x.to(atLeastFloat32(x.scalar_type()));
    const at::Tensor inv = h.pow(2).mean(-1, true).add_(eps).rsqrt_();
    at::Tensor normed = (h * inv).to(x.scalar_type());
    if (weight.scalar_type() != normed.scalar_type()) {
        return weight * normed; // type promotion: the result takes the wider type
    }
    return normed.mul_(weight);
}

// cat(-x2, x1) written into one tensor: the negation and the copy are exact.
at::Tensor rotateHalf(const at::Tensor& x) {
    const auto half = x.size(-1) / 2;
    at::Tensor out = at::empty(x.sizes(), x.options());
    at::Tensor low = out.slice(-1, 0, half);
    at::neg_out(low, x.slice(-1, half));
    out.slice(-1, half).copy_(x.slice(-1, 0, half));
    return out;
}

// q * cos + rotate_half(q) * sin, as the reference computes it; both products are fresh.
at::Tensor applyRope(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin) {
    const at::Tensor rotated = rotateHalf(x).mul_(sin);
    return (x * cos).add_(rotated);
}

// inv_freq as transformers computes it (rope_init_fn), float32 [head_dim / 2]; float64 for a
// float64 run (`type`, atLeastFloat32).
at::Tensor ropeInvFreq(const ModelSpec& s, at::ScalarType type) {
    const auto dim = s.head_dim;
    const at::Tensor exponent = at::arange(0, dim, 2, at::kLong).to(type) / double(dim);
    at::Tensor inv = at::reciprocal(at::pow(at::Scalar(s.rope_theta), exponent)) * 1.0;
    if (s.rope.type == "linear") {
        inv = inv / s.rope.factor;
    } else if (s.rope.type == "llama3") {
        const double factor = s.rope.factor;
        const double low = s.rope.low_freq_factor;
        const double high = s.rope.high_freq_factor;
        const double oldLen = double(s.rope.original_max_positions);
        const double lowWavelen = oldLen / low;
        const double highWavelen = oldLen / high;
        const at::Tensor wavelen = at::reciprocal(inv) * (2 * M_PI);
        at::Tensor llama = at::where(wavelen > lowWavelen, inv / factor, inv);
        const at::Tensor smooth = (at::reciprocal(wavelen) * oldLen - low) / (high - low);
        const at::Tensor smoothed = at::rsub(smooth, 1) * llama / factor + smooth * llama;
        const at::Tensor medium =
            (wavelen < highWavelen).logical_not() * (wavelen > lowWavelen).logical_not();
        llama = at::where(medium, smoothed, llama);
        inv = llama;
    }
    return inv;
}

class Llama final : public TransformerModel {
public:
    Llama(const ModelSpec& spec, LoadedWeights w)
        : TransformerModel(spec, w.dtype), m_w(std::move(w)) {
        m_embed = m_w.get("model.embed_tokens.weight");
        m_invFreq = ropeInvFreq(spec, atLeastFloat32(w.dtype)).to(m_embed.device());
        m_lmHead = m_w.has("lm_head.weight") ? m_w.get("lm_head.weight") : at::Tensor();
        if (!m_lmHead.defined() && spec.tie_word_embeddings) {
            m_lmHead = m_embed;
        }
        for (std::int64_t l = 0; l < spec.num_layers; ++l) {
            const std::string p = "model.layers." + std::to_string(l) + ".";
            Layer L;
            L.in_norm = m_w.get(p + "input_layernorm.weight");
            L.post_norm = m_w.get(p + "post_attention_layernorm.weight");
            L.q = m_w.take(p + "self_attn.q_proj.weight");
            L.k = m_w.take(p + "self_attn.k_proj.weight");
            L.v = m_w.take(p + "self_attn.v_proj.weight");
            L.o = m_w.take(p + "self_attn.o_proj.weight");
            if (spec.attention_bias) {
                L.qb = m_w.get(p + "self_attn.q_proj.bias");
                L.kb = m_w.get(p + "self_attn.k_proj.bias");
                L.vb = m_w.get(p + "self_attn.v_proj.bias");
            }
            if (spec.attention_out_bias) {
                L.ob = m_w.get(p + "self_attn.o_proj.bias");
            }
            if (spec.qk_norm) {
                L.q_norm = m_w.get(p + "self_attn.q_norm.weight");
                L.k_norm = m_w.get(p + "self_attn.k_norm.weight");
            }
            L.gate = m_w.take(p + "mlp.gate_proj.weight");
            L.up = m_w.take(p + "mlp.up_proj.weight");
            L.down = m_w.take(p + "mlp.down_proj.weight");
            if (spec.mlp_bias) {
                L.gate_b = m_w.get(p + "mlp.gate_proj.bias");
                L.up_b = m_w.get(p + "mlp.up_proj.bias");
                L.down_b = m_w.get(p + "mlp.down_proj.bias");
            }
            m_layers.push_back(std::move(L));
        }
        m_norm = m_w.get("model.norm.weight");
        for (Layer& L : m_layers) {
            for (at::Tensor* t : {&L.q, &L.k, &L.v, &L.o, &L.gate, &L.up, &L.down}) {
                addLinearWeight(*t);
            }
        }
    }

    bool hasLmHead() const override { return m_lmHead.defined(); }
    at::Tensor weight(const std::string& name) const override { return m_w.optional(name); }
    at::Tensor lmLogits(const at::Tensor& rows, bool invariantKernels) const override {
        if (!m_lmHead.defined()) {
            throw Error("this checkpoint has no language-model head");
        }
        return invariantKernels ? invariant::linear(rows, m_lmHead, at::Tensor(), &packCache())
                                : dense(rows, m_lmHead);
    }
    at::Tensor lmLogitsOf(const at::Tensor& rows, const at::Tensor& ids,
                          bool invariantKernels) const override {
        if (!invariantKernels || !m_lmHead.defined()) {
            return lmLogits(rows, invariantKernels).index_select(1, ids);
        }
        // A fresh tensor each call: not for the pack cache, which knows weights by address.
        return invariant::linear(rows, m_lmHead.index_select(0, ids), at::Tensor(), nullptr);
    }

    ForwardResult forward(const Batch& b, const ForwardOptions& opt) const override {
        useLayoutFor(b);
        const auto& s = m_spec;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        if (s.sliding_window > 0 && L > s.sliding_window) {
            // Sliding-window attention is not implemented: refuse rather than compute another
            // thing.
            throw Error("a batch of " + std::to_string(L) +
                        " positions exceeds the model's sliding window (" +
                        std::to_string(s.sliding_window) + ")");
        }
        if (b.invariant) {
            return forwardInvariant(b, opt);
        }
        const std::int64_t past = opt.cache != nullptr ? opt.cache->length() : 0;
        at::Tensor h = at::embedding(m_embed, b.input_ids);
        // RoPE tables for these positions (float32, or float64, then the compute dtype).
        const at::Tensor invExp = m_invFreq.unsqueeze(0).unsqueeze(-1).expand({B, -1, 1});
        const at::Tensor posExp = b.position_ids.unsqueeze(1).to(m_invFreq.scalar_type());
        const at::Tensor freqs = at::matmul(invExp, posExp).transpose(1, 2);
        const at::Tensor emb = at::cat({freqs, freqs}, -1);
        const at::Tensor cos = (emb.cos() * 1.0).to(m_dtype).unsqueeze(1);
        const at::Tensor sin = (emb.sin() * 1.0).to(m_dtype).unsqueeze(1);
        const bool sdpa = opt.attention == Attention::Sdpa;
        // SDPA without padding takes the reference's maskless causal path (is_causal).
        const bool maskless = sdpa && b.unpadded() && opt.cache == nullptr;
        const at::Tensor mask = maskless ? at::Tensor()
                                : opt.cache != nullptr
                                    ? cachedMask(b.attention_mask, L, past, m_dtype, sdpa)
                                    : additiveMask(b, true, m_dtype, sdpa);
        const double scaling = std::pow(double(s.head_dim), -0.5);
        const auto rep = s.num_heads / s.num_kv_heads;

        h = reportHidden(opt, 0, h);
        for (std::size_t l = 0; l < m_layers.size(); ++l) {
            const Layer& w = m_layers[l];
            at::Tensor residual = h;
            at::Tensor x = rmsNorm(h, w.in_norm, s.norm_eps);
            at::Tensor q = project(b, x, w.q, w.qb).view({B, L, -1, s.head_dim});
            at::Tensor k = project(b, x, w.k, w.kb).view({B, L, -1, s.head_dim});
            at::Tensor v = project(b, x, w.v, w.vb).view({B, L, -1, s.head_dim}).transpose(1, 2);
            if (s.qk_norm) {
                q = rmsNorm(q, w.q_norm, s.norm_eps);
                k = rmsNorm(k, w.k_norm, s.norm_eps);
            }
            q = q.transpose(1, 2);
            k = k.transpose(1, 2);
            q = applyRope(q, cos, sin);
            k = applyRope(k, cos, sin);
            if (opt.cache != nullptr) {
                opt.cache->append(l, k, v, 2);
            }
            const auto Lk = k.size(2);
            at::Tensor attn;
            if (b.invariant_attention) {
                const auto flat = [&](const at::Tensor& t) {
                    return t.transpose(1, 2).contiguous().reshape({B, t.size(2), -1});
                };
                attn = invariant::attention(flat(q), flat(k), flat(v), b, s.num_heads,
                                            s.num_kv_heads, s.head_dim, true, scaling)
                           .view({B, L, s.num_heads, s.head_dim})
                           .transpose(1, 2);
            } else if (maskless) {
                // As the reference: grouped heads go to SDPA as they are (enable_gqa).
                attn = at::scaled_dot_product_attention(q, k, v, c10::nullopt, 0.0, L > 1, scaling,
                                                        rep > 1);
            } else {
                if (rep > 1) {
                    k = k.unsqueeze(2)
                            .expand({B, s.num_kv_heads, rep, Lk, s.head_dim})
                            .reshape({B, s.num_heads, Lk, s.head_dim});
                    v = v.unsqueeze(2)
                            .expand({B, s.num_kv_heads, rep, Lk, s.head_dim})
                            .reshape({B, s.num_heads, Lk, s.head_dim});
                }
                if (sdpa) {
                    attn = at::scaled_dot_product_attention(q, k, v, mask, 0.0, false, scaling);
                } else {
                    at::Tensor scores = at::matmul(q, k.transpose(2, 3)) * scaling;
                    scores = scores + mask;
                    scores = at::softmax(scores, -1, atLeastFloat32(q.scalar_type()))
                                 .to(q.scalar_type());
                    attn = at::matmul(scores, v);
                }
            }
            attn = attn.transpose(1, 2).contiguous().reshape({B, L, -1});
            // Fresh GEMM outputs take the sums and the product in place (no allocation).
            h = project(b, attn, w.o, w.ob).add_(residual);
            residual = h;
            x = rmsNorm(h, w.post_norm, s.norm_eps);
            at::Tensor gate = project(b, x, w.gate, w.gate_b);
            x = project(b, at::silu_(gate).mul_(project(b, x, w.up, w.up_b)), w.down, w.down_b);
            h = x.add_(residual);
            if (l + 1 < m_layers.size()) {
                h = reportHidden(opt, static_cast<int>(l + 1), h);
            }
        }
        h = rmsNorm(h, m_norm, s.norm_eps);
        h = reportHidden(opt, static_cast<int>(m_layers.size()), h);
        return ForwardResult{h, at::Tensor()};
    }

private:
    // Every op through kernels/invariant.h (embedding lookup and residual adds are exact).
    ForwardResult forwardInvariant(const Batch& b, const ForwardOptions& opt) const {
        namespace bi = invariant;
        const auto& s = m_spec;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        const double scaling = std::pow(double(s.head_dim), -0.5);
        bi::PackCache* cache = &packCache();
        at::Tensor h = at::embedding(m_embed, b.input_ids);
        h = reportHidden(opt, 0, h);
        for (std::size_t l = 0; l < m_layers.size(); ++l) {
            const Layer& w = m_layers[l];
            const at::Tensor x = bi::rmsNorm(h, w.in_norm, s.norm_eps);
            at::Tensor q = bi::linear(x, w.q, w.qb, cache).view({B, L, -1, s.head_dim});
            at::Tensor k = bi::linear(x, w.k, w.kb, cache).view({B, L, -1, s.head_dim});
            const at::Tensor v = bi::linear(x, w.v, w.vb, cache);
            if (s.qk_norm) {
                q = bi::rmsNorm(q, w.q_norm, s.norm_eps);
                k = bi::rmsNorm(k, w.k_norm, s.norm_eps);
            }
            q = bi::rope(q, b, m_invFreq).view({B, L, -1});
            k = bi::rope(k, b, m_invFreq).view({B, L, -1});
            at::Tensor keys = k, values = v;
            if (opt.cache != nullptr) {
                // Cached in the layout the invariant attention reads: [B, T, kv_heads * D].
                opt.cache->append(l, keys, values, 1);
            }
            const at::Tensor attn = bi::attention(q, keys, values, b, s.num_heads, s.num_kv_heads,
                                                  s.head_dim, true, scaling);
            h = h + bi::linear(attn, w.o, w.ob, cache);
            const at::Tensor y = bi::rmsNorm(h, w.post_norm, s.norm_eps);
            const at::Tensor act = bi::siluMul(bi::linear(y, w.gate, w.gate_b, cache),
                                               bi::linear(y, w.up, w.up_b, cache));
            h = h + bi::linear(act, w.down, w.down_b, cache);
            if (l + 1 < m_layers.size()) {
                h = reportHidden(opt, static_cast<int>(l + 1), h);
            }
        }
        h = bi::rmsNorm(h, m_norm, s.norm_eps);
        h = reportHidden(opt, static_cast<int>(m_layers.size()), h);
        return ForwardResult{h, at::Tensor()};
    }

    struct Layer {
        at::Tensor in_norm, post_norm, q, k, v, o, qb, kb, vb, ob, q_norm, k_norm;
        at::Tensor gate, up, down, gate_b, up_b, down_b;
    };
    Weights m_w;
    at::Tensor m_invFreq, m_embed, m_lmHead, m_norm;
    std::vector<Layer> m_layers;
};

// ---- BERT ----------------------------------------------------------------------------------

at::Tensor activation(const std::string& name, const at::Tensor& x) {
    if (name == "gelu") {
        return at::gelu(x);
    }
    if (name == "gelu_pytorch_tanh") {
        return at::gelu(x, "tanh");
    }
    if (name == "gelu_new") { // NewGELUActivation, written out as the reference does
        return 0.5 * x * (1.0 + at::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * at::pow(x, 3.0))));
    }
    if (name == "relu") {
        return at::relu(x);
    }
    if (name == "silu") {
        return at::silu(x);
    }
    throw Error("activation \"" + name + "\" is not supported");
}

class Bert final : public TransformerModel {
public:
    Bert(const ModelSpec& spec, LoadedWeights w)
        : TransformerModel(spec, w.dtype), m_w(std::move(w)) {
        m_prefix = m_w.has("bert.embeddings.word_embeddings.weight") ? "bert." : "";
        const std::string e = m_prefix + "embeddings.";
        m_word = m_w.get(e + "word_embeddings.weight");
        m_pos = m_w.get(e + "position_embeddings.weight");
        m_type = m_w.get(e + "token_type_embeddings.weight");
        m_embNormW = m_w.get(e + "LayerNorm.weight");
        m_embNormB = m_w.get(e + "LayerNorm.bias");
        for (std::int64_t l = 0; l < spec.num_layers; ++l) {
            const std::string p = m_prefix + "encoder.layer." + std::to_string(l) + ".";
            Layer L;
            const std::pair<at::Tensor*, const char*> parts[] = {
                {L.q, "attention.self.query"},   {L.k, "attention.self.key"},
                {L.v, "attention.self.value"},   {L.ao, "attention.output.dense"},
                {L.inter, "intermediate.dense"}, {L.out, "output.dense"}};
            for (const auto& [dst, name] : parts) {
                dst[0] = m_w.take(p + name + ".weight");
                dst[1] = m_w.get(p + name + ".bias");
            }
            L.aln[0] = m_w.get(p + "attention.output.LayerNorm.weight");
            L.aln[1] = m_w.get(p + "attention.output.LayerNorm.bias");
            L.oln[0] = m_w.get(p + "output.LayerNorm.weight");
            L.oln[1] = m_w.get(p + "output.LayerNorm.bias");
            m_layers.push_back(std::move(L));
        }
        for (Layer& L : m_layers) {
            for (at::Tensor* t : {L.q, L.k, L.v, L.ao, L.inter, L.out}) {
                addLinearWeight(t[0]);
            }
        }
        m_poolW = m_w.optional(m_prefix + "pooler.dense.weight");
        m_poolB = m_w.optional(m_prefix + "pooler.dense.bias");
    }

    bool hasLmHead() const override { return false; }
    at::Tensor weight(const std::string& name) const override {
        at::Tensor t = m_w.optional(name);
        return t.defined() ? t : m_w.optional(m_prefix + name);
    }
    at::Tensor lmLogits(const at::Tensor&, bool) const override {
        throw Error("BERT models have no language-model head here");
    }
    at::Tensor lmLogitsOf(const at::Tensor&, const at::Tensor&, bool) const override {
        throw Error("BERT models have no language-model head here");
    }

    ForwardResult forward(const Batch& b, const ForwardOptions& opt) const override {
        useLayoutFor(b);
        const auto& s = m_spec;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        const std::vector<std::int64_t> normShape{s.hidden_size};
        at::Tensor h = at::embedding(m_word, b.input_ids);
        h = h + at::embedding(m_type, at::zeros_like(b.input_ids));
        h = h + at::embedding(m_pos, b.position_ids);
        if (b.invariant) {
            return forwardInvariant(b, opt, bi::layerNorm(h, m_embNormW, m_embNormB, s.norm_eps));
        }
        h = at::layer_norm(h, normShape, m_embNormW, m_embNormB, s.norm_eps);
        const bool sdpa = opt.attention == Attention::Sdpa;
        const bool maskless = sdpa && b.unpadded();
        const at::Tensor mask = maskless ? at::Tensor() : additiveMask(b, false, m_dtype, sdpa);
        const double scaling = std::pow(double(s.head_dim), -0.5);
        h = reportHidden(opt, 0, h);
        for (std::size_t l = 0; l < m_layers.size(); ++l) {
            const Layer& w = m_layers[l];
            const at::Tensor q =
                project(b, h, w.q[0], w.q[1]).view({B, L, -1, s.head_dim}).transpose(1, 2);
            const at::Tensor k =
                project(b, h, w.k[0], w.k[1]).view({B, L, -1, s.head_dim}).transpose(1, 2);
            const at::Tensor v =
                project(b, h, w.v[0], w.v[1]).view({B, L, -1, s.head_dim}).transpose(1, 2);
            at::Tensor attn;
            if (b.invariant_attention) {
                const auto flat = [&](const at::Tensor& t) {
                    return t.transpose(1, 2).contiguous().reshape({B, t.size(2), -1});
                };
                attn = bi::attention(flat(q), flat(k), flat(v), b, s.num_heads, s.num_heads,
                                     s.head_dim, false, scaling)
                           .view({B, L, s.num_heads, s.head_dim})
                           .transpose(1, 2);
            } else if (sdpa) {
                attn = at::scaled_dot_product_attention(
                    q, k, v, maskless ? c10::optional<at::Tensor>() : mask, 0.0, false, scaling);
            } else {
                at::Tensor scores = at::matmul(q, k.transpose(2, 3)) * scaling;
                scores = scores + mask;
                attn = at::matmul(at::softmax(scores, -1), v);
            }
            attn = attn.transpose(1, 2).contiguous().reshape({B, L, -1}).contiguous();
            const at::Tensor a = at::layer_norm(project(b, attn, w.ao[0], w.ao[1]) + h, normShape,
                                                w.aln[0], w.aln[1], s.norm_eps);
            const at::Tensor inter =
                activation(s.activation, project(b, a, w.inter[0], w.inter[1]));
            h = at::layer_norm(project(b, inter, w.out[0], w.out[1]) + a, normShape, w.oln[0],
                               w.oln[1], s.norm_eps);
            h = reportHidden(opt, static_cast<int>(l + 1), h);
        }
        at::Tensor pooler;
        if (m_poolW.defined()) {
            // As the reference: position 0, even where left padding put a pad there.
            pooler = at::tanh(dense(h.select(1, 0), m_poolW, m_poolB));
        }
        return ForwardResult{h, pooler};
    }

private:
    // The hidden state of each row's first real token [B, H] (the [CLS] token, wherever
    // padding put it): the batch-invariant pooler reads it, where the reference reads position 0.
    static at::Tensor firstTokens(const Batch& b, const at::Tensor& h) {
        const at::Tensor idx = at::tensor(b.start, at::kLong).to(h.device());
        return h.index({at::arange(b.rows(), idx.options()), idx});
    }

    // Every op through kernels/invariant.h, from the embeddings' sum (exact) on.
    ForwardResult forwardInvariant(const Batch& b, const ForwardOptions& opt, at::Tensor h) const {
        const auto& s = m_spec;
        const double scaling = std::pow(double(s.head_dim), -0.5);
        bi::PackCache* cache = &packCache();
        const kernels::Activation act = bi::activationByName(s.activation);
        h = reportHidden(opt, 0, h);
        for (std::size_t l = 0; l < m_layers.size(); ++l) {
            const Layer& w = m_layers[l];
            const at::Tensor q = bi::linear(h, w.q[0], w.q[1], cache);
            const at::Tensor k = bi::linear(h, w.k[0], w.k[1], cache);
            const at::Tensor v = bi::linear(h, w.v[0], w.v[1], cache);
            const at::Tensor attn =
                bi::attention(q, k, v, b, s.num_heads, s.num_heads, s.head_dim, false, scaling);
            const at::Tensor a = bi::layerNorm(bi::linear(attn, w.ao[0], w.ao[1], cache) + h,
                                               w.aln[0], w.aln[1], s.norm_eps);
            const at::Tensor inter =
                bi::activation(act, bi::linear(a, w.inter[0], w.inter[1], cache));
            h = bi::layerNorm(bi::linear(inter, w.out[0], w.out[1], cache) + a, w.oln[0], w.oln[1],
                              s.norm_eps);
            h = reportHidden(opt, static_cast<int>(l + 1), h);
        }
        at::Tensor pooler;
        if (m_poolW.defined()) {
            pooler = bi::activation(kernels::Activation::Tanh,
                                    bi::linear(firstTokens(b, h), m_poolW, m_poolB, cache));
        }
        return ForwardResult{h, pooler};
    }

    struct Layer {
        at::Tensor q[2], k[2], v[2], ao[2], inter[2], out[2], aln[2], oln[2];
    };
    Weights m_w;
    std::string m_prefix;
    at::Tensor m_word, m_pos, m_type, m_embNormW, m_embNormB, m_poolW, m_poolB;
    std::vector<Layer> m_layers;
};

} // namespace

namespace {

// `fresh` after `cached` along `dim`, written into `store` when `cached` is the start of it and
// the store has room; otherwise into a new store with room for `room` more positions.
// Returns the view of all of them.
at::Tensor appendInStore(at::Tensor& store, const at::Tensor& cached, const at::Tensor& fresh,
                         std::int64_t dim, std::int64_t room, std::int64_t& allocations) {
    const std::int64_t len = cached.size(dim), need = len + fresh.size(dim);
    const bool fits = store.defined() && cached.data_ptr() == store.data_ptr() &&
                      cached.strides() == store.strides() && need <= store.size(dim);
    if (!fits) {
        auto shape = cached.sizes().vec();
        shape[std::size_t(dim)] = need + room;
        at::Tensor grown = at::empty(shape, cached.options());
        grown.narrow(dim, 0, len).copy_(cached);
        store = std::move(grown);
        ++allocations;
    }
    store.narrow(dim, len, fresh.size(dim)).copy_(fresh);
    return store.narrow(dim, 0, need);
}

} // namespace

void KvCache::append(std::size_t l, at::Tensor& newK, at::Tensor& newV, std::int64_t timeDim) {
    time_dim = timeDim;
    if (k.size() <= l) {
        k.push_back(newK);
        v.push_back(newV);
        if (grow_in_place) {
            m_kStore.resize(k.size());
            m_vStore.resize(v.size());
            const std::int64_t room = reserve > 0 ? reserve : newK.size(timeDim);
            k[l] = appendInStore(m_kStore[l], newK.narrow(timeDim, 0, 0), newK, timeDim, room,
                                 allocations);
            v[l] = appendInStore(m_vStore[l], newV.narrow(timeDim, 0, 0), newV, timeDim, room,
                                 allocations);
        }
        return;
    }
    if (!grow_in_place) {
        newK = k[l] = at::cat({k[l], newK}, timeDim);
        newV = v[l] = at::cat({v[l], newV}, timeDim);
        allocations += 2;
        return;
    }
    const std::int64_t need = k[l].size(timeDim) + newK.size(timeDim);
    const std::int64_t room = reserve > 0 ? reserve : need;
    newK = k[l] = appendInStore(m_kStore[l], k[l], newK, timeDim, room, allocations);
    newV = v[l] = appendInStore(m_vStore[l], v[l], newV, timeDim, room, allocations);
}

void KvCache::clear() {
    k.clear();
    v.clear();
    m_kStore.clear();
    m_vStore.clear();
}

namespace {

// torch's oneDNN operators (registered by libtorch_cpu where it was built with oneDNN), called
// through the dispatcher as any operator: the kernel trace records them by name. Each is looked
// up once (a forward pass makes hundreds of these calls).
at::Tensor callOp(const c10::OperatorHandle& op, torch::jit::Stack stack) {
    op.callBoxed(&stack);
    return stack.front().toTensor();
}

at::Tensor packWeight(const at::Tensor& w) {
    static const c10::OperatorHandle op =
        c10::Dispatcher::singleton().findSchemaOrThrow("mkldnn::_reorder_linear_weight", "");
    return callOp(op, {w, c10::IValue()});
}

} // namespace

at::Tensor packedLinear(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& b) {
    static const c10::OperatorHandle op =
        c10::Dispatcher::singleton().findSchemaOrThrow("mkldnn::_linear_pointwise", "");
    return callOp(op, {x, packed, b.defined() ? c10::IValue(b) : c10::IValue(), std::string("none"),
                       c10::List<std::optional<at::Scalar>>(), c10::IValue()});
}

void TransformerModel::useLayoutFor(const Batch& batch) const {
    constexpr std::size_t kTrimEvery = 4;
    const bool packed = batch.onednn_gemm && !batch.invariant;
    const std::lock_guard<std::mutex> lock(m_layoutMutex);
    if (packed == m_packedLayout) {
        return;
    }
    std::size_t done = 0;
    try {
        for (; done < m_linear.size(); ++done) {
            at::Tensor& w = *m_linear[done];
            w = packed ? packWeight(w) : w.to_dense();
            // The new layout's copy rarely fits the hole the old one left (oneDNN's blocked
            // layout is padded), so without giving the holes back as it goes the heap would
            // hold both layouts of most weights at once: a peak of 1,053 MiB against gemm aten's
            // 955 on SmolLM2-135M (tests/test_cli.cpp onednnPeakMemoryNotAboveAten).
            if (done % kTrimEvery == kTrimEvery - 1) {
                releaseFreedHeap();
            }
        }
    } catch (const c10::Error& e) {
        for (std::size_t i = 0; i < done; ++i) { // every weight back in the layout it had
            at::Tensor& w = *m_linear[i];
            w = packed ? w.to_dense() : packWeight(w);
        }
        throw Error(std::string("gemm onednn: oneDNN cannot take these weights: ") +
                    e.what_without_backtrace());
    }
    // The batch-invariant kernels' packs know weights by address, which a layout change frees.
    m_pack = std::make_unique<invariant::PackCache>();
    m_packedLayout = packed;
    releaseFreedHeap(); // the other layout's copies of every layer's weights
}

std::unique_ptr<TransformerModel> TransformerModel::create(const ModelSpec& spec,
                                                           LoadedWeights weights) {
    if (spec.family == Family::Bert) {
        return std::make_unique<Bert>(spec, std::move(weights));
    }
    return std::make_unique<Llama>(spec, std::move(weights));
}

} // namespace probaudit::engine
