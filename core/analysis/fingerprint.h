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

} // namespace probaudit::analysis
