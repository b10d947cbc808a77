#pragma once
// `probaudit pin` and `probaudit check`: the text forms of what core/tasks/pin.h computes.
#include "core/tasks/pin.h"

#include <string>

namespace probaudit::app {

// The one line `pin` prints.
std::string formatPin(const tasks::PinResult& r);

// What `check` prints for the lock at `lockPath`: the result's JSON with `json`, the report
// otherwise (each environment difference, the sample, the verdict).
std::string formatCheck(const tasks::CheckResult& c, const std::string& lockPath, bool json);

} // namespace probaudit::app
