#pragma once
// Every JSON document ProbAudit reads from outside (study files, tokenizer.json, config.json,
// generation_config.json, head files, lock files, dataset and input lines, engine requests,
// ledger rows, model outputs) is parsed here. Nesting deeper than kMaxJsonDepth levels is
// refused while parsing, before a deep tree exists: copying, dumping or comparing one recurses
// once per level (as do the readers of nested tokenizer sequences) and a crafted document a
// few hundred kilobytes long would overflow the stack.
#include "core/common/error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit {

inline constexpr int kMaxJsonDepth = 128;
// What a parsed document may take in memory, estimated while it is read (each value's node, an
// object's tree and each key's node, a string's bytes): a reply of a few megabytes made of
// millions of empty objects or numbers would otherwise become gigabytes of tree. Real documents
// stay far below it (a tokenizer.json of 256k entries: about 60 MiB).
inline constexpr std::size_t kMaxJsonTreeBytes = std::size_t(128) << 20;

// One sentence without a file name ("invalid JSON: ...", "JSON nested deeper than 128 levels"
// or "JSON that would take more than 128 MiB once read"); the caller names the file or line.
class JsonError : public Error {
public:
    using Error::Error;
};

// An object that names a key twice: refused in our documents and the user's data (studies,
// heads, locks, dataset and input lines, requests, ledger rows), where either reading would be
// a guess; the last one wins in a model's own files (tokenizer.json, config.json), as it does
// for the reference implementation that reads them with Python's json.
enum class DuplicateKeys { Refuse, LastWins };

nlohmann::json parseJson(std::string_view text, DuplicateKeys duplicates = DuplicateKeys::Refuse,
                         std::size_t maxTreeBytes = kMaxJsonTreeBytes);
// Keys in document order, `//` and `/* */` comments allowed, duplicates refused: study files.
nlohmann::ordered_json parseCommentedJson(std::string_view text);
// The document, or nothing when it is not JSON or nests too deeply (a model's output; the last
// of duplicate keys wins).
std::optional<nlohmann::json> tryParseJson(std::string_view text);
// A whole file; Error names it ("PATH: cannot open", "PATH: invalid JSON: ...").
nlohmann::json readJsonFile(const std::string& path,
                            DuplicateKeys duplicates = DuplicateKeys::Refuse);

// Tolerant field readers for JSON that is outside input and shown rather than trusted (an
// environment fingerprint, a run event, a recorded study): the value of `key` in object `j`, or
// nullopt when `j` is not an object, the key is absent or its value has another type. Never
// throw. fieldInt64 also refuses an unsigned value past INT64_MAX and any non-integer number.
std::optional<std::string> fieldString(const nlohmann::json& j, const char* key);
std::optional<std::int64_t> fieldInt64(const nlohmann::json& j, const char* key);
std::optional<double> fieldNumber(const nlohmann::json& j, const char* key);
std::optional<bool> fieldBool(const nlohmann::json& j, const char* key);
// The object at `key`, or an empty object.
const nlohmann::json& fieldObject(const nlohmann::json& j, const char* key);
// The strings of a string (one) or an array at `key` (other elements left out).
std::vector<std::string> fieldStrings(const nlohmann::json& j, const char* key);

} // namespace probaudit
