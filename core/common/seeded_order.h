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

// The "neighbours_shuffled" order: the items cut into batches of `batch` as given, each keeps
// its row (its position in its batch) and the batch it sits in is shuffled, row by row, with
// seed. Two seeds give the same item the same row and other batch-mates: the content of its
// neighbours changes, nothing else (the first field report's neighbour probe).
std::vector<std::size_t> neighboursShuffled(std::size_t n, std::size_t batch, std::uint64_t seed);

} // namespace probaudit
