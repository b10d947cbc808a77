#pragma once
// A typed reading of a run event (common/protocol.h lists them and their fields). Events are
// JSON lines from this process, its job processes, a remote engine over ssh or the engine the
// workbench starts: reading one never throws, and a field that is absent or of another type
// keeps the default below, so that a hostile or older line cannot crash whoever shows it.
// The CLI's terminal output, the diagnosis's probe lines and the workbench's run controller read
// events through this type; the writers keep emitting JSON (the protocol is JSON lines).
#include "core/common/vocabulary.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace probaudit {

// run-finished of a serving simulation: where the generation time went.
struct ServingSummary {
    std::int64_t prefills = 0, decode_steps = 0, max_resident = 0;
    double overhead_share = 0, total_seconds = 0;
};

// run-finished of an endpoint run: what the server really did.
struct EndpointSummary {
    double achieved_concurrency = 0, items_per_second = 0;
    std::int64_t failed = 0, retries = 0;
};

struct RunEvent {
    EventKind kind = EventKind::Unknown;
    std::optional<std::int64_t> run; // absent in a job's started and progress events
    std::string job;                 // "K/N" under `run --jobs N`
    std::string head, config, config_hash;
    std::string label; // a diagnosis probe's name ("shape: batch 8")
    // started
    std::int64_t items = 0, resumed_items = 0;
    // progress
    double done = 0, total = 0, items_per_second = 0, eta_seconds = -1;
    // run-finished
    std::string status;
    std::int64_t items_done = 0;
    double seconds = 0;
    std::optional<ServingSummary> serving;
    std::optional<EndpointSummary> endpoint;
    // skipped
    std::string reason;
    // warning, error
    std::string message;
    // done
    std::string ledger, from;
    std::optional<std::int64_t> imported;

    static RunEvent read(const nlohmann::json& event);
    // The probe's name if it has one, else the config's.
    const std::string& labelOrConfig() const { return label.empty() ? config : label; }
};

} // namespace probaudit
