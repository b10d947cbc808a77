#include "engine/batch.h"

#include "common/error.h"

#include <algorithm>

namespace probaudit::engine {

void markKernels(Batch& b, const RunConfig& c) {
    b.invariant = c.kernels == "batch_invariant";
    b.invariant_attention = b.invariant || c.attention == "batch_invariant";
    b.onednn_gemm = c.gemm == "onednn";
}

Batch makeBatch(const std::vector<std::vector<std::int32_t>>& rows, const std::string& paddingSide,
                const std::string& padTo, std::int64_t padToN, std::int32_t padId) {
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
    if (padTo == "multiple") {
        L = (longest + padToN - 1) / padToN * padToN;
    } else if (padTo == "fixed") {
        if (longest > padToN) {
            throw Error("an item of " + std::to_string(longest) +
                        " tokens does not fit pad_to fixed " + std::to_string(padToN));
        }
        L = padToN;
    } else if (padTo != "longest") {
        throw Error("unknown pad_to \"" + padTo + "\"");
    }
    const bool left = paddingSide == "left";
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
