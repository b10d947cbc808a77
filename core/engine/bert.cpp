// BERT's forward pass: each operation mirrors the reference implementation's (transformers,
// eager attention) sequence of ATen calls. As in llama.cpp, every operation goes through one
// function per operator class, which the batch's flags send to ATen or to the batch-invariant
// kernels, and the pass offers each to ForwardOptions::onOp.
#include "core/common/error.h"
#include "core/engine/forward_ops.h"
#include "core/engine/invariant_ops.h"

#include <cmath>

namespace probaudit::engine::detail {

namespace {

using model::ModelSpec;
namespace bi = invariant;

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

    at::Tensor pooler(const Batch& b, const at::Tensor& h) const override {
        if (!m_poolW.defined()) {
            return {};
        }
        if (b.invariant) {
            return bi::activation(kernels::Activation::Tanh,
                                  bi::linear(firstTokens(b, h), m_poolW, m_poolB, &packCache()));
        }
        // As the reference: position 0, even where left padding put a pad there.
        return at::tanh(dense(h.select(1, 0), m_poolW, m_poolB));
    }

    ForwardResult forward(const Batch& b, const ForwardOptions& opt) const override {
        useLayoutFor(b);
        at::Tensor h = offer(opt, 0, OpClass::Embeddings, 0, {}, embed(b),
                             [](const TransformerModel& m, const Batch& batch, Attention,
                                const std::vector<at::Tensor>&) { return as(m).embed(batch); });
        h = offer(opt, 0, OpClass::Norms, 0, {h}, norm(b, h, m_embNormW, m_embNormB),
                  [](const TransformerModel& m, const Batch& batch, Attention,
                     const std::vector<at::Tensor>& in) {
                      return as(m).norm(batch, in[0], as(m).m_embNormW, as(m).m_embNormB);
                  });
        const at::Tensor mask = attentionMask(b, opt.attention);
        h = reportHidden(opt, 0, h);
        for (std::size_t l = 0; l < m_layers.size(); ++l) {
            h = layer(b, opt, mask, l, h);
            h = reportHidden(opt, static_cast<int>(l + 1), h);
        }
        return ForwardResult{h, pooler(b, h)};
    }

private:
    struct Layer {
        at::Tensor q[2], k[2], v[2], ao[2], inter[2], out[2], aln[2], oln[2];
    };
    enum NormPart { kAttentionNorm = 1, kOutputNorm = 2 }; // 0: the embeddings' norm

    static const Bert& as(const TransformerModel& m) { return sameFamily<Bert>(m); }

    // The hidden state of each row's first real token [B, H] (the [CLS] token, wherever
    // padding put it): the batch-invariant pooler reads it, where the reference reads position 0.
    static at::Tensor firstTokens(const Batch& b, const at::Tensor& h) {
        const at::Tensor idx = at::tensor(b.start, at::kLong).to(h.device());
        return h.index({at::arange(b.rows(), idx.options()), idx});
    }

    at::Tensor embed(const Batch& b) const {
        at::Tensor h = at::embedding(m_word, b.input_ids);
        h = h + at::embedding(m_type, at::zeros_like(b.input_ids));
        return h + at::embedding(m_pos, b.position_ids);
    }

    at::Tensor norm(const Batch& b, const at::Tensor& x, const at::Tensor& w,
                    const at::Tensor& bias) const {
        if (b.invariant) {
            return bi::layerNorm(x, w, bias, m_spec.norm_eps);
        }
        return at::layer_norm(x, {m_spec.hidden_size}, w, bias, m_spec.norm_eps);
    }

    // The additive (math) or boolean (SDPA) mask of the default kernels; none where SDPA runs
    // without padding or the batch-invariant kernels compute every op.
    at::Tensor attentionMask(const Batch& b, Attention attention) const {
        const bool sdpa = attention == Attention::Sdpa;
        if (b.invariant || (sdpa && b.unpadded())) {
            return {};
        }
        return additiveMask(b, false, m_dtype, sdpa);
    }

    // Query, key or value (part 0, 1, 2) of layer l: [B, L, heads, D] ([B, L, H] for the
    // batch-invariant kernels).
    at::Tensor projection(const Batch& b, std::size_t l, int part, const at::Tensor& h) const {
        const Layer& w = m_layers[l];
        const at::Tensor* p = part == 0 ? w.q : part == 1 ? w.k : w.v;
        if (b.invariant) {
            return bi::linear(h, p[0], p[1], &packCache());
        }
        return project(b, h, p[0], p[1]).view({b.rows(), b.input_ids.size(1), -1, m_spec.head_dim});
    }

    // Scores, mask, softmax and the weighted values -> [B, L, H].
    at::Tensor attention(const Batch& b, Attention attention, const at::Tensor& mask, at::Tensor q,
                         at::Tensor k, at::Tensor v) const {
        const auto& s = m_spec;
        const auto B = b.rows();
        const auto L = b.input_ids.size(1);
        const double scaling = std::pow(double(s.head_dim), -0.5);
        if (b.invariant) {
            return bi::attention(q, k, v, b, s.num_heads, s.num_heads, s.head_dim, false, scaling);
        }
        q = q.transpose(1, 2);
        k = k.transpose(1, 2);
        v = v.transpose(1, 2);
        at::Tensor attn;
        if (b.invariant_attention) {
            const auto flat = [&](const at::Tensor& t) {
                return t.transpose(1, 2).contiguous().reshape({B, t.size(2), -1});
            };
            attn = bi::attention(flat(q), flat(k), flat(v), b, s.num_heads, s.num_heads, s.head_dim,
                                 false, scaling)
                       .view({B, L, s.num_heads, s.head_dim})
                       .transpose(1, 2);
        } else if (attention == Attention::Sdpa) {
            attn = at::scaled_dot_product_attention(
                q, k, v, mask.defined() ? c10::optional<at::Tensor>(mask) : c10::nullopt, 0.0,
                false, scaling);
        } else {
            at::Tensor scores = at::matmul(q, k.transpose(2, 3)) * scaling;
            scores = scores + mask;
            attn = at::matmul(at::softmax(scores, -1), v);
        }
        return attn.transpose(1, 2).contiguous().reshape({B, L, -1}).contiguous();
    }

    at::Tensor linear(const Batch& b, const at::Tensor* w, const at::Tensor& x) const {
        return b.invariant ? bi::linear(x, w[0], w[1], &packCache()) : project(b, x, w[0], w[1]);
    }

    at::Tensor mlp(const Batch& b, std::size_t l, const at::Tensor& a) const {
        const Layer& w = m_layers[l];
        if (b.invariant) {
            const at::Tensor inter =
                bi::activation(bi::activationByName(m_spec.activation), linear(b, w.inter, a));
            return linear(b, w.out, inter);
        }
        return linear(b, w.out, activation(m_spec.activation, linear(b, w.inter, a)));
    }

    // An operator class's operation of layer l computed again (OpCall::compute).
    static OpCompute again(std::size_t l, OpClass cls, int part) {
        return [l, cls, part](const TransformerModel& model, const Batch& b, Attention attention,
                              const std::vector<at::Tensor>& in) -> at::Tensor {
            const Bert& m = as(model);
            const Layer& w = m.m_layers[l];
            const auto B = b.rows();
            const auto L = b.input_ids.size(1);
            const auto shape = [&](const at::Tensor& t) {
                return b.invariant ? t.reshape({B, L, -1})
                                   : t.reshape({B, L, -1, m.m_spec.head_dim});
            };
            switch (cls) {
            case OpClass::Norms:
                return part == kAttentionNorm ? m.norm(b, in[0], w.aln[0], w.aln[1])
                                              : m.norm(b, in[0], w.oln[0], w.oln[1]);
            case OpClass::Projections:
                return m.projection(b, l, part, in[0]);
            case OpClass::Attention:
                return m.attention(b, attention, m.attentionMask(b, attention), shape(in[0]),
                                   shape(in[1]), shape(in[2]));
            case OpClass::AttentionOutput:
                return m.linear(b, w.ao, in[0]);
            case OpClass::Mlp:
                return m.mlp(b, l, in[0]);
            case OpClass::Residual:
                return in[0] + in[1];
            default:
                throw Error("no such operation in a BERT layer");
            }
        };
    }

    at::Tensor site(const ForwardOptions& opt, std::size_t l, OpClass cls, int part,
                    std::initializer_list<at::Tensor> in, const at::Tensor& out) const {
        return offer(opt, static_cast<int>(l + 1), cls, part, in, out, again(l, cls, part));
    }

    at::Tensor layer(const Batch& b, const ForwardOptions& opt, const at::Tensor& mask,
                     std::size_t l, const at::Tensor& h) const {
        const Layer& w = m_layers[l];
        const at::Tensor q = site(opt, l, OpClass::Projections, 0, {h}, projection(b, l, 0, h));
        const at::Tensor k = site(opt, l, OpClass::Projections, 1, {h}, projection(b, l, 1, h));
        const at::Tensor v = site(opt, l, OpClass::Projections, 2, {h}, projection(b, l, 2, h));
        const at::Tensor attn = site(opt, l, OpClass::Attention, 0, {q, k, v},
                                     attention(b, opt.attention, mask, q, k, v));
        const at::Tensor o =
            site(opt, l, OpClass::AttentionOutput, 0, {attn}, linear(b, w.ao, attn));
        const at::Tensor r = site(opt, l, OpClass::Residual, 0, {o, h}, o + h);
        const at::Tensor a =
            site(opt, l, OpClass::Norms, kAttentionNorm, {r}, norm(b, r, w.aln[0], w.aln[1]));
        const at::Tensor m = site(opt, l, OpClass::Mlp, 0, {a}, mlp(b, l, a));
        const at::Tensor r2 = site(opt, l, OpClass::Residual, 1, {m, a}, m + a);
        return site(opt, l, OpClass::Norms, kOutputNorm, {r2}, norm(b, r2, w.oln[0], w.oln[1]));
    }

    Weights m_w;
    std::string m_prefix;
    at::Tensor m_word, m_pos, m_type, m_embNormW, m_embNormB, m_poolW, m_poolB;
    std::vector<Layer> m_layers;
};

} // namespace

std::unique_ptr<TransformerModel> makeBert(const ModelSpec& spec, LoadedWeights w) {
    return std::make_unique<Bert>(spec, std::move(w));
}

} // namespace probaudit::engine::detail
