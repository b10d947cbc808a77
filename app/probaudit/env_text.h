#pragma once
// Human-readable form of the environment fingerprint (`probaudit env` without --json).
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

std::string formatEnvironment(const nlohmann::json& env);

} // namespace probaudit::app
