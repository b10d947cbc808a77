// The llama family's forward pass (llama, mistral, qwen2, qwen3): each operation mirrors the
// reference implementation's (transformers, eager attention) sequence of ATen calls, including
// where it computes in float32 (RMSNorm, RoPE tables, softmax), so that float32 results agree
// with it to rounding and the same configuration always runs the same kernels. Every operation
// goes through one function per operator class, which the batch's flags send to ATen or to the
// batch-invariant kernels; the forward pass offers each one to ForwardOptions::onOp, which can
// compute it again as another config does (localize).
#include "core/common/error.h"
#include "core/engine/forward_ops.h"
#include "core/engine/invariant_ops.h"

#include <cmath>

namespace probaudit::engine::detail {

namespace {

using model::ModelSpec;
namespace bi = invariant;

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

    at::Tensor pooler(const Batch&, const at::Tensor&) const override { return {}; }

    ForwardResult forward(const Batch& b, const ForwardOptions& opt) const override {
        useLayoutFor(b);
        const auto& s = m_spec;
        const auto L = b.input_ids.size(1);
        if (s.sliding_window > 0 && L > s.sliding_window) {
            // Sliding-window attention is not implemented: refuse rather than compute another
            // thing.
            throw Error("a batch of " + std::to_string(L) +
                        " positions exceeds the model's sliding window (" +
                        std::to_string(s.sliding_window) + ")");
        }
        at::Tensor h = offer(opt, 0, OpClass::Embeddings, 0, {}, embed(b),
                             [](const TransformerModel& m, const Batch& batch, Attention,
                                const std::vector<at::Tensor>&) { return as(m).embed(batch); });
        const Tables t = tables(b, opt.attention, opt.cache);
        h = reportHidden(opt, 0, h);
        const auto layers = m_layers.size();
        for (std::size_t l = 0; l < layers; ++l) {
            h = layer(b, opt, t, l, h);
            if (l + 1 < layers) {
                h = reportHidden(opt, static_cast<int>(l + 1), h);
            }
        }
        const int last = static_cast<int>(layers);
        h = offer(opt, last, OpClass::Norms, kFinalNorm, {h}, norm(b, h, m_norm),
                  [](const TransformerModel& m, const Batch& batch, Attention,
                     const std::vector<at::Tensor>& in) {
                      return as(m).norm(batch, in[0], as(m).m_norm);
                  });
        h = reportHidden(opt, last, h);
        return ForwardResult{h, at::Tensor()};
    }

private:
    struct Layer {
        at::Tensor in_norm, post_norm, q, k, v, o, qb, kb, vb, ob, q_norm, k_norm;
        at::Tensor gate, up, down, gate_b, up_b, down_b;
    };
    // The parts of the norms in a layer (OpCall::part), and of its residual adds.
    enum NormPart { kInputNorm, kQueryNorm, kKeyNorm, kPostNorm, kFinalNorm };
    enum ResidualPart { kAfterAttention, kAfterMlp };
    // RoPE tables and the attention mask of a batch (the default kernels'; the batch-invariant
    // ones compute their own).
    struct Tables {
        at::Tensor cos, sin, mask;
        bool maskless = false;
    };

    static const Llama& as(const TransformerModel& m) { return sameFamily<Llama>(m); }

    at::Tensor embed(const Batch& b) const { return at::embedding(m_embed, b.input_ids); }

    at::Tensor norm(const Batch& b, const at::Tensor& x, const at::Tensor& w) const {
        return b.invariant ? bi::rmsNorm(x, w, m_spec.norm_eps) : rmsNorm(x, w, m_spec.norm_eps);
    }

    // Query, key or value (part 0, 1, 2) of layer l: [B, L, heads, D] (the batch-invariant
    // kernels' values: [B, L, kv_heads * D], the layout their attention reads).
    at::Tensor projection(const Batch& b, std::size_t l, int part, const at::Tensor& x) const {
        const Layer& w = m_layers[l];
        const at::Tensor& weight = part == 0 ? w.q : part == 1 ? w.k : w.v;
        const at::Tensor& bias = part == 0 ? w.qb : part == 1 ? w.kb : w.vb;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        if (b.invariant) {
            const at::Tensor y = bi::linear(x, weight, bias, &packCache());
            return part == 2 ? y : y.view({B, L, -1, m_spec.head_dim});
        }
        return project(b, x, weight, bias).view({B, L, -1, m_spec.head_dim});
    }

    Tables tables(const Batch& b, Attention attention, const KvCache* cache) const {
        if (b.invariant) {
            return {};
        }
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        // RoPE tables for these positions (float32, or float64, then the compute dtype).
        const at::Tensor invExp = m_invFreq.unsqueeze(0).unsqueeze(-1).expand({B, -1, 1});
        const at::Tensor posExp = b.position_ids.unsqueeze(1).to(m_invFreq.scalar_type());
        const at::Tensor freqs = at::matmul(invExp, posExp).transpose(1, 2);
        const at::Tensor emb = at::cat({freqs, freqs}, -1);
        Tables t;
        t.cos = (emb.cos() * 1.0).to(m_dtype).unsqueeze(1);
        t.sin = (emb.sin() * 1.0).to(m_dtype).unsqueeze(1);
        const bool sdpa = attention == Attention::Sdpa;
        // SDPA without padding takes the reference's maskless causal path (is_causal).
        t.maskless = sdpa && b.unpadded() && cache == nullptr;
        const std::int64_t past = cache != nullptr ? cache->length() : 0;
        t.mask = t.maskless         ? at::Tensor()
                 : cache != nullptr ? cachedMask(b.attention_mask, L, past, m_dtype, sdpa)
                                    : additiveMask(b, true, m_dtype, sdpa);
        return t;
    }

    // RoPE, the cache, scores, mask, softmax and the weighted values of layer l, from the
    // projections as projection() lays them out -> [B, L, heads * D].
    at::Tensor attention(const Batch& b, Attention attention, const Tables& t, KvCache* cache,
                         std::size_t l, at::Tensor q, at::Tensor k, at::Tensor v) const {
        const auto& s = m_spec;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        const double scaling = std::pow(double(s.head_dim), -0.5);
        if (b.invariant) {
            q = bi::rope(q, b, m_invFreq).view({B, L, -1});
            k = bi::rope(k, b, m_invFreq).view({B, L, -1});
            if (cache != nullptr) {
                // Cached in the layout the invariant attention reads: [B, T, kv_heads * D].
                cache->append(l, k, v, 1);
            }
            return bi::attention(q, k, v, b, s.num_heads, s.num_kv_heads, s.head_dim, true,
                                 scaling);
        }
        v = v.transpose(1, 2);
        q = applyRope(q.transpose(1, 2), t.cos, t.sin);
        k = applyRope(k.transpose(1, 2), t.cos, t.sin);
        if (cache != nullptr) {
            cache->append(l, k, v, 2);
        }
        const auto Lk = k.size(2);
        const auto rep = s.num_heads / s.num_kv_heads;
        at::Tensor attn;
        if (b.invariant_attention) {
            const auto flat = [&](const at::Tensor& x) {
                return x.transpose(1, 2).contiguous().reshape({B, x.size(2), -1});
            };
            attn = invariant::attention(flat(q), flat(k), flat(v), b, s.num_heads, s.num_kv_heads,
                                        s.head_dim, true, scaling)
                       .view({B, L, s.num_heads, s.head_dim})
                       .transpose(1, 2);
        } else if (t.maskless) {
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
            if (attention == Attention::Sdpa) {
                attn = at::scaled_dot_product_attention(q, k, v, t.mask, 0.0, false, scaling);
            } else {
                at::Tensor scores = at::matmul(q, k.transpose(2, 3)) * scaling;
                scores = scores + t.mask;
                scores =
                    at::softmax(scores, -1, atLeastFloat32(q.scalar_type())).to(q.scalar_type());
                attn = at::matmul(scores, v);
            }
        }
        return attn.transpose(1, 2).contiguous().reshape({B, L, -1});
    }

    at::Tensor outProjection(const Batch& b, std::size_t l, const at::Tensor& attn) const {
        const Layer& w = m_layers[l];
        return b.invariant ? bi::linear(attn, w.o, w.ob, &packCache())
                           : project(b, attn, w.o, w.ob);
    }

    at::Tensor mlp(const Batch& b, std::size_t l, const at::Tensor& x) const {
        const Layer& w = m_layers[l];
        if (b.invariant) {
            bi::PackCache* cache = &packCache();
            const at::Tensor act = bi::siluMul(bi::linear(x, w.gate, w.gate_b, cache),
                                               bi::linear(x, w.up, w.up_b, cache));
            return bi::linear(act, w.down, w.down_b, cache);
        }
        at::Tensor gate = project(b, x, w.gate, w.gate_b);
        return project(b, at::silu_(gate).mul_(project(b, x, w.up, w.up_b)), w.down, w.down_b);
    }

    // out + residual: fresh GEMM outputs take the sum in place (no allocation); the
    // batch-invariant path adds as its reference does (the same bits).
    static at::Tensor residualAdd(const Batch& b, at::Tensor out, const at::Tensor& residual) {
        return b.invariant ? residual + out : out.add_(residual);
    }

    // An operator class's operation of layer l computed again (OpCall::compute).
    static OpCompute again(std::size_t l, OpClass cls, int part) {
        return [l, cls, part](const TransformerModel& model, const Batch& b, Attention attention,
                              const std::vector<at::Tensor>& in) -> at::Tensor {
            const Llama& m = as(model);
            const Layer& w = m.m_layers[l];
            const auto B = b.rows();
            const auto L = b.input_ids.size(1);
            const auto D = m.m_spec.head_dim;
            switch (cls) {
            case OpClass::Norms: {
                const at::Tensor* weights[] = {&w.in_norm, &w.q_norm, &w.k_norm, &w.post_norm};
                return m.norm(b, in[0], *weights[part]);
            }
            case OpClass::Projections:
                return m.projection(b, l, part, in[0]);
            case OpClass::Attention:
                return m.attention(b, attention, m.tables(b, attention, nullptr), nullptr, l,
                                   in[0].reshape({B, L, -1, D}), in[1].reshape({B, L, -1, D}),
                                   b.invariant ? in[2].reshape({B, L, -1})
                                               : in[2].reshape({B, L, -1, D}));
            case OpClass::AttentionOutput:
                return m.outProjection(b, l, in[0]);
            case OpClass::Mlp:
                return m.mlp(b, l, in[0]);
            case OpClass::Residual:
                return in[0] + in[1];
            default:
                throw Error("no such operation in a llama-family layer");
            }
        };
    }

    // The pass's operation `out` of layer l offered to the hook; inputs as the hook sees them.
    at::Tensor site(const ForwardOptions& opt, std::size_t l, OpClass cls, int part,
                    std::initializer_list<at::Tensor> in, const at::Tensor& out) const {
        return offer(opt, static_cast<int>(l + 1), cls, part, in, out, again(l, cls, part));
    }

    at::Tensor layer(const Batch& b, const ForwardOptions& opt, const Tables& t, std::size_t l,
                     at::Tensor h) const {
        const Layer& w = m_layers[l];
        const at::Tensor x = site(opt, l, OpClass::Norms, kInputNorm, {h}, norm(b, h, w.in_norm));
        at::Tensor q = site(opt, l, OpClass::Projections, 0, {x}, projection(b, l, 0, x));
        at::Tensor k = site(opt, l, OpClass::Projections, 1, {x}, projection(b, l, 1, x));
        const at::Tensor v = site(opt, l, OpClass::Projections, 2, {x}, projection(b, l, 2, x));
        if (m_spec.qk_norm) {
            q = site(opt, l, OpClass::Norms, kQueryNorm, {q}, norm(b, q, w.q_norm));
            k = site(opt, l, OpClass::Norms, kKeyNorm, {k}, norm(b, k, w.k_norm));
        }
        const at::Tensor attn = site(opt, l, OpClass::Attention, 0, {q, k, v},
                                     attention(b, opt.attention, t, opt.cache, l, q, k, v));
        const at::Tensor o =
            site(opt, l, OpClass::AttentionOutput, 0, {attn}, outProjection(b, l, attn));
        h = addResidual(b, opt, l, kAfterAttention, o, h);
        const at::Tensor y = site(opt, l, OpClass::Norms, kPostNorm, {h}, norm(b, h, w.post_norm));
        const at::Tensor m = site(opt, l, OpClass::Mlp, 0, {y}, mlp(b, l, y));
        return addResidual(b, opt, l, kAfterMlp, m, h);
    }

    // residualAdd offered to the hook with its inputs as they were before the sum (which the
    // default kernels write into `out`).
    at::Tensor addResidual(const Batch& b, const ForwardOptions& opt, std::size_t l, int part,
                           const at::Tensor& out, const at::Tensor& residual) const {
        if (!opt.onOp) {
            return residualAdd(b, out, residual);
        }
        const at::Tensor before = out.clone();
        return site(opt, l, OpClass::Residual, part, {before, residual},
                    residualAdd(b, out, residual));
    }

    Weights m_w;
    at::Tensor m_invFreq, m_embed, m_lmHead, m_norm;
    std::vector<Layer> m_layers;
};

} // namespace

std::unique_ptr<TransformerModel> makeLlama(const ModelSpec& spec, LoadedWeights w) {
    return std::make_unique<Llama>(spec, std::move(w));
}

} // namespace probaudit::engine::detail
