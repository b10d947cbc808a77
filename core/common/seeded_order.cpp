#include "common/seeded_order.h"

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

} // namespace probaudit
