#pragma once
// What an endpoint run's stored exchanges with its server say about the serving itself: how
// long the requests took, how many were in flight on average (the concurrency the server really
// had: a config may ask for 4 while the server queues them), items per second, retries and
// failures. A run resumed in several sessions counts each session's span, not the pause between
// them. Torch-free, Qt-free.
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace probaudit::analysis {

struct RequestStats {
    std::int64_t items = 0;
    std::int64_t failed = 0;  // items recorded as failed (a malformed reply, a refused request)
    std::int64_t retries = 0; // attempts after each item's first one
    std::int64_t sessions = 0;
    double seconds = 0; // the sessions' spans: first send to last reply, summed
    // Mean requests in flight: every attempt's send-to-done time (warm-ups included) over
    // `seconds`.
    double achieved_concurrency = 0;
    double items_per_second = 0;
    double latency_median = 0, latency_p99 = 0; // seconds, send to done of the recorded attempt
    bool available() const { return items > 0; }
};

// Throws probaudit::Error on an exchange that is not the JSON a run writes.
RequestStats requestStats(const std::vector<ledger::RequestRecord>& requests);

nlohmann::json toJson(const RequestStats& s);

} // namespace probaudit::analysis
