#pragma once
// What `probaudit inspect PATH [--load]` and `probaudit tokenize PATH --text ...` compute: a
// checkpoint's description and a text's tokens, as JSON (the CLI formats them).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace probaudit::tasks {

// Describes a checkpoint; with `load`, also loads every weight in float32 and reports the
// wall time and the process's peak resident memory.
nlohmann::json inspectCheckpoint(const std::string& path, bool load);

nlohmann::json tokenizeText(const std::string& path, const std::string& text, bool addSpecial,
                            std::size_t maxLength = 0);

// A whole text file; throws probaudit::Error naming it when unreadable or not UTF-8.
std::string readUtf8File(const std::string& path);

} // namespace probaudit::tasks
