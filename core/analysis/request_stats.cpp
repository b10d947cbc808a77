#include "core/analysis/request_stats.h"

#include "core/analysis/stats.h"
#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

struct Span {
    double first = INFINITY, last = -INFINITY;
};

} // namespace

RequestStats requestStats(const std::vector<ledger::RequestRecord>& requests) {
    RequestStats s;
    std::map<double, Span> sessions; // by the session's start (Unix time)
    std::vector<double> latencies;
    double busy = 0;
    for (const auto& r : requests) {
        try {
            const json ex = json::parse(r.json);
            Span& span = sessions[ex.at("session").get<double>()];
            const json& attempts = ex.at("attempts");
            for (const char* key : {"warmup", "attempts"}) {
                for (const auto& a : ex.value(key, json::array())) {
                    const double sent = a.at("sent").get<double>(),
                                 done = a.at("done").get<double>();
                    span.first = std::min(span.first, sent);
                    span.last = std::max(span.last, done);
                    busy += std::max(0.0, done - sent);
                }
            }
            if (!attempts.empty()) {
                s.retries += std::int64_t(attempts.size()) - 1;
                latencies.push_back(attempts.back().at("done").get<double>() -
                                    attempts.back().at("sent").get<double>());
            }
            s.failed += ex.contains("failed") ? 1 : 0;
            ++s.items;
        } catch (const json::exception& e) {
            throw Error("item " + std::to_string(r.item) +
                        ": its stored exchange with the server is not what a run writes (" +
                        e.what() + ")");
        }
    }
    for (const auto& [start, span] : sessions) {
        if (span.last > span.first) {
            s.seconds += span.last - span.first;
        }
    }
    s.sessions = std::int64_t(sessions.size());
    if (s.seconds > 0) {
        s.achieved_concurrency = busy / s.seconds;
        s.items_per_second = double(s.items) / s.seconds;
    }
    if (!latencies.empty()) {
        s.latency_median = quantile(latencies, 0.5);
        s.latency_p99 = quantile(latencies, 0.99);
    }
    return s;
}

json toJson(const RequestStats& s) {
    return {{"items", s.items},
            {"failed", s.failed},
            {"retries", s.retries},
            {"sessions", s.sessions},
            {"seconds", s.seconds},
            {"achieved_concurrency", s.achieved_concurrency},
            {"items_per_second", s.items_per_second},
            {"latency_median", s.latency_median},
            {"latency_p99", s.latency_p99}};
}

} // namespace probaudit::analysis
