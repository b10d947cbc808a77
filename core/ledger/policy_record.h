#pragma once
// When a study's policy was registered, relative to the runs (DESIGN.md, "policy / verdict"):
// a policy is meant to be written before the runs it judges. The ledger keeps, in its sealed
// meta table, the digest of the policy its study holds and the runs that were already in the
// ledger when that policy was stored; a policy added or changed after runs is allowed, and
// every verdict on those runs says so ("registered after runs 1–9").
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::ledger {

struct PolicyRegistration {
    std::string sha256;                   // the policy's digest ("" when the study has none)
    std::vector<std::int64_t> after_runs; // runs recorded before it was registered
    std::string registered;               // UTC time
    nlohmann::json toJson() const;
    static std::optional<PolicyRegistration> fromJson(const nlohmann::json& j);
};

// The digest of a study JSON's policy ($.policy, canonical), "" when it has none.
std::string studyPolicySha256(const nlohmann::json& study);

// The registration recorded in the ledger; none for a ledger that has never stored one (a
// ledger written before policies existed) or whose record cannot be read.
std::optional<PolicyRegistration> policyRegistration(const Ledger& led);

void recordPolicyRegistration(Ledger& led, const PolicyRegistration& r);

// Called with the study JSON about to be stored and the one stored before it (null for a new
// ledger): when their policies differ, records the new one as registered now, after every run
// the ledger holds. Part of the caller's transaction.
void registerPolicy(Ledger& led, const nlohmann::json& stored, const nlohmann::json& next);

// Runs copied from `src` into `dst` (src run id -> dst run id), `dst`'s study being `src`'s: a
// copied run counts as recorded before `dst`'s policy only when it was before `src`'s and the
// two policies are the same; otherwise it is added to the runs registered before.
void carryPolicyRegistration(const Ledger& src, Ledger& dst,
                             const std::map<std::int64_t, std::int64_t>& copied);

} // namespace probaudit::ledger
