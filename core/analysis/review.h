#pragma once
// A study's review as the workbench, `probaudit summary` and the report show it: for one head
// variant, the latest finished run of every config compared against the reference config's
// run; a config also recorded in other environments (imported runs, another engine build)
// has one more row per environment, labelled with it. Loaded from a ledger opened read-only; works
// on stored records only.
#include "core/analysis/compare.h"
#include "core/analysis/diagnosis.h"
#include "core/analysis/exact_distance.h"
#include "core/analysis/generation_compare.h"
#include "core/analysis/request_stats.h"
#include "core/analysis/token_metrics.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/ledger/trust.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

struct VariantTable; // variants.h

struct ReviewRow {
    // The row's name in every view: the config's name, or for a run recorded in another
    // environment than the review's home one "NAME @ env:1a2b3c4d" (never shadowing the run
    // of the same config recorded here: both rows are shown).
    std::string config;
    std::string config_name;    // the study config the row's runs ran
    std::string env_hash;       // the environment of the row's run ("" when not run)
    std::string machine;        // its Review::machines entry ("" when not run)
    bool other_env = false;     // a run of another environment than the home one
    nlohmann::json config_json; // canonical RunConfig JSON from the study
    // axes whose value differs from the reference config, and "environment" for other_env
    std::vector<std::string> differs_in;
    bool reference = false;
    std::optional<ledger::Run> run; // the latest finished study run; none: not run yet
    std::optional<Comparison> cmp;  // the reference run (A) against this run (B)
    // Both sides' distance to the exact reference (Review::exact_config), when the study has
    // one; the reference row's own has A and B alike, the exact row none.
    std::optional<ExactDistance> exact;
    int modal_first_layer = -1; // the most frequent first divergent layer; -1 none, -2 n/a
    // An endpoint run: what its exchanges with the server say (items/s, requests in flight).
    std::optional<RequestStats> serving;
};

// One line of a generation study's agreement table (the second field report's table): two
// generation runs of the head compared, record level and answer level.
struct GenerationRow {
    std::string a, b; // config names; a is the reference side
    // repeat: the same config recorded twice, or configs that differ only in the arrival order
    // or the repeat axis (run to run); serving: b differs from a in concurrency (and perhaps the
    // arrival order); config: any other difference (b against the study's reference config)
    GenerationPairKind kind = GenerationPairKind::Config;
    std::vector<std::string> differs_in; // axes whose value differs
    std::int64_t run_a = 0, run_b = 0;
    GenerationComparison cmp;
    // Both runs with top-K log-probabilities per step (endpoint runs): the per-token metrics.
    std::optional<TokenMetrics> tokens;
};

// What the views show of the recorded study (its name, model and dataset), read once from the
// study JSON the ledger holds; a field it lacks stays empty. The JSON itself stays in
// Review::study for the review's own reading of heads and configs.
struct StudyFacts {
    std::string name;
    struct Model {
        std::string path, format, sha256; // a local model's files
        std::string endpoint, name, api;  // a served one's
        bool served = false;              // an endpoint study: the server holds the weights
    } model;
    std::vector<std::string> dataset_paths;
    std::vector<std::string> labels; // the dataset's class names
    std::string reference;           // the reference config's name

    static StudyFacts read(const nlohmann::json& study);
};

struct Review {
    std::string path;
    // The chain and signatures, verified when opened (every view says it, a tampered ledger
    // loudly); trust_checked false when the caller verifies on its own (the workbench does it
    // in the background, after the dashboard shows).
    ledger::Trust trust;
    bool trust_checked = false;
    std::string study_path; // the study file the runs came from ("" when not recorded)
    std::string dataset_sha256;
    nlohmann::json study;
    StudyFacts facts; // read from `study`
    std::string reference_name;
    std::vector<std::string> heads; // head variants with at least one finished study run
    std::string head;               // the one reviewed
    std::vector<ledger::Item> items;
    std::vector<ledger::Run> runs;                // every run in the ledger, probes included
    std::map<std::int64_t, RequestStats> serving; // endpoint runs: items/s, in flight
    // A study with model variants ($.models): each run's variant, by run id.
    std::map<std::int64_t, std::string> run_variants;
    // The variants table (variants.h) with its KL columns, where the caller computed it (the
    // workbench's loader does, off the GUI thread); null otherwise.
    std::shared_ptr<const VariantTable> variants;
    std::map<std::string, nlohmann::json> environments; // fingerprint of every run, by hash
    std::optional<ledger::Run> reference_run;
    // The exact reference: the first row of a float64 config with a finished run in the home
    // environment; "" when the study has none (no distance to exact anywhere).
    std::string exact_config;
    // Each environment (by hash) without the settings a config makes in it (the thread
    // counts), as a digest: the runs of one machine and build share it whatever their threads.
    std::map<std::string, std::string> machines;
    // The environment of the rows named by their config alone: that of the reference config's
    // latest run recorded here (not imported), else of its latest run, else of the latest run;
    // and its machine digest. Rows of other machines are labelled "NAME @ env:HASH". A server
    // variant's config is at home on its server: the machine of its latest run.
    std::string home_env, home_machine;
    std::vector<ReviewRow> rows;          // the reference first, then the study's other configs
    std::map<std::int64_t, RunData> data; // records (with layers) of every row's run
    std::optional<Diagnosis> diagnosis;   // the latest stored diagnosis of this head
    // A generation head: rows carry runs but no record comparisons; these take their place.
    bool generation = false;
    RecordSpec records;                                                        // the head's records
    std::map<std::int64_t, std::vector<ledger::GenerationRecord>> generations; // by run
    std::vector<GenerationRow> generation_rows;

    const ReviewRow* row(const std::string& config) const;
    // The record of `item` in run `run`, or null.
    const ledger::Record* record(std::int64_t run, std::int64_t item) const;
    // The generation output of `item` in run `run`, or null.
    const ledger::GenerationRecord* output(std::int64_t run, std::int64_t item) const;
    // A generation run's outputs as compareGenerations() takes them (ids from the items).
    std::vector<GenerationOutput> outputs(std::int64_t run) const;
};

// Progress on a 0..1 scale; return false to cancel (loadReview then throws Error).
using ReviewProgress = std::function<bool(float)>;

// Throws probaudit::Error naming the file (unreadable, not a ledger, older schema, no study).
// `head` empty: the first head variant that has runs. A missing reference run is not an
// error: the rows then carry runs without comparisons.
Review loadReview(const std::string& ledgerPath, const std::string& head = std::string(),
                  const ReviewProgress& progress = {}, bool checkChain = true);

// Axes whose value differs between two configs' canonical JSON (an axis one of them leaves
// out, at its default, counts as differing when the other has it).
std::vector<std::string> differingAxes(const nlohmann::json& a, const nlohmann::json& b);

// The first divergent layer seen most often, -1 when no layer differs, -2 when not captured.
int modalFirstLayer(const Comparison& c);

} // namespace probaudit::analysis
