#pragma once
// Differences between two environment fingerprints (`probaudit env --json`), each classified:
// can it move the numbers? Used by `probaudit check` against a runtime lock and by the
// diagnosis when runs from two environments are compared.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::analysis {

struct EnvDifference {
    std::string path; // "torch.version", "env_vars.OMP_NUM_THREADS", "libraries.libcublas.so.13"
    nlohmann::json pinned, current; // null when absent on that side
    bool moves_numerics = true;
    std::string why; // one sentence
};

std::vector<EnvDifference> fingerprintDiff(const nlohmann::json& pinned,
                                           const nlohmann::json& current);

// The differences between the environments of two runs A and B that can move numbers, one
// sentence each, kernel libraries first, then packages, then the rest ("flash-linear-attention
// 0.5.2 present in A, absent in B"; "torch: 2.11.0 in A, 2.10.0 in B: another libtorch build
// ..."); thread counts are left out (a config axis of their own). At most `limit` sentences,
// the last one saying how many more there are.
std::vector<std::string> environmentSentences(const nlohmann::json& a, const nlohmann::json& b,
                                              std::size_t limit = 12);

} // namespace probaudit::analysis
