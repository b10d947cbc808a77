#pragma once
// Independent reproduction (`probaudit reproduce BUNDLE`): a bundle's runs imported into a
// ledger beside the same configs recorded again here, each reproduced run classified against
// the bundle's run of the same head and config:
//   exact           the same numbers, bit for bit;
//   within policy   other bits, but the difference is within what the study's policy allows that
//                   config (every check of a rule that selects it passes on the pair);
//   cross-numerics  other bits from another environment, whose differences are named;
//   drift           other bits from the same environment: the red flag (something the
//                   fingerprint does not see changed the numbers).
// Works on stored records only.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit::policy {

enum class Reproduction { Exact, WithinPolicy, CrossNumerics, Drift };
std::string_view reproductionName(Reproduction r); // exact | within policy | ...

struct ReproducedRun {
    std::string head, config;
    std::int64_t original_run = 0, reproduced_run = 0;
    std::string original_env, reproduced_env; // environment hashes
    Reproduction kind = Reproduction::Exact;
    std::int64_t items = 0, flips = 0;
    double max_dp = 0, bit_identical_share = 1;
    std::vector<std::string> env_differences; // what can move numbers, one sentence each
    std::string detail;                       // one sentence
};

struct ReproductionResult {
    std::string ledger;
    std::vector<ReproducedRun> runs;
    std::vector<std::string> not_reproduced; // "head / config" of bundle runs without a rerun
    bool drift() const;
    // 0 every run reproduced (exactly, within the policy or with its environment named);
    // protocol::kExitResultsDiffer when one drifted; kExitError when nothing was reproduced.
    int exitCode() const;
    // The statement's assurance level: "reproduced" (every bundle run, none drifted),
    // "partially reproduced" (some not rerun here, none drifted), "drift", "not reproduced".
    std::string assurance() const;
    nlohmann::json toJson() const;
};

// Pairs every run imported from a bundle (labelled "imported from ...") with the latest study
// run of the same head and config recorded in this ledger. Throws probaudit::Error naming the
// ledger when it cannot be read.
ReproductionResult classifyReproduction(const std::string& ledgerPath);

// The statement a reproduction signs (attestation.h's envelope): subjects the bundle and the
// ledger, predicate the assurance level (assurance()), both environments of every run and its
// classification.
nlohmann::json reproductionStatement(const ReproductionResult& r, const std::string& bundlePath);

} // namespace probaudit::policy
