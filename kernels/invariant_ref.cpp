// CPU kernels of kernels/invariant_cuda.h that have no instruction-set variants: RoPE, mean
// pooling, L2 normalisation and the row divergence reduction.
#include "kernels/invariant_cuda.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace probaudit::kernels {

void ropeCpu(const RopeParams& p, std::int64_t rowBegin, std::int64_t rowEnd) {
    const std::int64_t half = p.dim / 2;
    std::vector<float> c(static_cast<std::size_t>(half)), s(static_cast<std::size_t>(half));
    for (std::int64_t r = rowBegin; r < rowEnd; ++r) {
        const float position = static_cast<float>(p.positions[r]);
        for (std::int64_t i = 0; i < half; ++i) {
            const float angle = p.inv_freq[i] * position; // the reference's float32 product
            c[std::size_t(i)] = std::cos(angle);
            s[std::size_t(i)] = std::sin(angle);
        }
        for (std::int64_t h = 0; h < p.heads; ++h) {
            const float* x = p.x + (r * p.heads + h) * p.dim;
            float* y = p.y + (r * p.heads + h) * p.dim;
            for (std::int64_t i = 0; i < half; ++i) {
                const float ci = c[std::size_t(i)], si = s[std::size_t(i)];
                const float lo = x[i] * ci + (-x[i + half]) * si;
                const float hi = x[i + half] * ci + x[i] * si;
                y[i] = lo;
                y[i + half] = hi;
            }
        }
    }
}

void checkMeanPool(const MeanPoolParams& p, const char* who) {
    if (p.h <= 0 || p.batch < 0) {
        throw std::invalid_argument(std::string(who) + ": bad batch or row size");
    }
    for (std::int64_t r = 0; r < p.batch; ++r) {
        if (p.start[r] < 0 || p.length[r] < 1 || p.start[r] + p.length[r] > p.len) {
            throw std::invalid_argument(std::string(who) +
                                        ": a row's real tokens lie outside the batch");
        }
    }
}

void meanPoolCpu(const MeanPoolParams& p) {
    checkMeanPool(p, "meanPoolCpu");
    for (std::int64_t r = 0; r < p.batch; ++r) {
        const std::int64_t n = p.length[r];
        const float* first = p.hidden + (r * p.len + p.start[r]) * p.h;
        float* o = p.out + r * p.h;
        std::fill(o, o + p.h, 0.0f);
        for (std::int64_t t = 0; t < n; ++t) { // tokens in order, one add each
            for (std::int64_t i = 0; i < p.h; ++i) {
                o[i] += first[t * p.h + i];
            }
        }
        const float count = static_cast<float>(n);
        for (std::int64_t i = 0; i < p.h; ++i) {
            o[i] = o[i] / count;
        }
    }
}

void l2NormalizeCpu(float* x, std::int64_t rows, std::int64_t h) {
    std::vector<float> sq(static_cast<std::size_t>(h));
    for (std::int64_t r = 0; r < rows; ++r) {
        float* row = x + r * h;
        for (std::int64_t i = 0; i < h; ++i) {
            sq[std::size_t(i)] = row[i] * row[i];
        }
        const float norm = std::max(std::sqrt(laneSum(sq.data(), h)), 1e-12f);
        for (std::int64_t i = 0; i < h; ++i) {
            row[i] = row[i] / norm;
        }
    }
}

void rowDivergenceCpu(const RowDivergenceParams& p) {
    if (p.n < 0 || p.ld_ref < p.n || p.ld_cfg < p.n) {
        throw std::invalid_argument("rowDivergenceCpu: bad row size or stride");
    }
    for (std::int64_t r = 0; r < p.rows; ++r) {
        const float* a = p.ref + r * p.ld_ref;
        const float* b = p.cfg + r * p.ld_cfg;
        double d2 = 0, r2 = 0;
        float mx = 0;
        std::int64_t diff = 0;
        for (std::int64_t i = 0; i < p.n; ++i) {
            const double d = double(a[i]) - double(b[i]);
            d2 += d * d;
            r2 += double(a[i]) * double(a[i]);
            mx = std::max(mx, static_cast<float>(std::abs(d)));
            diff += std::memcmp(a + i, b + i, 4) != 0 ? 1 : 0;
        }
        p.sq_diff[r] = d2;
        p.sq_ref[r] = r2;
        p.max_abs[r] = mx;
        p.differing[r] = diff;
    }
}

} // namespace probaudit::kernels
