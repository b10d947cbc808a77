#pragma once
// `probaudit merge SHARD.ledger ... -o OUT.ledger`: the ledgers of a sharded study
// (`probaudit run --shard I/N`, runner/study_session.h) joined into one sealed ledger, as if one
// node had recorded the study. Before anything is written, every shard must verify (chain and
// seals), name its place (meta "shard" I/N, every I of one N exactly once), hold the same study,
// model digest, dataset and items, have no unfinished run, and record the same runs (head,
// config, capture) in the same environment; every item of every run must be recorded by
// exactly one shard. Each merged run has the shards' records in item order (their batches,
// rows, padding and wall times as recorded), its environment and config, the kernel trace of
// the first shard that has one, started at the earliest shard's start and finished at the
// latest shard's finish; it is sealed in the new ledger's chain. A merge that is refused writes
// nothing: the output is written under a temporary name and renamed at the end. Torch-free.
#include <string>
#include <vector>

namespace probaudit::ledger {

struct MergeResult {
    std::size_t shards = 0;
    std::size_t runs = 0;
    std::size_t items = 0;
};

// Throws probaudit::Error naming the shard (its file) and the reason; `out` must not exist.
MergeResult mergeShards(const std::vector<std::string>& shards, const std::string& out);

} // namespace probaudit::ledger
