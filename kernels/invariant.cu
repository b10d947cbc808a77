// CUDA versions of the batch-invariant kernels (kernels/invariant_cuda.h). Compiled with
// --fmad=false: nvcc may not fuse a*b+c on its own, so the only fused operations are the
// explicit fmaf calls of the canonical orders, exactly as on the CPU.
#include "kernels/invariant_cuda.h"

#include <cuda_runtime.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace probaudit::kernels {
namespace {

cudaStream_t asStream(void* s) {
    return static_cast<cudaStream_t>(s);
}

void check(const char* what) {
    if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
    }
}

// ---- matmul: 64x64 output tiles, 16-deep k slices in shared memory, 4x4 outputs per thread.
// Each output keeps one accumulator over k = 0 .. K-1 in order (no split-K), so a row's bits do
// not depend on the tile, the grid or the other rows, and equal the CPU kernels'.
constexpr int kBm = 64, kBn = 64, kBk = 16, kTm = 4, kTn = 4, kMmThreads = 256;

__global__ void matmulKernel(MatmulParams p) {
    __shared__ float As[kBk][kBm + 1];
    __shared__ float Ws[kBk][kBn + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const std::int64_t row0 = std::int64_t(blockIdx.y) * kBm, col0 = std::int64_t(blockIdx.x) * kBn;
    float acc[kTm][kTn];
    for (int i = 0; i < kTm; ++i)
        for (int j = 0; j < kTn; ++j)
            acc[i][j] = 0.0f;
    for (std::int64_t k0 = 0; k0 < p.k; k0 += kBk) {
        for (int i = threadIdx.x; i < kBm * kBk; i += kMmThreads) {
            const int r = i / kBk, kk = i % kBk;
            const std::int64_t gr = row0 + r, gk = k0 + kk;
            As[kk][r] = (gr < p.m && gk < p.k) ? p.a[gr * p.lda + gk] : 0.0f;
        }
        for (int i = threadIdx.x; i < kBn * kBk; i += kMmThreads) {
            const int c = i / kBk, kk = i % kBk;
            const std::int64_t gc = col0 + c, gk = k0 + kk;
            Ws[kk][c] = (gc < p.n && gk < p.k) ? p.w[gc * p.k + gk] : 0.0f;
        }
        __syncthreads();
        const int kmax = int(min(std::int64_t(kBk), p.k - k0)); // never step past K (-0 + 0 = +0)
        for (int kk = 0; kk < kmax; ++kk) {
            for (int i = 0; i < kTm; ++i) {
                const float a = As[kk][ty * kTm + i];
                for (int j = 0; j < kTn; ++j) {
                    acc[i][j] = fmaf(a, Ws[kk][tx * kTn + j], acc[i][j]);
                }
            }
        }
        __syncthreads();
    }
    for (int i = 0; i < kTm; ++i) {
        const std::int64_t r = row0 + ty * kTm + i;
        for (int j = 0; j < kTn; ++j) {
            const std::int64_t c = col0 + tx * kTn + j;
            if (r < p.m && c < p.n) {
                p.c[r * p.ldc + c] = p.bias != nullptr ? acc[i][j] + p.bias[c] : acc[i][j];
            }
        }
    }
}

// ---- canonical row sums on one warp: lanes 0..15 sum elements l, l+16, ... in order, then the
// pairwise tree l += l+8, l+4, l+2, l+1 (shuffles). Returns the total on every lane.
template <typename Term> __device__ float warpCanonicalSum(std::int64_t n, Term term) {
    const int lane = threadIdx.x % 32;
    float acc = 0.0f;
    if (lane < kLanes) {
        for (std::int64_t i = lane; i < n; i += kLanes) {
            acc = term(acc, i);
        }
    }
    for (int s = kLanes / 2; s > 0; s /= 2) {
        const float other = __shfl_down_sync(0xFFFFFFFFu, acc, s);
        if (lane < s) {
            acc = acc + other;
        }
    }
    return __shfl_sync(0xFFFFFFFFu, acc, 0);
}

__global__ void normKernel(NormParams p) {
    const std::int64_t r = blockIdx.x;
    const float* x = p.x + r * p.ldx;
    float* y = p.y + r * p.ldy;
    const float h = static_cast<float>(p.h);
    const int lane = threadIdx.x;
    if (p.rms) {
        const float ss = warpCanonicalSum(
            p.h, [&](float acc, std::int64_t i) { return fmaf(x[i] - 0.0f, x[i] - 0.0f, acc); });
        const float inv = 1.0f / sqrtf(ss / h + p.eps);
        for (std::int64_t i = lane; i < p.h; i += 32) {
            const float v = x[i] * inv;
            y[i] = p.weight != nullptr ? p.weight[i] * v : v;
        }
    } else {
        const float mean =
            warpCanonicalSum(p.h, [&](float acc, std::int64_t i) { return acc + x[i]; }) / h;
        const float var = warpCanonicalSum(p.h, [&](float acc, std::int64_t i) {
            const float d = x[i] - mean;
            return fmaf(d, d, acc);
        });
        const float rstd = 1.0f / sqrtf(var / h + p.eps);
        for (std::int64_t i = lane; i < p.h; i += 32) {
            float v = (x[i] - mean) * rstd;
            if (p.weight != nullptr) {
                v = v * p.weight[i];
            }
            if (p.bias != nullptr) {
                v = v + p.bias[i];
            }
            y[i] = v;
        }
    }
}

// ---- transcendental functions as the CPU kernels get them: CUDA's expf, erff, tanhf, cosf and
// sinf are within 2 ulp, glibc's within about half an ulp, and the difference, amplified by 30
// layers, moved SmolLM2's probabilities by 3e-6 on an H200 (docs/gpu/2026-12-04-h200.log).
// Evaluated in double and rounded once, each is the correctly rounded float (but where the double
// lands within an ulp of a tie), which is what glibc returns too in all but rare cases: the GPU
// kernels then reproduce the CPU kernels' bits but for those rare cases.
__device__ float expRounded(float x) {
    return static_cast<float>(exp(static_cast<double>(x)));
}
__device__ float erfRounded(float x) {
    return static_cast<float>(erf(static_cast<double>(x)));
}
__device__ float tanhRounded(float x) {
    return static_cast<float>(tanh(static_cast<double>(x)));
}

// ---- attention: one block of 128 threads per (row, head, query); scores in shared memory.
constexpr int kAttThreads = 128;

struct AttentionDevice {
    AttentionParams p;
    const std::int64_t* start;  // device [B]
    const std::int64_t* length; // device [B]
};

__global__ void attentionKernel(AttentionDevice a) {
    extern __shared__ float shared[];
    const AttentionParams& p = a.p;
    const std::int64_t D = p.head_dim;
    const std::int64_t b = blockIdx.z, h = blockIdx.y, t = blockIdx.x; // t: query position
    const std::int64_t n = a.length[b], st = a.start[b];
    const std::int64_t T = p.kv_len > 0 ? p.kv_len : p.len; // attentionKeys(p), host-only
    const std::int64_t tq = t + (T - p.len) - st; // the query's index among the row's real keys
    if (tq < 0 || tq >= n) {
        return; // a pad: its output stays zero
    }
    const std::int64_t kvh = h / (p.heads / p.kv_heads);
    const std::int64_t nk = p.causal ? tq + 1 : n;
    float* q = shared;      // [D]
    float* sc = shared + D; // [n]
    __shared__ float red[kAttThreads / 32];
    const float* qg = p.q + (b * p.len + t) * p.q_row_stride + h * D;
    for (std::int64_t d = threadIdx.x; d < D; d += blockDim.x) {
        q[d] = qg[d];
    }
    __syncthreads();
    for (std::int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
        const float* kr = p.k + (b * T + st + j) * p.kv_row_stride + kvh * D;
        float s = 0.0f;
        for (std::int64_t d = 0; d < D; ++d) {
            s = fmaf(q[d], kr[d], s);
        }
        sc[j] = s * p.scale;
    }
    __syncthreads();
    float mx = -INFINITY; // max is exact in any order
    for (std::int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
        mx = fmaxf(mx, sc[j]);
    }
    for (int s = 16; s > 0; s /= 2) {
        mx = fmaxf(mx, __shfl_down_sync(0xFFFFFFFFu, mx, s));
    }
    if (threadIdx.x % 32 == 0) {
        red[threadIdx.x / 32] = mx;
    }
    __syncthreads();
    mx = red[0];
    for (int w = 1; w < kAttThreads / 32; ++w) {
        mx = fmaxf(mx, red[w]);
    }
    __syncthreads();
    for (std::int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
        sc[j] = expRounded(sc[j] - mx);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        const float sum =
            warpCanonicalSum(nk, [&](float acc, std::int64_t i) { return acc + sc[i]; });
        if (threadIdx.x == 0) {
            red[0] = sum;
        }
    }
    __syncthreads();
    const float sum = red[0];
    for (std::int64_t j = threadIdx.x; j < nk; j += blockDim.x) {
        sc[j] = sc[j] / sum;
    }
    __syncthreads();
    float* o = p.out + ((b * p.len + t) * p.heads + h) * D;
    for (std::int64_t d = threadIdx.x; d < D; d += blockDim.x) {
        float acc = 0.0f;
        for (std::int64_t j = 0; j < nk; ++j) {
            acc = fmaf(sc[j], p.v[(b * T + st + j) * p.kv_row_stride + kvh * D + d], acc);
        }
        o[d] = acc;
    }
}

__device__ float activate(Activation f, float v) {
    switch (f) {
    case Activation::Silu:
        return v / (1.0f + expRounded(-v));
    case Activation::GeluErf:
        return v * 0.5f * (1.0f + erfRounded(v * 0.70710678118654752440f));
    case Activation::GeluTanh:
        return 0.5f * v *
               (1.0f + tanhRounded(0.79788456080286535588f * (v + 0.044715f * v * v * v)));
    case Activation::Relu:
        return v > 0.0f ? v : 0.0f;
    case Activation::Tanh:
        return tanhRounded(v);
    }
    return v;
}

__global__ void activationKernel(Activation f, const float* x, float* y, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        y[i] = activate(f, x[i]);
    }
}

__global__ void siluMulKernel(const float* g, const float* u, float* y, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        y[i] = (g[i] / (1.0f + expRounded(-g[i]))) * u[i];
    }
}

__global__ void ropeKernel(RopeParams p) {
    const std::int64_t half = p.dim / 2;
    const std::int64_t total = p.rows * p.heads * half;
    for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < total;
         e += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t i = e % half;
        const std::int64_t rh = e / half; // row * heads + head
        const std::int64_t r = rh / p.heads;
        const float angle = p.inv_freq[i] * static_cast<float>(p.positions[r]);
        const float ci = static_cast<float>(cos(static_cast<double>(angle)));
        const float si = static_cast<float>(sin(static_cast<double>(angle)));
        const float* x = p.x + rh * p.dim;
        float* y = p.y + rh * p.dim;
        const float lo = x[i] * ci + (-x[i + half]) * si;
        const float hi = x[i + half] * ci + x[i] * si;
        y[i] = lo;
        y[i + half] = hi;
    }
}

struct MeanPoolDevice {
    MeanPoolParams p;
    const std::int64_t* start;
    const std::int64_t* length;
};

__global__ void meanPoolKernel(MeanPoolDevice m) {
    const MeanPoolParams& p = m.p;
    const std::int64_t r = blockIdx.y;
    const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
    if (i >= p.h) {
        return;
    }
    const std::int64_t n = m.length[r];
    const float* first = p.hidden + (r * p.len + m.start[r]) * p.h;
    float acc = 0.0f;
    for (std::int64_t t = 0; t < n; ++t) {
        acc = acc + first[t * p.h + i];
    }
    p.out[r * p.h + i] = acc / static_cast<float>(n);
}

__global__ void l2NormalizeKernel(float* x, std::int64_t h) {
    float* row = x + std::int64_t(blockIdx.x) * h;
    const float ss =
        warpCanonicalSum(h, [&](float acc, std::int64_t i) { return acc + row[i] * row[i]; });
    const float norm = fmaxf(sqrtf(ss), 1e-12f);
    __syncwarp();
    for (std::int64_t i = threadIdx.x; i < h; i += 32) {
        row[i] = row[i] / norm;
    }
}

__global__ void rowDivergenceKernel(RowDivergenceParams p) {
    const std::int64_t r = blockIdx.x;
    const float* a = p.ref + r * p.ld_ref;
    const float* b = p.cfg + r * p.ld_cfg;
    double d2 = 0, r2 = 0;
    float mx = 0;
    unsigned long long diff = 0;
    for (std::int64_t i = threadIdx.x; i < p.n; i += blockDim.x) {
        const double d = double(a[i]) - double(b[i]);
        d2 += d * d;
        r2 += double(a[i]) * double(a[i]);
        mx = fmaxf(mx, fabsf(float(d)));
        diff += __float_as_uint(a[i]) != __float_as_uint(b[i]) ? 1 : 0;
    }
    for (int s = 16; s > 0; s /= 2) {
        d2 += __shfl_down_sync(0xFFFFFFFFu, d2, s);
        r2 += __shfl_down_sync(0xFFFFFFFFu, r2, s);
        mx = fmaxf(mx, __shfl_down_sync(0xFFFFFFFFu, mx, s));
        diff += __shfl_down_sync(0xFFFFFFFFu, diff, s);
    }
    if (threadIdx.x == 0) {
        p.sq_diff[r] = d2;
        p.sq_ref[r] = r2;
        p.max_abs[r] = mx;
        p.differing[r] = static_cast<std::int64_t>(diff);
    }
}

unsigned gridFor(std::int64_t n, int threads) {
    const std::int64_t blocks = (n + threads - 1) / threads;
    return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(blocks, 1), 65535));
}

// Copies a host array of row ranges to the device for one launch, on the stream; waits for
// the stream, since the host vector dies at scope end (the engine passes device ranges instead).
struct DeviceRanges {
    std::int64_t* d = nullptr;
    cudaStream_t stream = nullptr;
    DeviceRanges(const std::int64_t* start, const std::int64_t* length, std::int64_t rows,
                 cudaStream_t s)
        : stream(s) {
        std::vector<std::int64_t> host(start, start + rows);
        host.insert(host.end(), length, length + rows);
        if (cudaMallocAsync(&d, host.size() * sizeof(std::int64_t), s) != cudaSuccess) {
            throw std::runtime_error("batch-invariant kernels: cannot allocate row ranges");
        }
        if (cudaMemcpyAsync(d, host.data(), host.size() * sizeof(std::int64_t),
                            cudaMemcpyHostToDevice, s) != cudaSuccess ||
            cudaStreamSynchronize(s) != cudaSuccess) {
            cudaFreeAsync(d, s);
            throw std::runtime_error("batch-invariant kernels: cannot copy row ranges to the GPU");
        }
    }
    ~DeviceRanges() { cudaFreeAsync(d, stream); }
    DeviceRanges(const DeviceRanges&) = delete;
    DeviceRanges& operator=(const DeviceRanges&) = delete;
};

} // namespace

void matmulCuda(const MatmulParams& p, void* stream) {
    if (p.w == nullptr || p.lda < p.k || p.ldc < p.n || p.m < 0 || p.n <= 0 || p.k <= 0) {
        throw std::invalid_argument("matmulCuda: inconsistent shapes or strides");
    }
    if (p.m == 0) {
        return;
    }
    const dim3 grid(static_cast<unsigned>((p.n + kBn - 1) / kBn),
                    static_cast<unsigned>((p.m + kBm - 1) / kBm));
    matmulKernel<<<grid, kMmThreads, 0, asStream(stream)>>>(p);
    check("matmulCuda");
}

void normCuda(const NormParams& p, void* stream) {
    if (p.h <= 0 || p.ldx < p.h || p.ldy < p.h) {
        throw std::invalid_argument("normCuda: bad row size or stride");
    }
    if (p.rows == 0) {
        return;
    }
    normKernel<<<static_cast<unsigned>(p.rows), 32, 0, asStream(stream)>>>(p);
    check("normCuda");
}

void attentionCuda(const AttentionParams& p, void* stream, const std::int64_t* deviceRanges) {
    checkAttention(p, "attentionCuda");
    const cudaStream_t s = asStream(stream);
    std::int64_t longest = 0;
    for (std::int64_t b = 0; b < p.batch; ++b) {
        longest = std::max(longest, p.length[b]);
    }
    // The query and its scores in dynamic shared memory, beside the static reduction array;
    // above the default 48 KiB the kernel asks for more, up to what the device grants.
    const std::size_t shared = std::size_t(p.head_dim + longest) * sizeof(float);
    const std::size_t staticShared = sizeof(float) * (kAttThreads / 32);
    if (shared + staticShared > 48 * 1024) {
        int device = 0, optin = 0;
        if (cudaGetDevice(&device) != cudaSuccess ||
            cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
                cudaSuccess) {
            throw std::runtime_error("attentionCuda: cannot read the device's shared memory");
        }
        if (shared + staticShared > std::size_t(optin)) {
            throw std::invalid_argument("attentionCuda: " + std::to_string(longest) +
                                        " keys do not fit in shared memory");
        }
        if (cudaFuncSetAttribute(attentionKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shared)) != cudaSuccess) {
            throw std::runtime_error("attentionCuda: cannot raise the shared memory limit");
        }
    }
    if (cudaMemsetAsync(p.out, 0,
                        std::size_t(p.batch * p.len * p.heads * p.head_dim) * sizeof(float),
                        s) != cudaSuccess) {
        throw std::runtime_error("attentionCuda: cannot clear the output");
    }
    std::unique_ptr<DeviceRanges> copied;
    if (deviceRanges == nullptr) {
        copied = std::make_unique<DeviceRanges>(p.start, p.length, p.batch, s);
        deviceRanges = copied->d;
    }
    AttentionDevice a{p, deviceRanges, deviceRanges + p.batch};
    const dim3 grid(static_cast<unsigned>(p.len), static_cast<unsigned>(p.heads),
                    static_cast<unsigned>(p.batch));
    attentionKernel<<<grid, kAttThreads, shared, s>>>(a);
    check("attentionCuda");
}

void activationCuda(Activation f, const float* x, float* y, std::int64_t n, void* stream) {
    if (n == 0) {
        return;
    }
    activationKernel<<<gridFor(n, 256), 256, 0, asStream(stream)>>>(f, x, y, n);
    check("activationCuda");
}

void siluMulCuda(const float* gate, const float* up, float* y, std::int64_t n, void* stream) {
    if (n == 0) {
        return;
    }
    siluMulKernel<<<gridFor(n, 256), 256, 0, asStream(stream)>>>(gate, up, y, n);
    check("siluMulCuda");
}

void ropeCuda(const RopeParams& p, void* stream) {
    const std::int64_t total = p.rows * p.heads * (p.dim / 2);
    if (total == 0) {
        return;
    }
    ropeKernel<<<gridFor(total, 256), 256, 0, asStream(stream)>>>(p);
    check("ropeCuda");
}

void meanPoolCuda(const MeanPoolParams& p, void* stream, const std::int64_t* deviceRanges) {
    checkMeanPool(p, "meanPoolCuda");
    if (p.batch == 0) {
        return;
    }
    if (p.h > std::int64_t(65535) * 128) {
        throw std::invalid_argument("meanPoolCuda: rows too wide for one grid");
    }
    const cudaStream_t s = asStream(stream);
    std::unique_ptr<DeviceRanges> copied;
    if (deviceRanges == nullptr) {
        copied = std::make_unique<DeviceRanges>(p.start, p.length, p.batch, s);
        deviceRanges = copied->d;
    }
    const dim3 grid(gridFor(p.h, 128), static_cast<unsigned>(p.batch));
    meanPoolKernel<<<grid, 128, 0, s>>>(MeanPoolDevice{p, deviceRanges, deviceRanges + p.batch});
    check("meanPoolCuda");
}

void l2NormalizeCuda(float* x, std::int64_t rows, std::int64_t h, void* stream) {
    if (rows == 0) {
        return;
    }
    l2NormalizeKernel<<<static_cast<unsigned>(rows), 32, 0, asStream(stream)>>>(x, h);
    check("l2NormalizeCuda");
}

void rowDivergenceCuda(const RowDivergenceParams& p, void* stream) {
    if (p.n < 0 || p.ld_ref < p.n || p.ld_cfg < p.n) {
        throw std::invalid_argument("rowDivergenceCuda: bad row size or stride");
    }
    if (p.rows == 0) {
        return;
    }
    rowDivergenceKernel<<<static_cast<unsigned>(p.rows), 32, 0, asStream(stream)>>>(p);
    check("rowDivergenceCuda");
}

} // namespace probaudit::kernels
