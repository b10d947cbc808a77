#pragma once
// The time as the ledger, runtime locks and sweeps write it: UTC, ISO 8601, whole seconds
// ("2026-12-02T10:00:00Z").
#include <chrono>
#include <ctime>
#include <string>

namespace probaudit {

inline std::string utcNow() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace probaudit
