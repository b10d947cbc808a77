// What the llama-family and BERT forward passes share (forward_ops.h), the KV cache, oneDNN's
// packed weights and the models' construction. The passes themselves are in llama.cpp and
// bert.cpp.
#include "core/engine/transformer.h"

#include "core/common/error.h"
#include "core/engine/forward_ops.h"
#include "core/engine/invariant_ops.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

#include <cmath>
#include <limits>

namespace probaudit::engine {

namespace detail {

namespace {

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

} // namespace

const at::Tensor& Weights::get(const std::string& name) const {
    const auto it = m_w.tensors.find(name);
    if (it == m_w.tensors.end()) {
        throw Error("checkpoint has no tensor \"" + name + "\"");
    }
    return it->second;
}

at::Tensor Weights::optional(const std::string& name) const {
    const auto it = m_w.tensors.find(name);
    return it == m_w.tensors.end() ? at::Tensor() : it->second;
}

at::Tensor Weights::take(const std::string& name) {
    at::Tensor t = get(name);
    m_w.tensors.erase(name);
    return t;
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

at::Tensor dense(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
    return at::linear(x, w, b.defined() ? c10::optional<at::Tensor>(b) : c10::nullopt);
}

// A layer's linear projection: oneDNN's GEMM on the packed weight under gemm onednn (the layout
// TransformerModel::useLayoutFor put it in), ATen's otherwise.
at::Tensor project(const Batch& batch, const at::Tensor& x, const at::Tensor& w,
                   const at::Tensor& b) {
    return batch.onednn_gemm ? packedLinear(x, w, b) : dense(x, w, b);
}

} // namespace detail

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

std::unique_ptr<TransformerModel> TransformerModel::create(const model::ModelSpec& spec,
                                                           LoadedWeights weights) {
    if (spec.family == model::Family::Bert) {
        return detail::makeBert(spec, std::move(weights));
    }
    return detail::makeLlama(spec, std::move(weights));
}

} // namespace probaudit::engine
