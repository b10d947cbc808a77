#pragma once
// `probaudit inspect PATH [--load]` and `probaudit tokenize PATH --text ...`: the text forms of
// what core/tasks/inspect.h computes.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

std::string formatInspection(const nlohmann::json& info);
std::string formatTokens(const nlohmann::json& tokens);

} // namespace probaudit::app
