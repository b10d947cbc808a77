#pragma once
// "Is the provider serving my model?" (`probaudit summary --variants`): a server variant of
// $.models ("serves": the local variant whose weights it claims to serve) against that local
// variant under the same study items and head, judged against the local variant's own runtime
// noise floor (what its other runtime configs, batching, padding, dtype, ..., already change),
// and set beside every other local variant: the one the server's decisions are closest to.
//
// The verdict is about decisions first: a server runs other kernels than the engine, so its
// probabilities move by more than a local runtime floor even when it serves the very weights;
// what it may not do is change more decisions than the floor does, or answer more like another
// local variant than like the one it claims. When too many items come back without a decision
// or without every label among the server's top_logprobs, the verdict says so and does not
// guess.
#include "core/analysis/review.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

enum class ConformanceVerdict {
    Conforms,  // no more flips than the floor, and closest to the variant it serves
    Differs,   // more flips than the floor, or closer to another local variant
    TooLittle, // too many items without a decision or a label's log-probability
    Untested,  // no baseline run, or no floor measured
};
const char* verdictName(ConformanceVerdict v); // conforms | differs | too_little | untested

// The server's run against one local variant's run with the same runtime settings.
struct ServerDistance {
    std::string variant, config;
    std::int64_t flips = 0;
    double max_dp = 0;
};

struct ServerConformance {
    std::string config;   // the server variant's config
    std::string variant;  // the server variant
    std::string serves;   // the local variant it claims to serve
    std::string baseline; // `serves`'s config with the engine settings the server's config has
    std::int64_t run = 0, baseline_run = 0;
    std::int64_t items = 0;
    std::int64_t flips = 0;     // among the items decided in both runs
    std::int64_t undecided = 0; // items without a decision in either run (failed requests)
    std::int64_t inexact = 0;   // decided in both, Δp unknown (a label not in top_logprobs)
    double max_dp = 0, p99_dp = 0;
    // The served variant's runtime floor: its other runtime configs against the baseline.
    int floor_configs = 0;
    std::int64_t floor_flips = 0;
    std::string floor_flips_config;
    double floor_dp = 0;
    // Every local variant's run with the baseline's settings, against the server's run; the
    // closest (fewest flips, then the smallest largest Δp; all of those that tie, by name).
    std::vector<ServerDistance> distances;
    std::vector<std::string> closest;
    bool closestToServed() const;
    ConformanceVerdict verdict = ConformanceVerdict::Untested;
    std::string finding; // one sentence
};

// The share of compared items that may come back without a decision or without every label's
// log-probability before the verdict is "too little".
inline constexpr double kTooLittleShare = 0.1;

// One entry per config of a server variant with a finished run in the home environment; none
// for a study without server variants or for a generation head.
std::vector<ServerConformance> serverConformance(const Review& rv);

nlohmann::json toJson(const ServerConformance& c);

} // namespace probaudit::analysis
