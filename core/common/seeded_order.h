#pragma once
// A seeded permutation: the engine's "shuffled" item order, the serving simulation's arrivals
// and the order an endpoint run sends its requests in all come from here, so the same seed
// means the same order everywhere.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace probaudit {

// 0..n-1 shuffled by Fisher-Yates with std::mt19937_64(seed) (j = gen() % i): the same seed
// gives the same order on every machine.
std::vector<std::size_t> seededOrder(std::size_t n, std::uint64_t seed);

} // namespace probaudit
