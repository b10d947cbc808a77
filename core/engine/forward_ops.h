#pragma once
// What the llama-family and BERT forward passes (llama.cpp, bert.cpp) share: the checkpoint's
// tensors by name, the reference's attention masks, the hidden-state report and the operation
// hook (ForwardOptions::onOp), and the layers' projection. Internal to the engine.
#include "core/engine/transformer.h"
#include "core/engine/weights.h"

#include <initializer_list>
#include <string>
#include <utility>

namespace probaudit::engine::detail {

class Weights {
public:
    explicit Weights(LoadedWeights w) : m_w(std::move(w)) {}
    const at::Tensor& get(const std::string& name) const;
    at::Tensor optional(const std::string& name) const;
    bool has(const std::string& name) const { return m_w.tensors.count(name) != 0; }
    // Moves a tensor out (a layer's linear weight, which the layer then owns alone, so that
    // a change of its layout frees the old one).
    at::Tensor take(const std::string& name);
    at::ScalarType dtype() const { return m_w.dtype; }

private:
    LoadedWeights m_w;
};

// Additive attention mask [B, 1, L, L]: 0 where a query may attend a key (the key is a real
// token, and for causal models not in the future), the dtype's lowest value elsewhere; asBool:
// the boolean mask SDPA takes.
at::Tensor additiveMask(const Batch& b, bool causal, at::ScalarType dtype, bool asBool);
// The same for new positions after `past` cached ones: mask [B, past + L] ->
// [B, 1, L, past + L], query i may see key j <= past + i.
at::Tensor cachedMask(const at::Tensor& attentionMask, std::int64_t L, std::int64_t past,
                      at::ScalarType dtype, bool asBool);

// Reports a hidden state (onHidden) and returns the one the pass goes on with (splice, when it
// gives one). Without either callback it does nothing.
at::Tensor reportHidden(const ForwardOptions& opt, int index, const at::Tensor& h);

at::Tensor dense(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b = {});
// A layer's linear projection: oneDNN's GEMM on the packed weight under gemm onednn (the layout
// TransformerModel::useLayoutFor put it in), ATen's otherwise.
at::Tensor project(const Batch& batch, const at::Tensor& x, const at::Tensor& w,
                   const at::Tensor& b = {});

// Offers an operation's output to opt.onOp and returns what the pass goes on with. Without a
// hook nothing else happens: no call is made, no tensor copied.
template <class Compute>
at::Tensor offer(const ForwardOptions& opt, int layer, OpClass cls, int part,
                 std::initializer_list<at::Tensor> inputs, const at::Tensor& out,
                 Compute&& compute) {
    if (!opt.onOp) {
        return out;
    }
    const OpCall call{layer, cls, part, std::vector<at::Tensor>(inputs),
                      OpCompute(std::forward<Compute>(compute))};
    at::Tensor other = opt.onOp(call, out);
    return other.defined() ? other : out;
}

// The model an OpCompute was given as the forward pass's own class (the same checkpoint).
template <class Model> const Model& sameFamily(const TransformerModel& m) {
    const auto* model = dynamic_cast<const Model*>(&m);
    if (model == nullptr) {
        throw Error("an operation computed again by a model of another family");
    }
    return *model;
}

std::unique_ptr<TransformerModel> makeLlama(const model::ModelSpec& spec, LoadedWeights w);
std::unique_ptr<TransformerModel> makeBert(const model::ModelSpec& spec, LoadedWeights w);

} // namespace probaudit::engine::detail
