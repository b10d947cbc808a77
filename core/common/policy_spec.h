#pragma once
// A study's policy (DESIGN.md, "policy / verdict"): acceptance rules written into the study
// file ($.policy) and sealed with it before the runs, so that `probaudit gate` turns the
// recorded runs into a verdict nobody chose after seeing them. A rule selects configs (names,
// "all", or a class: the configs that differ from the rule's comparison config in that kind of
// axis) and sets limits on how each selected config compares with it. Torch-free and Qt-free;
// policy/gate.h evaluates it on a ledger. docs/study-file.md, "Policy", documents the format.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit {

// What a limit is on. Record heads (label tokens, adapter, classifier) have decisions and
// probabilities; generation heads have texts, records and per-token distributions.
enum class Criterion {
    MaxFlips,             // flips <= limit (a count)
    MaxFlipRate,          // the upper end of the flip rate's Wilson 95% interval <= limit
    MinAgreement,         // agreement >= limit
    MaxDpPoints,          // the largest Δp (points) <= limit
    BitIdentical,         // every item bit-identical (generation: the same tokens and text)
    AccuracyMarginPoints, // the paired 95% interval of the accuracy difference inside ±limit
    MinJaccard,           // the pooled Jaccard index of the records >= limit
    MinAnswerAgreement,   // the share of items whose reduced answers agree >= limit
    MaxKl,                // the largest per-token KL divergence (nats) <= limit
};

std::string_view criterionName(Criterion c);
std::optional<Criterion> criterionFromName(std::string_view name);
// Whether a head of this kind can be judged by the criterion.
bool criterionApplies(Criterion c, bool generationHead);

// The classes a rule may select configs by, each a kind of axis: shape, kernels, dtype,
// threads, serving, environment.
const std::vector<std::string_view>& configClasses();
// The classes a config belongs to, from the axes in which it differs from the rule's comparison
// config (ReviewRow::differs_in: axis names, and "environment" for a run of another machine).
std::vector<std::string> classesOf(const std::vector<std::string>& differingAxes);

struct PolicyCheck {
    Criterion criterion = Criterion::MaxFlips;
    double limit = 0; // bit_identical: 1
};

struct PolicyRule {
    std::string name;
    bool all_configs = false;         // "configs": "all"
    std::vector<std::string> configs; // by name
    std::vector<std::string> classes; // {"class": "dtype"}
    std::string against;              // the config compared with; "" = the study's reference
    std::string head;                 // a head variant; "" = every head a check applies to
    std::vector<PolicyCheck> checks;  // by criterion name
};

struct Policy {
    std::vector<PolicyRule> rules;
    bool empty() const { return rules.empty(); }
    // The file's form with keys sorted (checks by criterion name): what the ledger stores and
    // digests; fromJson(toJson()) is the same policy.
    nlohmann::json toJson() const;
    // SHA-256 (hex) of toJson()'s compact text: equal for two policies that say the same thing.
    std::string sha256() const;
    // $.policy as written: {"rules": [...]}. Problems are appended to `errors`, each with its
    // JSON path; names of configs and heads are checked by checkAgainstStudy.
    static Policy fromJson(const nlohmann::json& j, const std::string& path,
                           std::vector<std::string>& errors);
    // Each rule's configs, "against" and head must be the study's; each check must apply to the
    // rule's head (or, for every head, to at least one). `heads`: the study's heads by name,
    // true for a generation head.
    void checkAgainstStudy(const std::vector<std::string>& configNames,
                           const std::vector<std::pair<std::string, bool>>& heads,
                           const std::string& path, std::vector<std::string>& errors) const;
};

// "1–9", "1–3, 5, 7–8": run ids as a reader counts them (sorted, ranges joined with an en dash).
std::string runRanges(std::vector<std::int64_t> ids);

} // namespace probaudit
