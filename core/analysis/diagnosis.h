#pragma once
// The diagnosis ladder's result (DESIGN.md, Analyses; the first field report's path from
// suspect to suspect), typed: the ladder's steps with their verdicts, the probe table, the
// study's configs explained by the suspects they differ in, and the fragility forecast. Its
// JSON form is what the ledger stores and `probaudit diagnose --json` prints. Also the pure
// rules the ladder applies to stored comparisons, so that they are tested without an engine.
#include "core/analysis/compare.h"
#include "core/analysis/localization.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

// clean: not this suspect; explains: this suspect moves the numbers; stop: the later steps
// cannot be judged; untested: nothing recorded answers this step (an endpoint study's ladder,
// which only reads recorded runs).
enum class StepStatus { Clean, Explains, Stop, Untested };

struct LadderStep {
    std::string step; // "loader and repeatability" | "neighbour interference" | "shape" | ...
    std::string finding;
    std::string verdict;
    StepStatus status = StepStatus::Clean;
};

// One row of the report's table: a probe comparison.
struct ProbeRow {
    std::string step; // loader | neighbours | shape | kernels | environment
    std::string what; // "padding added to one input (to 16)"
    std::int64_t run_a = 0, run_b = 0;
    std::int64_t items = 0;
    double max_dp = 0;
    std::string first_layer; // firstLayers() of the comparison
    std::int64_t flips = 0;
    double bit_identical = 1; // share
};

// A study config's full run against the reference run.
struct ConfigResult {
    std::int64_t run = 0;
    std::int64_t flips = 0;
    double max_dp = 0;
    double bit_identical = 1;
    std::string first_layer;
    std::optional<double> accuracy_ref, accuracy;
};

struct ConfigExplanation {
    std::string config;
    std::vector<std::string> differs_in; // axes
    std::vector<std::string> suspects;   // shape | kernels | environment
    std::optional<ConfigResult> result;  // none: not run yet
    // Suspect "environment": what differs between the two runs' environments that can move
    // numbers, one sentence each ("flash-linear-attention 0.5.2 present in A, absent in B").
    std::vector<std::string> environment;
};

struct FlipForecast {
    std::string config;
    double predicted_flips = 0;
    std::int64_t sample = 0; // probe items the perturbation was measured on
    std::optional<std::int64_t> observed_flips;
};

// The ladder's fifth rung for one study config that differs from the reference: its
// counterfactual localisation against the reference (runner/localize.h), or the sentence why it
// cannot be localised (a server, another Python environment, another CPU capability).
struct ConfigCause {
    std::string config;
    std::string not_localised; // empty when localised
    std::optional<Localization> localization;
};

struct Diagnosis {
    std::string study, head, reference;
    std::int64_t sample = 0; // probe sample size
    std::int64_t batch = 0;  // N of the batch-size and neighbour probes
    std::uint64_t seed = 0;
    bool recorded_only = false; // an endpoint study's: read from its recorded runs, no probes
    std::vector<LadderStep> ladder;
    std::optional<std::string> stopped_at;
    std::vector<ProbeRow> table;
    std::vector<ConfigExplanation> configs;
    std::vector<FlipForecast> forecast;
    std::optional<std::int64_t> reference_run;
    std::vector<ConfigCause> causes; // the "cause" rung, in the order of `configs`
    std::int64_t cause_sample = 0;   // items each was localised on at most (0: none)

    nlohmann::json toJson() const;
    // Reads a stored diagnosis; absent keys keep their defaults (older ledgers). Throws
    // probaudit::Error when a present key has the wrong type.
    static Diagnosis fromJson(const nlohmann::json& j);
    const FlipForecast* forecastOf(const std::string& config) const;
    const ConfigCause* causeOf(const std::string& config) const;
};

std::string_view statusName(StepStatus s);

// The diagnosis as it reads once its runs have other ids (a diagnosis made on another host,
// its runs imported here): every run id in `ids` (old -> new), in the fields and in the text
// ("recorded run 12 vs fresh"). Ids not in `ids` stay.
void renumberRuns(Diagnosis& d, const std::map<std::int64_t, std::int64_t>& ids);

// --- the ladder's rules, on stored comparisons ---------------------------------------------

// A Δp in points as the report's table writes it: "0", "3.92", "4.1e-05".
std::string formatPoints(double dp);
// One phrase of evidence: "bit-identical", or "3.92 points, from layer 1[, 2 flipped]".
std::string evidence(const Comparison& c);
// Items bit-identical in a comparison (the share times the count, rounded).
std::int64_t bitIdenticalItems(const Comparison& c);
ProbeRow probeRow(const std::string& step, const std::string& what, const Comparison& c);

// The suspects of a config that differs from the reference in `axes` (shape, kernels), sorted.
std::vector<std::string> suspectsOf(const std::vector<std::string>& axes);

// The fragility forecast. The perturbation a config causes on the probe sample: per item, the
// change of the signed logit gap (binary heads) or of the margin (more classes), from the
// reference's records to the config's (same items, same order).
std::vector<double> logitPerturbation(const std::vector<ledger::Record>& reference,
                                      const std::vector<ledger::Record>& config);
// Expected flips over every reference record when each sampled perturbation is equally likely:
// binary heads flip when the shifted gap changes sign; other heads when the shift exceeds the
// margin, counted as half a flip (the shift may not favour the runner-up).
double predictedFlips(const std::vector<ledger::Record>& reference,
                      const std::vector<double>& perturbation);

// The runtime noise floor of an A/B of two head variants under one config: the most flips
// (scaled to the A/B's item count) and the largest Δp that configs alone cause for variant A.
struct NoiseFloor {
    std::int64_t flips = 0;
    double max_dp = 0;
    std::vector<std::int64_t> runs; // the runs of variant A it was measured against
    bool exceeded = false;          // the A/B's flips and Δp are both above it
};
// `others`: comparisons of run A against each other finished run of variant A.
std::optional<NoiseFloor> noiseFloor(const Comparison& ab, const std::vector<Comparison>& others);

} // namespace probaudit::analysis
