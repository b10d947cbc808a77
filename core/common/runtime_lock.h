#pragma once
// A runtime lock (DESIGN.md: pin / runtime lock): what `probaudit pin` writes and `check`, the
// bundle, the report and the workbench's pin badge read. One struct, one JSON form: the file
// has the same keys and values as the locks written before this type existed (schema 1).
//
// A lock is outside input (a file someone hands over): fromJson says in one sentence which field
// is missing or of the wrong type, naming the file, and never half-reads one.
#include "core/common/head_spec.h"
#include "core/common/run_config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace probaudit {

// One sample item's results as exact data: float32 bit patterns and layer hashes in hex.
struct LockedResult {
    std::string id;
    std::vector<float> probs;
    std::vector<std::string> probs_bits, logits_bits;
    int decision = -1;
    std::vector<std::string> layer_hashes;

    // The same bits (probabilities, logits, every layer's hash) as `other`.
    bool sameBits(const LockedResult& other) const;
};

// The Python environment a transformers-runner config was pinned in (check starts it again).
struct LockedRunnerEnvironment {
    std::string name, python;
    std::vector<std::string> env; // NAME=VALUE
};

struct RuntimeLock {
    static constexpr int kSchema = 1; // the "probaudit_lock" field

    std::string created; // UTC, ISO 8601
    std::string study;   // the study's name
    std::string ledger;  // the ledger's path as given to pin
    std::int64_t run = 0;
    HeadSpec head;
    std::string config_name;
    RunConfig config;
    std::string config_hash;
    nlohmann::json environment; // the pinned fingerprint, as the ledger holds it
    std::string environment_hash;
    std::string records_sha256;
    std::int64_t items = 0;                                        // the pinned run's items
    std::vector<std::pair<std::string, std::string>> sample_items; // (id, text), rerun by check
    std::vector<LockedResult> sample_results;
    std::optional<LockedRunnerEnvironment> runner_environment;
    std::string model; // the model path (transformers-runner locks only)

    nlohmann::json toJson() const;
    // Throws probaudit::Error "FILE: ..." naming the first field that is missing or wrong.
    static RuntimeLock fromJson(const nlohmann::json& j, const std::string& file);
    static RuntimeLock load(const std::string& path);
    // Whether a JSON document is meant as a lock (it has the "probaudit_lock" field).
    static bool isLock(const nlohmann::json& j);
};

} // namespace probaudit
