#pragma once
// CUDA versions of kernels/invariant.h (device pointers in the same parameter structs; every
// launch goes to `stream`, a cudaStream_t, null for the legacy default stream that libtorch
// uses unless told otherwise). Orders as documented there: the matmul, the norms, the mean pool
// and the L2 normalisation give the CPU kernels' bits; softmax, RoPE and the activations use
// CUDA's expf/erff/tanhf/sinf/cosf and agree with the CPU within tolerance.
// Compiled only with PROBAUDIT_WITH_CUDA. Errors are thrown as std::runtime_error.
#include "kernels/invariant.h"

#include <cstdint>

namespace probaudit::kernels {

#if defined(PROBAUDIT_WITH_CUDA)
void matmulCuda(const MatmulParams& p, void* stream); // reads p.w [n, k]
void normCuda(const NormParams& p, void* stream);
// p.start/p.length on the host (validated there); the kernel reads `deviceRanges`, the same
// [start[0..B), length[0..B)] already on the device and ready on `stream`, or, when null, a copy
// made here, which waits for the stream (tests; the engine passes its own).
void attentionCuda(const AttentionParams& p, void* stream,
                   const std::int64_t* deviceRanges = nullptr);
void activationCuda(Activation f, const float* x, float* y, std::int64_t n, void* stream);
void siluMulCuda(const float* gate, const float* up, float* y, std::int64_t n, void* stream);
#endif

// RoPE of x [rows, heads, dim] at one position per row (positions on the device, I64 [rows]):
// y = x * cos(inv_freq_i * pos) + rotate_half(x) * sin(...).
struct RopeParams {
    const float* x = nullptr;
    float* y = nullptr;
    const std::int64_t* positions = nullptr;
    const float* inv_freq = nullptr; // F32 [dim / 2]
    std::int64_t rows = 0, heads = 0, dim = 0;
};
void ropeCpu(const RopeParams& p, std::int64_t rowBegin, std::int64_t rowEnd); // reference

// Mean of each row's real tokens: hidden [B, L, H] -> out [B, H], tokens added in order.
struct MeanPoolParams {
    const float* hidden = nullptr;
    float* out = nullptr;
    std::int64_t batch = 0, len = 0, h = 0;
    const std::int64_t* start = nullptr;  // host [B]
    const std::int64_t* length = nullptr; // host [B]
};

#if defined(PROBAUDIT_WITH_CUDA)
void ropeCuda(const RopeParams& p, void* stream);
void meanPoolCuda(const MeanPoolParams& p, void* stream,
                  const std::int64_t* deviceRanges = nullptr); // as attentionCuda's
#endif

void meanPoolCpu(const MeanPoolParams& p);
// Throws std::invalid_argument naming `who` unless every row's range lies inside [0, len) and
// holds at least one token.
void checkMeanPool(const MeanPoolParams& p, const char* who);
// Each row of x [rows, h] divided by max(sqrt(canonical sum of x_i * x_i), 1e-12), in place.
void l2NormalizeCpu(float* x, std::int64_t rows, std::int64_t h);
#if defined(PROBAUDIT_WITH_CUDA)
void l2NormalizeCuda(float* x, std::int64_t rows, std::int64_t h, void* stream);
#endif

// Per-row divergence of two float32 matrices (e.g. a config's hidden states against the
// reference's, on the device where they live): sum of squared differences, sum of squares of
// the reference, largest |a - b| and the number of elements whose bits differ.
struct RowDivergenceParams {
    const float* ref = nullptr; // F32 [rows, ld_ref]
    const float* cfg = nullptr; // F32 [rows, ld_cfg]
    std::int64_t rows = 0, n = 0, ld_ref = 0, ld_cfg = 0;
    double* sq_diff = nullptr;         // [rows]
    double* sq_ref = nullptr;          // [rows]
    float* max_abs = nullptr;          // [rows]
    std::int64_t* differing = nullptr; // [rows]
};
void rowDivergenceCpu(const RowDivergenceParams& p);
#if defined(PROBAUDIT_WITH_CUDA)
void rowDivergenceCuda(const RowDivergenceParams& p, void* stream);
#endif

} // namespace probaudit::kernels
