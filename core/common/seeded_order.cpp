#include "core/common/seeded_order.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

namespace probaudit {

std::vector<std::size_t> seededOrder(std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 gen(seed);
    for (std::size_t i = order.size(); i > 1; --i) {
        const std::size_t j = static_cast<std::size_t>(gen() % i);
        std::swap(order[i - 1], order[j]);
    }
    return order;
}

std::vector<std::size_t> neighboursShuffled(std::size_t n, std::size_t batch, std::uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (batch == 0) {
        return order;
    }
    for (std::size_t row = 0; row < std::min(batch, n); ++row) {
        const std::size_t batches = (n - row + batch - 1) / batch; // that have this row
        // Each row its own permutation, from one seed: rows differ, the same seed repeats.
        const auto perm = seededOrder(batches, seed * 0x9E3779B97F4A7C15ull + row);
        for (std::size_t b = 0; b < batches; ++b) {
            order[b * batch + row] = perm[b] * batch + row;
        }
    }
    return order;
}

} // namespace probaudit
