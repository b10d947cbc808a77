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
//
// A shard's seals only say its chain is consistent: anyone who can write a shard can change a
// record and seal it again with the public algorithm. A signature that a shard carries but that
// no longer covers a head of its chain refuses it (ledger/trust.h); with a trusted public key
// every shard's current head must be signed by that key, so an edited, re-sealed shard is
// refused. The merged ledger's meta "merged_from" says which of the two the merge checked.
#include <string>
#include <vector>

namespace probaudit::ledger {

struct MergeResult {
    std::size_t shards = 0;
    std::size_t runs = 0;
    std::size_t items = 0;
    std::string signer; // the trusted key's fingerprint; "" when no key was given
};

// Throws probaudit::Error naming the shard (its file) and the reason; `out` must not exist.
// `trustedPublicPem` (a PEM public key, or ""): every shard's head must be signed by it.
MergeResult mergeShards(const std::vector<std::string>& shards, const std::string& out,
                        const std::string& trustedPublicPem = std::string());

} // namespace probaudit::ledger
