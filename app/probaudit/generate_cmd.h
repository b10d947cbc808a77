#pragma once
// `probaudit generate ...` and `probaudit generation-probe ...`: the text forms of what
// core/tasks/generate.h computes.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

std::string formatGeneration(const nlohmann::json& g);
std::string formatProbe(const nlohmann::json& probe);

} // namespace probaudit::app
