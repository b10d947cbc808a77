#pragma once
// A padded batch: token ids, attention mask and position ids laid out as the reference does
// them, so that a padded item means exactly what it means alone (only the arithmetic may
// differ): pads are masked out as keys, and positions count real tokens only (cumsum of the
// mask minus one, as generate() does for left padding), with pad positions at 0.
#include "core/common/run_config.h"
#include "core/common/seeded_order.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::engine {

struct Batch {
    at::Tensor input_ids;             // I64 [B, L]
    at::Tensor attention_mask;        // I64 [B, L], 1 = real token
    at::Tensor position_ids;          // I64 [B, L]
    std::vector<std::int64_t> start;  // first real position of each row
    std::vector<std::int64_t> length; // real tokens of each row
    // Which ops run through the batch-invariant kernels (kernels/invariant.h): every op of the
    // forward pass and the head (RunConfig kernels: batch_invariant), or attention only
    // (attention: batch_invariant). Set by the engine per run.
    bool invariant = false;
    bool invariant_attention = false;
    // The layers' linear projections through oneDNN on packed weights (RunConfig gemm: onednn).
    bool onednn_gemm = false;
    std::int64_t rows() const { return static_cast<std::int64_t>(length.size()); }
    // No row has padding (every row fills the padded length).
    bool unpadded() const {
        for (auto n : length) {
            if (n != input_ids.size(1)) {
                return false;
            }
        }
        return true;
    }
    // Index of the row's last real token (the decision token of a causal model).
    std::int64_t last(std::int64_t row) const {
        return start[std::size_t(row)] + length[std::size_t(row)] - 1;
    }
};

// Sets which kernels a run's batch goes through (the flags above) from its configuration.
void markKernels(Batch& b, const RunConfig& c);

// padTo: the longest row, rounded up to a multiple of padToN, or exactly padToN (a longer row
// is an error).
Batch makeBatch(const std::vector<std::vector<std::int32_t>>& rows, PaddingSide paddingSide,
                PadTo padTo, std::int64_t padToN, std::int32_t padId);

} // namespace probaudit::engine
