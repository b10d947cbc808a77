// The CPU kernels of kernels/invariant.h, written once and compiled once per instruction set
// (invariant_cpu_{scalar,avx2,avx512}.cpp define PA_ISA_NS and PA_ISA_LEVEL and include this).
// Everything here is private to its namespace, so no inline function compiled for AVX-512 can
// be picked by the linker for another instruction set.
//
// Only the matmul tile uses intrinsics; the rest is plain C++ in the canonical orders, which the
// compiler may vectorise but not reorder (no -ffast-math, -ffp-contract=off).
#include "kernels/invariant.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if PA_ISA_LEVEL >= 1
#include <immintrin.h>
#endif

namespace probaudit::kernels::PA_ISA_NS {
namespace {

// Canonical row sum (kernels/invariant.h): 16 lanes in order, then a pairwise tree.
inline float lanes16(float (&acc)[kLanes]) {
    for (int s = kLanes / 2; s > 0; s /= 2) {
        for (int l = 0; l < s; ++l) {
            acc[l] += acc[l + s];
        }
    }
    return acc[0];
}

inline float sumOf(const float* x, std::int64_t n) {
    float acc[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        for (int l = 0; l < kLanes; ++l) {
            acc[l] += x[i + l];
        }
    }
    for (int l = 0; i + l < n; ++l) {
        acc[l] += x[i + l];
    }
    return lanes16(acc);
}

// Canonical sum of (x_i - c)^2, each lane step one fma.
inline float sumSqDev(const float* x, std::int64_t n, float c) {
    float acc[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        for (int l = 0; l < kLanes; ++l) {
            const float d = x[i + l] - c;
            acc[l] = std::fma(d, d, acc[l]);
        }
    }
    for (int l = 0; i + l < n; ++l) {
        const float d = x[i + l] - c;
        acc[l] = std::fma(d, d, acc[l]);
    }
    return lanes16(acc);
}

// ---- matmul tiles: MR rows x one 32-column panel over k in [k0, k0 + kc) ---------------------
// A tile either starts its accumulators at zero (k0 == 0) or continues from the partial sums it
// stored in C for the previous k block: the stored value is the register's value, so each
// element still sees one accumulator running over k in order. The bias is added after the last
// block (`bias` is non-null only then).

#if PA_ISA_LEVEL == 2
constexpr int kMr = 6;
template <int MR>
void tile(const float* a, std::int64_t lda, const float* panel, std::int64_t kc, float* c,
          std::int64_t ldc, int cols, bool carry, const float* bias) {
    const __mmask16 m0 = cols >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << cols) - 1u);
    const __mmask16 m1 = cols >= 32   ? __mmask16(0xFFFF)
                         : cols <= 16 ? __mmask16(0)
                                      : __mmask16((1u << (cols - 16)) - 1u);
    __m512 lo[MR], hi[MR];
    for (int r = 0; r < MR; ++r) {
        lo[r] = carry ? _mm512_maskz_loadu_ps(m0, c + r * ldc) : _mm512_setzero_ps();
        hi[r] = carry ? _mm512_maskz_loadu_ps(m1, c + r * ldc + 16) : _mm512_setzero_ps();
    }
    for (std::int64_t kk = 0; kk < kc; ++kk) {
        const __m512 b0 = _mm512_loadu_ps(panel + kk * kPanelWidth);
        const __m512 b1 = _mm512_loadu_ps(panel + kk * kPanelWidth + 16);
        for (int r = 0; r < MR; ++r) {
            const __m512 ar = _mm512_set1_ps(a[r * lda + kk]);
            lo[r] = _mm512_fmadd_ps(ar, b0, lo[r]);
            hi[r] = _mm512_fmadd_ps(ar, b1, hi[r]);
        }
    }
    __m512 b0 = _mm512_setzero_ps(), b1 = _mm512_setzero_ps();
    if (bias != nullptr) {
        b0 = _mm512_maskz_loadu_ps(m0, bias);
        b1 = _mm512_maskz_loadu_ps(m1, bias + 16);
    }
    for (int r = 0; r < MR; ++r) {
        __m512 x0 = lo[r], x1 = hi[r];
        if (bias != nullptr) {
            x0 = _mm512_add_ps(x0, b0);
            x1 = _mm512_add_ps(x1, b1);
        }
        _mm512_mask_storeu_ps(c + r * ldc, m0, x0);
        _mm512_mask_storeu_ps(c + r * ldc + 16, m1, x1);
    }
}
#elif PA_ISA_LEVEL == 1
// 16 registers: 6 rows x 16 columns (12 accumulators) per pass, two passes per panel.
constexpr int kMr = 6;
template <int MR>
void tileHalf(const float* a, std::int64_t lda, const float* panel, std::int64_t kc, float* c,
              std::int64_t ldc, int cols, bool carry, const float* bias) {
    alignas(32) float buf[16];
    __m256 lo[MR], hi[MR];
    for (int r = 0; r < MR; ++r) {
        for (int j = 0; j < 16; ++j) {
            buf[j] = carry && j < cols ? c[r * ldc + j] : 0.0f;
        }
        lo[r] = _mm256_load_ps(buf);
        hi[r] = _mm256_load_ps(buf + 8);
    }
    for (std::int64_t kk = 0; kk < kc; ++kk) {
        const __m256 b0 = _mm256_loadu_ps(panel + kk * kPanelWidth);
        const __m256 b1 = _mm256_loadu_ps(panel + kk * kPanelWidth + 8);
        for (int r = 0; r < MR; ++r) {
            const __m256 ar = _mm256_broadcast_ss(a + r * lda + kk);
            lo[r] = _mm256_fmadd_ps(ar, b0, lo[r]);
            hi[r] = _mm256_fmadd_ps(ar, b1, hi[r]);
        }
    }
    for (int r = 0; r < MR; ++r) {
        _mm256_store_ps(buf, lo[r]);
        _mm256_store_ps(buf + 8, hi[r]);
        for (int j = 0; j < cols && j < 16; ++j) {
            c[r * ldc + j] = bias != nullptr ? buf[j] + bias[j] : buf[j];
        }
    }
}
template <int MR>
void tile(const float* a, std::int64_t lda, const float* panel, std::int64_t kc, float* c,
          std::int64_t ldc, int cols, bool carry, const float* bias) {
    tileHalf<MR>(a, lda, panel, kc, c, ldc, cols, carry, bias);
    if (cols > 16) {
        tileHalf<MR>(a, lda, panel + 16, kc, c + 16, ldc, cols - 16, carry,
                     bias != nullptr ? bias + 16 : nullptr);
    }
}
#else
constexpr int kMr = 4;
template <int MR>
void tile(const float* a, std::int64_t lda, const float* panel, std::int64_t kc, float* c,
          std::int64_t ldc, int cols, bool carry, const float* bias) {
    float acc[MR][kPanelWidth] = {};
    if (carry) {
        for (int r = 0; r < MR; ++r) {
            for (int j = 0; j < cols; ++j) {
                acc[r][j] = c[r * ldc + j];
            }
        }
    }
    for (std::int64_t kk = 0; kk < kc; ++kk) {
        const float* b = panel + kk * kPanelWidth;
        for (int r = 0; r < MR; ++r) {
            const float ar = a[r * lda + kk];
            for (int j = 0; j < kPanelWidth; ++j) {
                acc[r][j] = std::fma(ar, b[j], acc[r][j]);
            }
        }
    }
    for (int r = 0; r < MR; ++r) {
        for (int j = 0; j < cols; ++j) {
            c[r * ldc + j] = bias != nullptr ? acc[r][j] + bias[j] : acc[r][j];
        }
    }
}
#endif

// Blocking for the caches: a block of kMBlock rows x kKBlock of A (~120 KB) stays in L2 while
// every panel of the thread's range passes; a panel's kKBlock x 32 slice (32 KB) stays in L1
// while the block's tiles use it. Blocking changes where partial sums wait, never their order.
constexpr std::int64_t kMBlock = 20 * kMr;
constexpr std::int64_t kKBlock = 256;

template <int MR>
void rows(const MatmulParams& p, std::int64_t m0, std::int64_t panel, std::int64_t k0,
          std::int64_t kc) {
    const std::int64_t j0 = panel * kPanelWidth;
    const int cols = static_cast<int>(std::min<std::int64_t>(kPanelWidth, p.n - j0));
    const bool last = k0 + kc >= p.k;
    tile<MR>(p.a + m0 * p.lda + k0, p.lda,
             p.packed->panels.data() + (panel * p.k + k0) * kPanelWidth, kc, p.c + m0 * p.ldc + j0,
             p.ldc, cols, k0 > 0, last && p.bias != nullptr ? p.bias + j0 : nullptr);
}

template <int MR>
void remainder(const MatmulParams& p, std::int64_t m0, std::int64_t panel, std::int64_t k0,
               std::int64_t kc, std::int64_t left) {
    if constexpr (MR > 0) {
        if (left == MR) {
            rows<MR>(p, m0, panel, k0, kc);
        } else {
            remainder<MR - 1>(p, m0, panel, k0, kc, left);
        }
    }
}

} // namespace

void matmul(const MatmulParams& p, std::int64_t panelBegin, std::int64_t panelEnd) {
    for (std::int64_t mb = 0; mb < p.m; mb += kMBlock) {
        const std::int64_t me = std::min(p.m, mb + kMBlock);
        for (std::int64_t k0 = 0; k0 < p.k; k0 += kKBlock) {
            const std::int64_t kc = std::min(kKBlock, p.k - k0);
            for (std::int64_t panel = panelBegin; panel < panelEnd; ++panel) {
                std::int64_t m0 = mb;
                for (; m0 + kMr <= me; m0 += kMr) {
                    rows<kMr>(p, m0, panel, k0, kc);
                }
                if (m0 < me) {
                    remainder<kMr - 1>(p, m0, panel, k0, kc, me - m0);
                }
            }
        }
    }
}

void norm(const NormParams& p, std::int64_t rowBegin, std::int64_t rowEnd) {
    const float h = static_cast<float>(p.h);
    for (std::int64_t r = rowBegin; r < rowEnd; ++r) {
        const float* x = p.x + r * p.ldx;
        float* y = p.y + r * p.ldy;
        if (p.rms) {
            const float inv = 1.0f / std::sqrt(sumSqDev(x, p.h, 0.0f) / h + p.eps);
            for (std::int64_t i = 0; i < p.h; ++i) {
                const float v = x[i] * inv;
                y[i] = p.weight != nullptr ? p.weight[i] * v : v;
            }
        } else {
            const float mean = sumOf(x, p.h) / h;
            const float rstd = 1.0f / std::sqrt(sumSqDev(x, p.h, mean) / h + p.eps);
            for (std::int64_t i = 0; i < p.h; ++i) {
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
}

void attention(const AttentionParams& p, std::int64_t unitBegin, std::int64_t unitEnd) {
    const std::int64_t D = p.head_dim;
    const std::int64_t rep = p.heads / p.kv_heads;
    std::vector<float> kt; // F32 [D, n]: the unit's real keys, transposed
    std::vector<float> s;  // F32 [n]: scores, then probabilities
    for (std::int64_t u = unitBegin; u < unitEnd; ++u) {
        const std::int64_t b = u / p.heads;
        const std::int64_t h = u % p.heads;
        const std::int64_t kvh = h / rep;
        const std::int64_t n = p.length[b];
        const std::int64_t st = p.start[b];
        const std::int64_t T = attentionKeys(p);
        const std::int64_t qOff = T - p.len; // key position of query 0
        for (std::int64_t t = 0; t < p.len; ++t) {
            float* o = p.out + ((b * p.len + t) * p.heads + h) * D;
            std::fill(o, o + D, 0.0f);
        }
        kt.resize(std::size_t(D * n));
        s.resize(std::size_t(n));
        for (std::int64_t j = 0; j < n; ++j) {
            const float* kr = p.k + (b * T + st + j) * p.kv_row_stride + kvh * D;
            for (std::int64_t d = 0; d < D; ++d) {
                kt[std::size_t(d * n + j)] = kr[d];
            }
        }
        for (std::int64_t tq = std::max<std::int64_t>(0, qOff - st); tq < n; ++tq) {
            const std::int64_t t = st + tq - qOff; // the query's position in q and out
            const float* qr = p.q + (b * p.len + t) * p.q_row_stride + h * D;
            const std::int64_t nk = p.causal ? tq + 1 : n;
            float* sc = s.data();
            std::fill(sc, sc + nk, 0.0f);
            for (std::int64_t d = 0; d < D; ++d) {
                const float qd = qr[d];
                const float* kd = kt.data() + d * n;
                for (std::int64_t j = 0; j < nk; ++j) {
                    sc[j] = std::fma(qd, kd[j], sc[j]);
                }
            }
            float mx = -INFINITY;
            for (std::int64_t j = 0; j < nk; ++j) {
                sc[j] = sc[j] * p.scale;
                mx = std::max(mx, sc[j]);
            }
            for (std::int64_t j = 0; j < nk; ++j) {
                sc[j] = std::exp(sc[j] - mx);
            }
            const float sum = sumOf(sc, nk);
            for (std::int64_t j = 0; j < nk; ++j) {
                sc[j] = sc[j] / sum;
            }
            float* o = p.out + ((b * p.len + t) * p.heads + h) * D;
            for (std::int64_t j = 0; j < nk; ++j) {
                const float pj = sc[j];
                const float* vr = p.v + (b * T + st + j) * p.kv_row_stride + kvh * D;
                for (std::int64_t d = 0; d < D; ++d) {
                    o[d] = std::fma(pj, vr[d], o[d]);
                }
            }
        }
    }
}

float rowSum(const float* x, std::int64_t n) {
    return sumOf(x, n);
}

} // namespace probaudit::kernels::PA_ISA_NS
