#pragma once
// The gate (DESIGN.md, "policy / verdict"): a study's policy evaluated on the runs its ledger
// holds. Every rule is checked for every head it applies to and every config it selects, each
// config's latest finished run against the rule's comparison config's (the study's reference
// unless the rule says "against"). A check that cannot be evaluated (a run missing or
// unfinished, no labels for an accuracy margin, Δp unknown for some items) is never a pass.
// Works on stored records only (analysis/review.h).
#include "core/analysis/compare.h"
#include "core/analysis/stats.h"
#include "core/common/policy_spec.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::policy {

enum class Outcome { Pass, Fail, Unknown };
std::string_view outcomeName(Outcome o); // PASS | FAIL | UNKNOWN

struct GateRow {
    std::string rule;
    Criterion criterion = Criterion::MaxFlips;
    std::string head;
    std::string config;  // the review row: the config's name, "NAME @ env:HASH" for another machine
    std::string against; // the config compared with
    double limit = 0;
    std::optional<double> measured;             // in the criterion's unit
    std::optional<analysis::Interval> interval; // 95%, in the same unit, where there is one
    std::int64_t items = 0;                     // compared
    Outcome outcome = Outcome::Unknown;
    std::string detail;                    // one sentence: what was seen, or why unknown
    std::int64_t run = 0, against_run = 0; // 0: none
    std::vector<std::int64_t> flagged;     // items behind a failure (flips, Δp over)
    bool late = false;                     // a run recorded before the policy was
    std::string measuredText() const;      // "2 of 64", "0.9844", "3.1 points"
    std::string limitText() const;         // "<= 0", ">= 0.999", "inside ±1 points"
};

struct GateResult {
    std::string ledger;
    Policy policy;
    std::string policy_sha256;
    bool from_ledger = true; // the ledger's own policy (not --study's)
    // When the policy was registered: "before every run", "after runs 1–9", or why not known.
    std::string registration;
    std::vector<std::int64_t> late_runs; // runs judged here that were recorded before it
    // The ledger's hash chain, verified first: a ledger changed after it was sealed is judged
    // by nothing (exit kExitTampered, `tampered` saying what changed).
    std::string tampered;
    std::vector<GateRow> rows;
    int passed = 0, failed = 0, unknown = 0;
    // kExitTampered when the chain is broken; else 0 every check passed; kExitRuleFailed when
    // one failed; kExitRuleUnknown when none failed but one could not be evaluated (protocol.h).
    int exitCode() const;
    nlohmann::json toJson() const;
};

// One check of a decision head (row.criterion, row.limit) on a comparison of B against A: fills
// measured, interval, items, outcome and detail.
void judgeRecords(GateRow& row, const analysis::Comparison& c);

// Evaluates `override` (a policy read from a study file) or else the policy the ledger's study
// holds. Throws probaudit::Error naming the ledger when it cannot be read, or has no policy.
GateResult gate(const std::string& ledgerPath, const std::optional<Policy>& override = {});

} // namespace probaudit::policy
