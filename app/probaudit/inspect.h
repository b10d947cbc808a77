#pragma once
// `probaudit inspect PATH [--load]` and `probaudit tokenize PATH --text ...`.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::app {

// Describes a checkpoint; with `load`, also loads every weight in float32 and reports the
// wall time and the process's peak resident memory.
nlohmann::json inspectCheckpoint(const std::string& path, bool load);
std::string formatInspection(const nlohmann::json& info);

nlohmann::json tokenizeText(const std::string& path, const std::string& text, bool addSpecial,
                            std::size_t maxLength = 0);
std::string formatTokens(const nlohmann::json& tokens);

// A whole text file; throws probaudit::Error naming it when unreadable or not UTF-8.
std::string readUtf8File(const std::string& path);

} // namespace probaudit::app
