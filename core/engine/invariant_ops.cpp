#include "core/engine/invariant_ops.h"

#include "core/common/error.h"
#include "kernels/invariant_cuda.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#if defined(PROBAUDIT_WITH_CUDA)
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#endif

#include <algorithm>
#include <cmath>
#include <vector>

namespace probaudit::engine::invariant {

namespace {

using kernels::CpuIsa;

#define PA_TRACE(op) RECORD_FUNCTION("probaudit::invariant_" op, std::vector<c10::IValue>())

void requireFloat(const at::Tensor& t, const char* what) {
    if (!at::isFloatingType(t.scalar_type())) {
        throw Error(std::string("batch-invariant kernels: ") + what +
                    " is not a floating-point tensor");
    }
#if !defined(PROBAUDIT_WITH_CUDA)
    if (!t.device().is_cpu()) {
        throw Error(std::string("this build has no CUDA kernels; ") + what + " is on " +
                    t.device().str());
    }
#endif
}

#if defined(PROBAUDIT_WITH_CUDA)
// A launch on the tensor's device and on the stream libtorch queues this thread's work on there
// (the legacy default stream unless a caller installed another), so the kernels stay ordered
// with torch's own ops and the caching allocator's reuse of their buffers.
struct OnDevice {
    c10::cuda::CUDAGuard guard;
    void* stream;
    explicit OnDevice(const at::Tensor& t)
        : guard(t.device()), stream(at::cuda::getCurrentCUDAStream(t.device().index()).stream()) {}
};

// A batch's row ranges [start..., length...] on the device: filled in pinned memory and copied
// on the current stream without waiting for it (torch's host allocator keeps the pinned block
// until the copy has run), so no layer blocks the host.
at::Tensor deviceRanges(const std::vector<std::int64_t>& start,
                        const std::vector<std::int64_t>& length, const at::Device& device) {
    at::Tensor host = at::empty({std::int64_t(start.size() + length.size())},
                                at::TensorOptions().dtype(at::kLong).pinned_memory(true));
    std::int64_t* h = host.data_ptr<std::int64_t>();
    std::copy(start.begin(), start.end(), h);
    std::copy(length.begin(), length.end(), h + start.size());
    return host.to(device, /*non_blocking=*/true);
}
#endif

at::Tensor f32(const at::Tensor& t) {
    return t.to(at::kFloat).contiguous();
}

// Runs fn(begin, end) over [0, n) on ATen's threads; each element's arithmetic is the same
// whatever the split.
template <typename F> void parallel(std::int64_t n, std::int64_t grain, F fn) {
    at::parallel_for(0, n, grain, [&](std::int64_t b, std::int64_t e) { fn(b, e); });
}

} // namespace

at::Tensor PackCache::float32(const at::Tensor& w) {
    if (w.scalar_type() == at::kFloat && w.is_contiguous()) {
        return w;
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_float32.find(w.data_ptr());
    if (it == m_float32.end()) {
        it = m_float32.emplace(w.data_ptr(), f32(w)).first;
    }
    return it->second;
}

std::shared_ptr<const kernels::PackedWeight> PackCache::get(const at::Tensor& w) {
    const void* key = w.data_ptr();
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (auto it = m_packed.find(key); it != m_packed.end()) {
            return it->second;
        }
    }
    const at::Tensor wf = f32(w);
    auto packed = std::make_shared<const kernels::PackedWeight>(
        kernels::packWeight(wf.data_ptr<float>(), wf.size(0), wf.size(1)));
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_packed.emplace(key, std::move(packed)).first->second;
}

at::Tensor linear(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, PackCache* cache) {
    PA_TRACE("linear");
    requireFloat(x, "the input");
    requireFloat(w, "the weight");
    if (w.dim() != 2 || x.size(-1) != w.size(1)) {
        throw Error("batch-invariant linear: input [..., " + std::to_string(x.size(-1)) +
                    "] does not match weight [" + std::to_string(w.size(0)) + ", " +
                    std::to_string(w.dim() == 2 ? w.size(1) : -1) + "]");
    }
    const std::int64_t K = w.size(1);
    const std::int64_t N = w.size(0);
    if (b.defined() && (b.dim() != 1 || b.size(0) != N)) {
        throw Error("batch-invariant linear: the bias does not have one value per output");
    }
    const at::Tensor a = f32(x).reshape({-1, K});
    const std::int64_t M = a.size(0);
    std::vector<std::int64_t> outShape(x.sizes().begin(), x.sizes().end());
    outShape.back() = N;
#if defined(PROBAUDIT_WITH_CUDA)
    if (x.is_cuda()) {
        const at::Tensor wf = cache != nullptr ? cache->float32(w) : f32(w);
        const at::Tensor bf = b.defined() ? f32(b) : at::Tensor();
        at::Tensor c = at::empty({M, N}, a.options());
        kernels::MatmulParams p;
        p.a = a.data_ptr<float>();
        p.m = M;
        p.k = K;
        p.lda = K;
        p.w = wf.data_ptr<float>();
        p.bias = bf.defined() ? bf.data_ptr<float>() : nullptr;
        p.c = c.data_ptr<float>();
        p.n = N;
        p.ldc = N;
        const OnDevice on(x);
        kernels::matmulCuda(p, on.stream);
        return c.view(outShape).to(x.scalar_type());
    }
#endif
    std::shared_ptr<const kernels::PackedWeight> packed;
    if (cache != nullptr) {
        packed = cache->get(w);
    } else {
        const at::Tensor wf = f32(w);
        packed = std::make_shared<const kernels::PackedWeight>(
            kernels::packWeight(wf.data_ptr<float>(), N, K));
    }
    const at::Tensor bias = b.defined() ? f32(b) : at::Tensor();
    at::Tensor c = at::empty({M, N}, a.options());
    if (M == 0) {
        return c.view(outShape).to(x.scalar_type());
    }
    kernels::MatmulParams p;
    p.a = a.data_ptr<float>();
    p.m = M;
    p.k = K;
    p.lda = K;
    p.packed = packed.get();
    p.bias = bias.defined() ? bias.data_ptr<float>() : nullptr;
    p.c = c.data_ptr<float>();
    p.n = N;
    p.ldc = N;
    parallel(packed->panelCount(), 1,
             [&](std::int64_t s, std::int64_t e) { kernels::matmulCpu(p, s, e); });
    return c.view(outShape).to(x.scalar_type());
}

namespace {

at::Tensor norm(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, double eps,
                bool rms) {
    requireFloat(x, "the input");
    const std::int64_t H = x.size(-1);
    if ((weight.defined() && weight.numel() != H) || (bias.defined() && bias.numel() != H)) {
        throw Error("batch-invariant norm: weight or bias does not match the row size " +
                    std::to_string(H));
    }
    const at::Tensor xf = f32(x).reshape({-1, H});
    const at::Tensor wf = weight.defined() ? f32(weight) : at::Tensor();
    const at::Tensor bf = bias.defined() ? f32(bias) : at::Tensor();
    at::Tensor y = at::empty_like(xf);
    kernels::NormParams p;
    p.x = xf.data_ptr<float>();
    p.rows = xf.size(0);
    p.h = H;
    p.ldx = H;
    p.weight = wf.defined() ? wf.data_ptr<float>() : nullptr;
    p.bias = bf.defined() ? bf.data_ptr<float>() : nullptr;
    p.eps = static_cast<float>(eps);
    p.rms = rms;
    p.y = y.data_ptr<float>();
    p.ldy = H;
#if defined(PROBAUDIT_WITH_CUDA)
    if (x.is_cuda()) {
        const OnDevice on(x);
        kernels::normCuda(p, on.stream);
        return y.view(x.sizes()).to(x.scalar_type());
    }
#endif
    parallel(p.rows, 16, [&](std::int64_t s, std::int64_t e) { kernels::normCpu(p, s, e); });
    return y.view(x.sizes()).to(x.scalar_type());
}

} // namespace

at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& weight, double eps) {
    PA_TRACE("rms_norm");
    return norm(x, weight, at::Tensor(), eps, true);
}

at::Tensor layerNorm(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                     double eps) {
    PA_TRACE("layer_norm");
    return norm(x, weight, bias, eps, false);
}

at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     const Batch& batch, std::int64_t heads, std::int64_t kvHeads,
                     std::int64_t headDim, bool causal, double scale) {
    PA_TRACE("attention");
    requireFloat(q, "q");
    const std::int64_t B = batch.rows();
    const std::int64_t L = batch.input_ids.size(1);
    if (q.dim() != 3 || q.size(0) != B || q.size(1) != L || q.size(2) != heads * headDim ||
        k.sizes() != v.sizes() || k.dim() != 3 || k.size(0) != B || k.size(1) < L ||
        k.size(2) != kvHeads * headDim) {
        throw Error("batch-invariant attention: q, k, v do not match the batch and heads");
    }
    const std::int64_t T = k.size(1);
    std::vector<std::int64_t> start = batch.start, length = batch.length;
    if (T > L) {
        // Cached keys: each row's real ones from the mask, which must be one run ending at T.
        const at::Tensor m = batch.attention_mask.to(at::kCPU).to(at::kLong).contiguous();
        if (m.dim() != 2 || m.size(0) != B || m.size(1) != T) {
            throw Error("batch-invariant attention: the mask does not cover the cached keys");
        }
        const std::int64_t* mp = m.data_ptr<std::int64_t>();
        for (std::int64_t r = 0; r < B; ++r) {
            std::int64_t first = 0;
            while (first < T && mp[r * T + first] == 0) {
                ++first;
            }
            for (std::int64_t j = first; j < T; ++j) {
                if (mp[r * T + j] == 0) {
                    throw Error("batch-invariant attention: row " + std::to_string(r) +
                                " has a pad among its cached keys");
                }
            }
            start[std::size_t(r)] = first;
            length[std::size_t(r)] = T - first;
        }
    }
    const at::Tensor qf = f32(q), kf = f32(k), vf = f32(v);
    at::Tensor out = at::empty({B, L, heads * headDim}, qf.options());
    kernels::AttentionParams p;
    p.q = qf.data_ptr<float>();
    p.k = kf.data_ptr<float>();
    p.v = vf.data_ptr<float>();
    p.out = out.data_ptr<float>();
    p.batch = B;
    p.len = L;
    p.kv_len = T;
    p.heads = heads;
    p.kv_heads = kvHeads;
    p.head_dim = headDim;
    p.q_row_stride = heads * headDim;
    p.kv_row_stride = kvHeads * headDim;
    p.start = start.data();
    p.length = length.data();
    p.causal = causal;
    p.scale = static_cast<float>(scale);
#if defined(PROBAUDIT_WITH_CUDA)
    if (q.is_cuda()) {
        const OnDevice on(q);
        const at::Tensor ranges = deviceRanges(start, length, q.device());
        kernels::attentionCuda(p, on.stream, ranges.data_ptr<std::int64_t>());
        return out.to(q.scalar_type());
    }
#endif
    parallel(kernels::attentionUnits(p), 1,
             [&](std::int64_t s, std::int64_t e) { kernels::attentionCpu(p, s, e); });
    return out.to(q.scalar_type());
}

at::Tensor rope(const at::Tensor& x, const Batch& batch, const at::Tensor& invFreq) {
    PA_TRACE("rope");
    requireFloat(x, "the input");
    const std::int64_t B = x.size(0), L = x.size(1), H = x.size(2), D = x.size(3);
    if (invFreq.numel() != D / 2 || B != batch.rows() || L != batch.input_ids.size(1)) {
        throw Error("batch-invariant rope: the input does not match the batch or the head size");
    }
    const at::Tensor xf = f32(x);
    const at::Tensor inv = f32(invFreq.to(x.device()));
    const at::Tensor pos = batch.position_ids.to(x.device()).to(at::kLong).contiguous();
    at::Tensor y = at::empty_like(xf);
    kernels::RopeParams p;
    p.x = xf.data_ptr<float>();
    p.y = y.data_ptr<float>();
    p.positions = pos.data_ptr<std::int64_t>();
    p.inv_freq = inv.data_ptr<float>();
    p.rows = B * L;
    p.heads = H;
    p.dim = D;
#if defined(PROBAUDIT_WITH_CUDA)
    if (x.is_cuda()) {
        const OnDevice on(x);
        kernels::ropeCuda(p, on.stream);
        return y.to(x.scalar_type());
    }
#endif
    parallel(p.rows, 4, [&](std::int64_t s, std::int64_t e) { kernels::ropeCpu(p, s, e); });
    return y.to(x.scalar_type());
}

kernels::Activation activationByName(const std::string& name) {
    if (name == "gelu") {
        return kernels::Activation::GeluErf;
    }
    if (name == "gelu_pytorch_tanh" || name == "gelu_new") {
        return kernels::Activation::GeluTanh;
    }
    if (name == "relu") {
        return kernels::Activation::Relu;
    }
    if (name == "silu") {
        return kernels::Activation::Silu;
    }
    throw Error("activation \"" + name + "\" is not supported");
}

at::Tensor activation(kernels::Activation f, const at::Tensor& x) {
    PA_TRACE("activation");
    requireFloat(x, "the input");
    const at::Tensor xf = f32(x);
    at::Tensor y = at::empty_like(xf);
    const float* xs = xf.data_ptr<float>();
    float* ys = y.data_ptr<float>();
#if defined(PROBAUDIT_WITH_CUDA)
    if (x.is_cuda()) {
        const OnDevice on(x);
        kernels::activationCuda(f, xs, ys, xf.numel(), on.stream);
        return y.to(x.scalar_type());
    }
#endif
    parallel(xf.numel(), 4096, [&](std::int64_t s, std::int64_t e) {
        kernels::activationCpu(f, xs + s, ys + s, e - s);
    });
    return y.to(x.scalar_type());
}

at::Tensor siluMul(const at::Tensor& gate, const at::Tensor& up) {
    PA_TRACE("silu_mul");
    requireFloat(gate, "the gate");
    if (gate.sizes() != up.sizes()) {
        throw Error("batch-invariant silu_mul: gate and up differ in shape");
    }
    const at::Tensor g = f32(gate), u = f32(up);
    at::Tensor y = at::empty_like(g);
    const float* gs = g.data_ptr<float>();
    const float* us = u.data_ptr<float>();
    float* ys = y.data_ptr<float>();
#if defined(PROBAUDIT_WITH_CUDA)
    if (gate.is_cuda()) {
        const OnDevice on(gate);
        kernels::siluMulCuda(gs, us, ys, g.numel(), on.stream);
        return y.to(gate.scalar_type());
    }
#endif
    parallel(g.numel(), 4096, [&](std::int64_t s, std::int64_t e) {
        kernels::siluMulCpu(gs + s, us + s, ys + s, e - s);
    });
    return y.to(gate.scalar_type());
}

at::Tensor meanPool(const Batch& batch, const at::Tensor& hidden) {
    PA_TRACE("mean_pool");
    requireFloat(hidden, "the hidden state");
    const at::Tensor hf = f32(hidden);
    at::Tensor out = at::empty({hf.size(0), hf.size(2)}, hf.options());
    kernels::MeanPoolParams p;
    p.hidden = hf.data_ptr<float>();
    p.out = out.data_ptr<float>();
    p.batch = hf.size(0);
    p.len = hf.size(1);
    p.h = hf.size(2);
    p.start = batch.start.data();
    p.length = batch.length.data();
#if defined(PROBAUDIT_WITH_CUDA)
    if (hidden.is_cuda()) {
        const OnDevice on(hidden);
        const at::Tensor ranges = deviceRanges(batch.start, batch.length, hidden.device());
        kernels::meanPoolCuda(p, on.stream, ranges.data_ptr<std::int64_t>());
        return out;
    }
#endif
    kernels::meanPoolCpu(p);
    return out;
}

at::Tensor l2Normalize(const at::Tensor& x) {
    PA_TRACE("l2_normalize");
    requireFloat(x, "the input");
    at::Tensor xf = f32(x).clone();
    const std::int64_t H = xf.size(-1);
#if defined(PROBAUDIT_WITH_CUDA)
    if (x.is_cuda()) {
        const OnDevice on(x);
        kernels::l2NormalizeCuda(xf.data_ptr<float>(), xf.numel() / H, H, on.stream);
        return xf;
    }
#endif
    kernels::l2NormalizeCpu(xf.data_ptr<float>(), xf.numel() / H, H);
    return xf;
}

} // namespace probaudit::engine::invariant
