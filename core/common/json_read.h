#pragma once
// Every JSON document ProbAudit reads from outside (study files, tokenizer.json, config.json,
// generation_config.json, head files, lock files, dataset and input lines, engine requests,
// ledger rows, model outputs) is parsed here. Nesting deeper than kMaxJsonDepth levels is
// refused while parsing, before a deep tree exists: copying, dumping or comparing one recurses
// once per level (as do the readers of nested tokenizer sequences) and a crafted document a
// few hundred kilobytes long would overflow the stack.
#include "common/error.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace probaudit {

inline constexpr int kMaxJsonDepth = 128;

// One sentence without a file name ("invalid JSON: ..." or "JSON nested deeper than 128
// levels"); the caller names the file or line.
class JsonError : public Error {
public:
    using Error::Error;
};

nlohmann::json parseJson(std::string_view text);
// Keys in document order, `//` and `/* */` comments allowed: study files.
nlohmann::ordered_json parseCommentedJson(std::string_view text);
// The document, or nothing when it is not JSON or nests too deeply (a model's output).
std::optional<nlohmann::json> tryParseJson(std::string_view text);
// A whole file; Error names it ("PATH: cannot open", "PATH: invalid JSON: ...").
nlohmann::json readJsonFile(const std::string& path);

} // namespace probaudit
