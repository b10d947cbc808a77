#pragma once
// Batch-invariant kernels: every output element is computed in one fixed order that depends
// neither on how many rows share the call, nor on a row's position in it, nor on padding.
//
// The canonical orders (shared by the CPU kernels, the CPU reference and the CUDA kernels):
// - matmul, dot products over K (linear layers, attention scores, attention output):
//     one float32 accumulator, starting at 0, k = 0 .. K-1 in order, each step one fused
//     multiply-add (fmaf, correctly rounded everywhere); the bias is added after the last k.
//     No split-K, no tree: a row's result does not depend on the tile it was computed in.
// - row sums (norm statistics, softmax denominators): 16 lanes, lane l sums elements
//     l, l+16, l+32, ... in order; then lanes are combined pairwise, l += l+8, l+4, l+2, l+1.
//     Element indices are counted from the row's first real element, so padding never moves
//     an element to another lane.
// - attention: a query attends exactly its own real keys (masked keys are skipped, not added as
//     -inf), so left or right padding of any length leaves the arithmetic unchanged.
// Without -ffast-math the compiler must keep these orders, and fmaf is exact-rounded, so the
// scalar reference, the AVX2 and the AVX-512 kernels give the same bits (tested); the CUDA
// matmul follows the same order and gives the same bits too (gpu test). Transcendentals
// (exp, erf, tanh, sin, cos) come from the platform's libm (or CUDA's), so softmax, GELU and
// RoPE agree with the CPU reference within tolerance on the GPU, bitwise on the CPU.
//
// Kernels take plain parameter structs (never at::Tensor); core/engine/invariant_ops.cpp
// validates tensors and fills them. Row-ranged entry points let the caller parallelise
// (at::parallel_for) without changing any element's arithmetic.
#include <cstdint>
#include <vector>

namespace probaudit::kernels {

inline constexpr int kLanes = 16;      // lanes of a canonical row sum
inline constexpr int kPanelWidth = 32; // columns per packed weight panel

// Instruction sets of the CPU kernels. All give the same bits.
enum class CpuIsa { Scalar, Avx2, Avx512 };
CpuIsa bestCpuIsa();                // the best this CPU runs
bool cpuIsaSupported(CpuIsa isa);   // whether this CPU runs `isa`
const char* cpuIsaName(CpuIsa isa); // scalar | avx2 | avx512

// A weight W [n, k] (row-major, torch's [out, in]) repacked for the CPU matmul:
// panels of 32 output columns, each [k][32] contiguous, the last zero-padded.
struct PackedWeight {
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::vector<float> panels; // F32 [ceil(n/32), k, 32]
    std::int64_t panelCount() const { return (n + kPanelWidth - 1) / kPanelWidth; }
};
PackedWeight packWeight(const float* w, std::int64_t n, std::int64_t k);

// C [m, n] = A [m, k] · W^T + bias.
struct MatmulParams {
    const float* a = nullptr; // F32 [m, lda]
    std::int64_t m = 0, k = 0, lda = 0;
    const float* w = nullptr;             // F32 [n, k] row-major (reference and CUDA)
    const PackedWeight* packed = nullptr; // CPU kernel
    const float* bias = nullptr;          // F32 [n] or null
    float* c = nullptr;                   // F32 [m, ldc]
    std::int64_t n = 0, ldc = 0;
};
// Scalar reference, straight from the definition (reads `w`).
void matmulReference(const MatmulParams& p);
// CPU kernel over output panels [panelBegin, panelEnd) (reads `packed`).
void matmulCpu(const MatmulParams& p, std::int64_t panelBegin, std::int64_t panelEnd,
               CpuIsa isa = bestCpuIsa());

// LayerNorm (rms = false: y = (x - mean) / sqrt(var + eps) * w + b, biased variance) or RMSNorm
// (rms = true: y = w * (x / sqrt(mean(x^2) + eps))) of each row of H.
struct NormParams {
    const float* x = nullptr; // F32 [rows, ldx]
    std::int64_t rows = 0, h = 0, ldx = 0;
    const float* weight = nullptr; // F32 [h] or null (1)
    const float* bias = nullptr;   // F32 [h] or null (0), LayerNorm only
    float eps = 1e-5f;
    bool rms = false;
    float* y = nullptr; // F32 [rows, ldy]
    std::int64_t ldy = 0;
};
void normCpu(const NormParams& p, std::int64_t rowBegin, std::int64_t rowEnd,
             CpuIsa isa = bestCpuIsa());

// Canonical row sum of n floats (the order above).
float laneSum(const float* x, std::int64_t n);

// Attention of one batch: q [B, L, Hq, D], k and v [B, T, Hkv, D] with T = kv_len (0: L; T > L
// when earlier positions come from a KV cache: the queries are the last L of the T positions).
// Query head h reads key head h / (Hq / Hkv). Each row r holds real keys at
// [start[r], start[r] + length[r]) of T. A query at key position i of row r is real when i is in
// that range; it attends the real keys up to i (causal) or all of them; out [B, L, Hq, D], zeros
// at pads. scores_j = (q · k_j) * scale; p_j = exp(s_j - max) / sum (canonical sum over
// j - start); out = sum_j p_j v_j in order of j (one fma per step). So a query gives the same
// bits whether its keys were computed in this pass or cached, and whatever the padding.
struct AttentionParams {
    const float* q = nullptr;
    const float* k = nullptr;
    const float* v = nullptr;
    float* out = nullptr;
    std::int64_t batch = 0, len = 0, heads = 0, kv_heads = 0, head_dim = 0;
    std::int64_t kv_len = 0;              // key positions per row (0: len)
    std::int64_t q_row_stride = 0;        // floats between consecutive positions of q (>= Hq * D)
    std::int64_t kv_row_stride = 0;       // ... of k and v (>= Hkv * D)
    const std::int64_t* start = nullptr;  // [B]
    const std::int64_t* length = nullptr; // [B]
    bool causal = false;
    float scale = 1.0f;
};
// Over work units [unitBegin, unitEnd) of attentionUnits(p) = B * Hq.
std::int64_t attentionUnits(const AttentionParams& p);
// Key positions per row (kv_len, or len when it is 0).
inline std::int64_t attentionKeys(const AttentionParams& p) {
    return p.kv_len > 0 ? p.kv_len : p.len;
}
void attentionCpu(const AttentionParams& p, std::int64_t unitBegin, std::int64_t unitEnd,
                  CpuIsa isa = bestCpuIsa());
// Throws std::invalid_argument naming `who` unless heads, head size, strides and every row's
// range (host arrays) are consistent; the CPU and the CUDA kernels both call it.
void checkAttention(const AttentionParams& p, const char* who);

// Elementwise functions, scalar libm per element (no vector/tail split that could differ by
// position): y[i] = f(x[i]).
enum class Activation { Silu, GeluErf, GeluTanh, Relu, Tanh };
void activationCpu(Activation f, const float* x, float* y, std::int64_t n);
// silu(gate) * up, elementwise.
void siluMulCpu(const float* gate, const float* up, float* y, std::int64_t n);

} // namespace probaudit::kernels
