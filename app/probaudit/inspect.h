#pragma once
// `probaudit inspect PATH`: what a checkpoint is, without running it.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

nlohmann::json inspectCheckpoint(const std::string& path);
std::string formatInspection(const nlohmann::json& info);

} // namespace probaudit::app
