// Dispatch of the batch-invariant CPU kernels, the scalar matmul reference, weight packing and
// the elementwise functions (kernels/invariant.h).
#include "kernels/invariant.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace probaudit::kernels {

#define PA_DECLARE_ISA(ns)                                                                         \
    namespace ns {                                                                                 \
    void matmul(const MatmulParams& p, std::int64_t panelBegin, std::int64_t panelEnd);            \
    void norm(const NormParams& p, std::int64_t rowBegin, std::int64_t rowEnd);                    \
    void attention(const AttentionParams& p, std::int64_t unitBegin, std::int64_t unitEnd);        \
    float rowSum(const float* x, std::int64_t n);                                                  \
    }
PA_DECLARE_ISA(isa_scalar)
#if defined(__x86_64__)
PA_DECLARE_ISA(isa_avx2)
PA_DECLARE_ISA(isa_avx512)
#endif
#undef PA_DECLARE_ISA

bool cpuIsaSupported(CpuIsa isa) {
    switch (isa) {
    case CpuIsa::Scalar:
        return true;
#if defined(__x86_64__)
    case CpuIsa::Avx2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case CpuIsa::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
#else
    default:
        return false;
#endif
    }
    return false;
}

CpuIsa bestCpuIsa() {
    static const CpuIsa best = cpuIsaSupported(CpuIsa::Avx512) ? CpuIsa::Avx512
                               : cpuIsaSupported(CpuIsa::Avx2) ? CpuIsa::Avx2
                                                               : CpuIsa::Scalar;
    return best;
}

const char* cpuIsaName(CpuIsa isa) {
    switch (isa) {
    case CpuIsa::Scalar:
        return "scalar";
    case CpuIsa::Avx2:
        return "avx2";
    case CpuIsa::Avx512:
        return "avx512";
    }
    return "?";
}

namespace {

void requireIsa(CpuIsa isa) {
    if (!cpuIsaSupported(isa)) {
        throw std::invalid_argument(std::string("this CPU does not run the ") + cpuIsaName(isa) +
                                    " kernels");
    }
}

} // namespace

PackedWeight packWeight(const float* w, std::int64_t n, std::int64_t k) {
    if (w == nullptr || n <= 0 || k <= 0) {
        throw std::invalid_argument("packWeight: empty weight");
    }
    PackedWeight p;
    p.n = n;
    p.k = k;
    p.panels.assign(std::size_t(p.panelCount() * k * kPanelWidth), 0.0f);
    for (std::int64_t j = 0; j < n; ++j) {
        float* dst = p.panels.data() + (j / kPanelWidth) * k * kPanelWidth + (j % kPanelWidth);
        const float* src = w + j * k;
        for (std::int64_t kk = 0; kk < k; ++kk) {
            dst[kk * kPanelWidth] = src[kk];
        }
    }
    return p;
}

void matmulReference(const MatmulParams& p) {
    for (std::int64_t i = 0; i < p.m; ++i) {
        for (std::int64_t j = 0; j < p.n; ++j) {
            float acc = 0.0f;
            for (std::int64_t kk = 0; kk < p.k; ++kk) {
                acc = std::fma(p.a[i * p.lda + kk], p.w[j * p.k + kk], acc);
            }
            p.c[i * p.ldc + j] = p.bias != nullptr ? acc + p.bias[j] : acc;
        }
    }
}

void matmulCpu(const MatmulParams& p, std::int64_t panelBegin, std::int64_t panelEnd, CpuIsa isa) {
    if (p.packed == nullptr || p.packed->n != p.n || p.packed->k != p.k || p.lda < p.k ||
        p.ldc < p.n) {
        throw std::invalid_argument("matmulCpu: packed weight or strides do not match the shapes");
    }
    requireIsa(isa);
    switch (isa) {
#if defined(__x86_64__)
    case CpuIsa::Avx512:
        return isa_avx512::matmul(p, panelBegin, panelEnd);
    case CpuIsa::Avx2:
        return isa_avx2::matmul(p, panelBegin, panelEnd);
#endif
    default:
        return isa_scalar::matmul(p, panelBegin, panelEnd);
    }
}

void normCpu(const NormParams& p, std::int64_t rowBegin, std::int64_t rowEnd, CpuIsa isa) {
    if (p.h <= 0 || p.ldx < p.h || p.ldy < p.h) {
        throw std::invalid_argument("normCpu: bad row size or stride");
    }
    requireIsa(isa);
    switch (isa) {
#if defined(__x86_64__)
    case CpuIsa::Avx512:
        return isa_avx512::norm(p, rowBegin, rowEnd);
    case CpuIsa::Avx2:
        return isa_avx2::norm(p, rowBegin, rowEnd);
#endif
    default:
        return isa_scalar::norm(p, rowBegin, rowEnd);
    }
}

std::int64_t attentionUnits(const AttentionParams& p) {
    return p.batch * p.heads;
}

void checkAttention(const AttentionParams& p, const char* who) {
    const std::string name(who);
    if (p.heads <= 0 || p.kv_heads <= 0 || p.heads % p.kv_heads != 0 || p.head_dim <= 0 ||
        p.q_row_stride < p.heads * p.head_dim || p.kv_row_stride < p.kv_heads * p.head_dim) {
        throw std::invalid_argument(name + ": inconsistent heads, head size or strides");
    }
    if (attentionKeys(p) < p.len) {
        throw std::invalid_argument(name + ": fewer key positions than queries");
    }
    for (std::int64_t b = 0; b < p.batch; ++b) {
        if (p.start[b] < 0 || p.length[b] < 1 || p.start[b] + p.length[b] > attentionKeys(p)) {
            throw std::invalid_argument(name + ": a row's real tokens lie outside the batch");
        }
    }
}

void attentionCpu(const AttentionParams& p, std::int64_t unitBegin, std::int64_t unitEnd,
                  CpuIsa isa) {
    checkAttention(p, "attentionCpu");
    requireIsa(isa);
    switch (isa) {
#if defined(__x86_64__)
    case CpuIsa::Avx512:
        return isa_avx512::attention(p, unitBegin, unitEnd);
    case CpuIsa::Avx2:
        return isa_avx2::attention(p, unitBegin, unitEnd);
#endif
    default:
        return isa_scalar::attention(p, unitBegin, unitEnd);
    }
}

float laneSum(const float* x, std::int64_t n) {
    return isa_scalar::rowSum(x, n);
}

void activationCpu(Activation f, const float* x, float* y, std::int64_t n) {
    constexpr float kSqrtHalf = 0.70710678118654752440f;
    constexpr float kSqrt2OverPi = 0.79788456080286535588f;
    for (std::int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        switch (f) {
        case Activation::Silu:
            y[i] = v / (1.0f + std::exp(-v));
            break;
        case Activation::GeluErf:
            y[i] = v * 0.5f * (1.0f + std::erf(v * kSqrtHalf));
            break;
        case Activation::GeluTanh:
            y[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * (v + 0.044715f * v * v * v)));
            break;
        case Activation::Relu:
            y[i] = v > 0.0f ? v : 0.0f;
            break;
        case Activation::Tanh:
            y[i] = std::tanh(v);
            break;
        }
    }
}

void siluMulCpu(const float* gate, const float* up, float* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) {
        const float g = gate[i];
        y[i] = (g / (1.0f + std::exp(-g))) * up[i];
    }
}

} // namespace probaudit::kernels
