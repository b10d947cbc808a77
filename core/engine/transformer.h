#pragma once
// Forward passes of the supported families (llama: llama/mistral/qwen2/qwen3; BERT), in
// inference mode, numerically following the reference implementation (transformers' eager
// attention for "math"; libtorch's scaled_dot_product_attention for "sdpa").
#include "core/common/vocabulary.h"
#include "core/engine/batch.h"
#include "core/engine/invariant_ops.h"
#include "core/engine/model_loader.h"
#include "core/model/model_spec.h"

#include <ATen/ATen.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace probaudit::engine {

// Keys and values of earlier positions for incremental decoding (llama family): per layer, in
// the model's dtype, after RoPE. Appending writes the new positions into room kept after the
// cached ones, so a decode step copies its own positions, not the whole cache: k and v are
// views of those stores, read in the same layout a concatenation gives (the same bits; a test
// holds it against grow_in_place = false).
struct KvCache {
    std::vector<at::Tensor> k, v;
    // The positions' dimension: 2 for the default path ([B, kv_heads, T, head_dim]), 1 for the
    // batch-invariant one ([B, T, kv_heads * head_dim], the layout its attention reads).
    std::int64_t time_dim = 2;
    // Positions to keep room for beyond what a store holds when it is made (generation: the
    // new tokens it may still decode); 0: as many again as it holds.
    std::int64_t reserve = 0;
    // false: every append concatenates, a fresh tensor of exactly the new length each step (the
    // reference the in-place growth is tested against).
    bool grow_in_place = true;
    std::int64_t allocations = 0; // tensors append has allocated (tests)

    std::int64_t length() const { return k.empty() ? 0 : k.front().size(time_dim); }
    // Appends layer l's new keys and values along timeDim and replaces newK and newV with all
    // of the layer's keys and values, cached ones first. The first append (the prefill) leaves
    // them as they are: that pass reads its own keys as computed.
    void append(std::size_t l, at::Tensor& newK, at::Tensor& newV, std::int64_t timeDim);
    // No positions; the growth policy stays.
    void clear();

private:
    std::vector<at::Tensor> m_kStore, m_vStore; // per layer, what k and v view
};

class TransformerModel;

// Computes one operation again: `model` is the pass's own or one of the same checkpoint in
// another dtype, `batch` says the rows' layout and kernels, `inputs` are the operation's inputs
// as OpCall gives them, laid out as `batch` (rows and positions first). The result is laid out
// as the operation's output, [rows, positions, ...]; the head's is [rows, classes].
using OpCompute =
    std::function<at::Tensor(const TransformerModel& model, const Batch& batch, Attention attention,
                             const std::vector<at::Tensor>& inputs)>;

// One operation of a forward pass, offered to ForwardOptions::onOp with its output.
struct OpCall {
    int layer = 0; // hidden-state index it belongs to: 0 the embeddings, i layer i (the
                   // llama family's final norm: the last layer), layers + 1 the head
    OpClass cls = OpClass::Embeddings;
    int part = 0; // which of the class's operations in that layer (q, k, v; two norms)
    std::vector<at::Tensor> inputs; // [B, L, ...] (the embeddings: none, they read the ids)
    OpCompute compute;
};

struct ForwardOptions {
    Attention attention = Attention::Math; // math | sdpa
    // Called with every hidden state the reference reports (index 0 = embeddings, i = after
    // layer i; for the llama family the last one is after the final norm), [B, L, H].
    std::function<void(int index, const at::Tensor& hidden)> onHidden;
    // Counterfactual passes (localize): called after onHidden with the same state; a defined
    // result is the state the rest of the pass continues from instead.
    std::function<at::Tensor(int index, const at::Tensor& hidden)> splice;
    // Counterfactual passes by operator class (localize) and the test seam: called with each
    // operation's output; a defined result is what the pass goes on with. Unset, a pass runs
    // no operation more than without it.
    std::function<at::Tensor(const OpCall& call, const at::Tensor& output)> onOp;
    // With a cache, the batch's input_ids/position_ids are the new positions only and its
    // attention_mask covers the cached positions and the new ones [B, T + L]; the cache grows.
    KvCache* cache = nullptr;
};

struct ForwardResult {
    at::Tensor last_hidden; // [B, L, H]: what heads read (llama: after the final norm)
    at::Tensor pooler;      // BERT only: tanh(dense(h[:, 0])) [B, H]; undefined otherwise
};

class TransformerModel {
public:
    virtual ~TransformerModel() = default;
    virtual ForwardResult forward(const Batch& batch, const ForwardOptions& options) const = 0;
    // Language-model logits of chosen rows of `hidden` [B, L, H] at positions [B] -> [B, V]
    // (llama family; the tied embedding matrix when the checkpoint ties them).
    // With invariantKernels the product runs through kernels/invariant.h.
    virtual at::Tensor lmLogits(const at::Tensor& hiddenRows, bool invariantKernels) const = 0;
    // The same logits for the vocabulary entries `ids` [n] (long) only -> [B, n]. The default
    // kernels compute every logit and select, as a serving stack does (the full GEMM, whose
    // rounding depends on its shape, is part of what an audit measures); the batch-invariant
    // kernels compute each logit in one fixed order whatever the shape, so they multiply by
    // these rows of the head alone: the same bits for a fraction of the work.
    virtual at::Tensor lmLogitsOf(const at::Tensor& hiddenRows, const at::Tensor& ids,
                                  bool invariantKernels) const = 0;
    virtual bool hasLmHead() const = 0;
    // BERT's pooler on hidden [B, L, H] -> [B, H] (as forward computes it for the batch's
    // kernels); undefined for models without one.
    virtual at::Tensor pooler(const Batch& batch, const at::Tensor& hidden) const = 0;
    // A checkpoint tensor by Hugging Face name (e.g. a classification head), or undefined.
    virtual at::Tensor weight(const std::string& name) const = 0;
    const model::ModelSpec& spec() const { return m_spec; }
    at::ScalarType dtype() const { return m_dtype; }
    // Number of hidden states reported through onHidden (layers + 1).
    int hiddenCount() const { return static_cast<int>(m_spec.num_layers) + 1; }
    // Weights packed for the batch-invariant matmul, made on first use and kept with the model.
    invariant::PackCache& packCache() const { return *m_pack; }
    // Puts the layers' linear weights into the layout `batch` needs: oneDNN's packed one for
    // gemm onednn, the plain [out, in] one otherwise (ATen and the batch-invariant kernels read
    // that). A model holds one layout at a time, never a second copy of its weights; a switch
    // moves every weight once and exactly (a layout is a permutation of the same floats). Every
    // forward pass begins with it; forward passes of one model run one at a time.
    void useLayoutFor(const Batch& batch) const;

    static std::unique_ptr<TransformerModel> create(const model::ModelSpec& spec,
                                                    LoadedWeights weights);

protected:
    TransformerModel(model::ModelSpec spec, at::ScalarType dtype)
        : m_spec(std::move(spec)), m_dtype(dtype) {}
    // Registers a layer's linear weight for useLayoutFor (once construction has laid out the
    // layers: the address must stay where it is).
    void addLinearWeight(at::Tensor& w) { m_linear.push_back(&w); }
    model::ModelSpec m_spec;
    at::ScalarType m_dtype;
    // Replaced, not cleared, when the layout changes: it knows weights by their address.
    mutable std::unique_ptr<invariant::PackCache> m_pack = std::make_unique<invariant::PackCache>();

private:
    std::vector<at::Tensor*> m_linear;
    mutable bool m_packedLayout = false;
    mutable std::mutex m_layoutMutex;
};

// x [..., K] times a weight packed by useLayoutFor, plus b [N] when defined -> [..., N]
// (oneDNN's GEMM, as torch's mkldnn::_linear_pointwise runs it).
at::Tensor packedLinear(const at::Tensor& x, const at::Tensor& packed, const at::Tensor& b);

} // namespace probaudit::engine
