#pragma once
// `probaudit score MODEL --head H --input ITEMS.jsonl [--config JSON] [--capture L]
//  [--output RECORDS.jsonl] [--json]`: the text form of what core/tasks/score.h computes
// (accuracy, decisions and throughput).
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

std::string formatScore(const nlohmann::json& s);

} // namespace probaudit::app
