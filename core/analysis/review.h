#pragma once
// A study's review as the workbench, `probaudit summary` and the report show it: for one head
// variant, the latest finished run of every config compared against the reference config's
// run. Loaded from a ledger opened read-only; works on stored records only.
#include "analysis/compare.h"
#include "analysis/diagnosis.h"
#include "analysis/generation_compare.h"
#include "ledger/ledger.h"
#include "ledger/trust.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

struct ReviewRow {
    std::string config;
    nlohmann::json config_json;          // canonical RunConfig JSON from the study
    std::vector<std::string> differs_in; // axes whose value differs from the reference config
    bool reference = false;
    std::optional<ledger::Run> run; // the latest finished study run; none: not run yet
    std::optional<Comparison> cmp;  // the reference run (A) against this run (B)
    int modal_first_layer = -1;     // the most frequent first divergent layer; -1 none, -2 n/a
};

// One line of a generation study's agreement table (the second field report's table): two
// generation runs of the head compared, record level and answer level.
struct GenerationRow {
    std::string a, b; // config names; a is the reference side
    // repeat: the same config recorded twice, or configs that differ only in the arrival order
    // (run to run); serving: b differs from a in concurrency (and perhaps the arrival order);
    // config: any other difference (b against the study's reference config)
    std::string kind;
    std::vector<std::string> differs_in; // axes whose value differs
    std::int64_t run_a = 0, run_b = 0;
    GenerationComparison cmp;
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
    std::string reference_name;
    std::vector<std::string> heads; // head variants with at least one finished study run
    std::string head;               // the one reviewed
    std::vector<ledger::Item> items;
    std::vector<ledger::Run> runs;                      // every run in the ledger, probes included
    std::map<std::string, nlohmann::json> environments; // fingerprint of every run, by hash
    std::optional<ledger::Run> reference_run;
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

// The first divergent layer seen most often, -1 when no layer differs, -2 when not captured.
int modalFirstLayer(const Comparison& c);

} // namespace probaudit::analysis
