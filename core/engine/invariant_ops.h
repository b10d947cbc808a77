#pragma once
// The boundary of kernels/invariant.h and kernels/invariant_cuda.h (CUDA tensors go to the
// CUDA kernels when the build has them): validates tensors, converts them to float32 (exact for
// bfloat16 and float16), fills the kernels' parameter structs, splits the work over ATen's
// intra-op threads (never over a reduction), and converts results back to the input's dtype.
// Every call is recorded in the kernel trace as probaudit::invariant_<op>.
#include "core/engine/batch.h"
#include "kernels/invariant.h"

#include <ATen/ATen.h>

#include <memory>
#include <mutex>
#include <unordered_map>

namespace probaudit::engine::invariant {

// Packed weights of one model, keyed by the weight's storage (the model owns both, so a key
// cannot outlive its tensor).
class PackCache {
public:
    std::shared_ptr<const kernels::PackedWeight> get(const at::Tensor& w);
    // The weight as contiguous float32 (itself when it already is; the GPU matmul reads it).
    at::Tensor float32(const at::Tensor& w);

private:
    std::mutex m_mutex;
    std::unordered_map<const void*, std::shared_ptr<const kernels::PackedWeight>> m_packed;
    std::unordered_map<const void*, at::Tensor> m_float32;
};

// x [..., K] · w [N, K]^T + b [N] -> [..., N]. `cache` may be null (packs on every call).
at::Tensor linear(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, PackCache* cache);
// Over the last dimension.
at::Tensor rmsNorm(const at::Tensor& x, const at::Tensor& weight, double eps);
at::Tensor layerNorm(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                     double eps);
// q [B, L, Hq * D], k and v [B, T, Hkv * D] -> [B, L, Hq * D]; pads are skipped. T = L: the
// keys are this pass's, real where `batch` says. T > L: the first T - L come from a KV cache and
// batch.attention_mask [B, T] says which are real (each row's real keys must be contiguous and
// end at T, as left padding and decoding leave them).
at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     const Batch& batch, std::int64_t heads, std::int64_t kvHeads,
                     std::int64_t headDim, bool causal, double scale);
// Rotary embedding of x [B, L, H, D] at batch.position_ids with inv_freq [D / 2] (float32):
// x * cos + rotate_half(x) * sin, tables computed per element with libm.
at::Tensor rope(const at::Tensor& x, const Batch& batch, const at::Tensor& invFreq);
at::Tensor activation(kernels::Activation f, const at::Tensor& x);
at::Tensor siluMul(const at::Tensor& gate, const at::Tensor& up);
// Mean of each row's real tokens of hidden [B, L, H] -> F32 [B, H] (canonical order over t).
at::Tensor meanPool(const Batch& batch, const at::Tensor& hidden);
// Each row divided by its L2 norm (at least 1e-12), float32.
at::Tensor l2Normalize(const at::Tensor& x);

// kernels::Activation for a config name (gelu, gelu_pytorch_tanh, gelu_new, relu, silu).
kernels::Activation activationByName(const std::string& name);

} // namespace probaudit::engine::invariant
