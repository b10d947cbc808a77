#pragma once
// Where a run reports what it does: one JSON object per event (common/protocol.h lists them).
// The CLI prints them (a progress bar, or JSON lines for the workbench and `probaudit
// engine`); the runner itself never prints.
#include <nlohmann/json.hpp>

namespace probaudit::runner {

class Events {
public:
    virtual ~Events() = default;
    virtual void emit(const nlohmann::json& event) = 0;
};

// Drops every event (a caller that only wants the result).
class NoEvents : public Events {
public:
    void emit(const nlohmann::json&) override {}
};

} // namespace probaudit::runner
