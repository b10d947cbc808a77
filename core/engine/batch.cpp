#include "core/engine/batch.h"

#include "core/common/error.h"

#include <algorithm>

namespace probaudit::engine {

void markKernels(Batch& b, const RunConfig& c) {
    b.invariant = c.kernels == Kernels::BatchInvariant;
    b.invariant_attention = b.invariant || c.attention == Attention::BatchInvariant;
    b.onednn_gemm = c.gemm == Gemm::Onednn;
}

Batch makeBatch(const std::vector<std::vector<std::int32_t>>& rows, PaddingSide paddingSide,
                PadTo padTo, std::int64_t padToN, std::int32_t padId) {
    if (rows.empty()) {
        throw Error("empty batch");
    }
    std::int64_t longest = 0;
    for (const auto& r : rows) {
        if (r.empty()) {
            throw Error("an item has no tokens");
        }
        longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(r.size()));
    }
    std::int64_t L = longest;
    if (padTo == PadTo::Multiple) {
        L = (longest + padToN - 1) / padToN * padToN;
    } else if (padTo == PadTo::Fixed) {
        if (longest > padToN) {
            throw Error("an item of " + std::to_string(longest) +
                        " tokens does not fit pad_to fixed " + std::to_string(padToN));
        }
        L = padToN;
    }
    const bool left = paddingSide == PaddingSide::Left;
    const auto B = static_cast<std::int64_t>(rows.size());
    Batch b;
    b.input_ids = at::full({B, L}, padId, at::kLong);
    b.attention_mask = at::zeros({B, L}, at::kLong);
    b.position_ids = at::zeros({B, L}, at::kLong);
    auto ids = b.input_ids.accessor<std::int64_t, 2>();
    auto mask = b.attention_mask.accessor<std::int64_t, 2>();
    auto pos = b.position_ids.accessor<std::int64_t, 2>();
    for (std::int64_t i = 0; i < B; ++i) {
        const auto& r = rows[std::size_t(i)];
        const auto n = static_cast<std::int64_t>(r.size());
        const std::int64_t start = left ? L - n : 0;
        for (std::int64_t t = 0; t < n; ++t) {
            ids[i][start + t] = r[std::size_t(t)];
            mask[i][start + t] = 1;
            pos[i][start + t] = t;
        }
        b.start.push_back(start);
        b.length.push_back(n);
    }
    return b;
}

} // namespace probaudit::engine
