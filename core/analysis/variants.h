#pragma once
// Model variants compared as an auditor needs it (`probaudit summary --variants`): each
// variant's config against the reference variant's config with the same runtime settings, its
// change split into churn (correctness changed either way) and net (the accuracy difference),
// and all of it against the runtime noise floor: what the reference variant's own runtime
// configs (batching, padding, dtype, threads, ...) already change.
#include "core/analysis/review.h"
#include "core/analysis/stats.h"
#include "core/analysis/vocabulary_kl.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

struct VariantRow {
    std::string config;   // the variant's config
    std::string variant;  // its model variant
    std::string baseline; // the reference variant's config with the same runtime settings
    std::int64_t items = 0;
    std::int64_t flips = 0; // decisions that differ from the baseline's
    double max_dp = 0, p99_dp = 0;
    std::int64_t labelled = 0;
    std::int64_t broke = 0, fixed = 0; // right -> wrong, wrong -> right (labelled items)
    Interval churn;                    // (broke + fixed) / labelled, Wilson 95%
    std::optional<Interval> net;       // accuracy variant - baseline, paired bootstrap 95%
    // More flips than any runtime config of the reference variant, or as many and a larger Δp.
    bool above_floor = false;
    std::int64_t run = 0, baseline_run = 0; // the two runs compared
    // KL over the whole vocabulary and same top token, baseline -> variant, where the head
    // records its vocabulary in both runs (addVocabularyKl); a mean KL above every runtime
    // config's is above the floor.
    std::optional<VocabularyKl> kl;
    bool kl_above_floor = false;
};

// The reference variant under the study's other runtime configs, against the reference config.
struct RuntimeFloor {
    int configs = 0;              // runtime configs of the reference variant with a run
    std::int64_t max_flips = 0;   // the most flips any of them has
    std::string max_flips_config; // which ("" when none flips)
    double max_dp = 0;            // the largest Δp any of them has
    std::int64_t reference_run = 0;
    std::vector<std::pair<std::string, std::int64_t>> runs; // (config, run) of each of them
    // addVocabularyKl: the largest mean KL (over the vocabulary) of any of them against the
    // reference config, and which; none where no pair records its vocabulary.
    std::optional<double> kl_mean;
    std::string kl_config;
};

struct VariantTable {
    std::string reference_variant;
    RuntimeFloor floor;
    std::vector<VariantRow> rows;
    // Variant configs with a run but no baseline (no config of the reference variant with the
    // same runtime settings has a run in the home environment).
    std::vector<std::string> unpaired;
};

// Empty rows when the study has no model variants. Rows of other environments are left out.
VariantTable variantTable(const Review& rv);

// Fills the KL and same-top-token columns (and the floor's) from the vocabularies `led` holds
// for the rows' runs; rows whose runs record none keep no KL. Throws probaudit::Error when two
// compared runs' vocabularies differ in size.
void addVocabularyKl(VariantTable& t, const ledger::Ledger& led);

nlohmann::json toJson(const VariantTable& t);

// The table's cells as the CLI and the report write them: "2.5% [1.1, 5.7]" of a share,
// "+0.5 [-1.0, +2.0]" points of an accuracy difference ("n/a (no labels)" without one),
// "0.0123" nats of a KL divergence (small ones in scientific notation).
std::string formatShare(const Interval& i);
std::string formatNetPoints(const std::optional<Interval>& i);
std::string formatNats(double kl);

// The diagnosis ladder's "model variant" step, from the study configs explained against the
// reference: whether a config that differs from the reference in its model variant alone
// changes more (flips, then Δp) than any runtime config of the reference variant does.
// Explains when one does, clean when none does, untested when the floor or the variant is not
// measured; none for a study without variant configs.
std::optional<LadderStep> variantStep(const std::vector<ConfigExplanation>& configs);

} // namespace probaudit::analysis
