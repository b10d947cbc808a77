#pragma once
// Inputs shared by the CPU (test_invariant_kernels) and GPU (gpu/test_kernels_gpu) kernel
// suites: seeded random data and dense attention parameters. Qt-free.
#include "kernels/invariant.h"

#include <cmath>
#include <random>
#include <vector>

namespace kernel_test {

inline std::vector<float> randomVec(std::size_t n, std::uint32_t seed, float scale = 1.0f) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (auto& x : v) {
        x = d(gen);
    }
    return v;
}

// Attention over dense q [B, L, heads * dim] and k, v [B, L, kvHeads * dim], scale 1/sqrt(dim).
inline probaudit::kernels::AttentionParams
denseAttention(const float* q, const float* k, const float* v, float* out, std::int64_t batch,
               std::int64_t len, std::int64_t heads, std::int64_t kvHeads, std::int64_t dim,
               const std::int64_t* start, const std::int64_t* length, bool causal) {
    probaudit::kernels::AttentionParams p;
    p.q = q;
    p.k = k;
    p.v = v;
    p.out = out;
    p.batch = batch;
    p.len = len;
    p.heads = heads;
    p.kv_heads = kvHeads;
    p.head_dim = dim;
    p.q_row_stride = heads * dim;
    p.kv_row_stride = kvHeads * dim;
    p.start = start;
    p.length = length;
    p.causal = causal;
    p.scale = 1.0f / std::sqrt(float(dim));
    return p;
}

} // namespace kernel_test
