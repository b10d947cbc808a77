#pragma once
// `probaudit predict MODEL --head SPEC --text "..." [--config JSON]`: the text form of what
// core/tasks/predict.h computes.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

std::string formatPrediction(const nlohmann::json& p);

} // namespace probaudit::app
