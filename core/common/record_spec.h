#pragma once
// How a pipeline turns a generated text into records (the generation audits): one per non-empty
// line, JSON objects, or the named groups of a regex; normalised; an optional answer reduction.
// Part of a generation head (head_spec.h), so torch-free and Qt-free; analysis/records.h parses
// texts with it.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit {

struct RecordSpec {
    std::string mode = "lines"; // lines | json | regex
    std::string pattern;        // regex: PCRE2 with named groups, matched repeatedly
    bool lowercase = false;     // ASCII letters folded to lower case
    bool strip_bullets =
        true; // lines: drop a leading "- ", "* ", "• ", "1. " or "1) " (when text follows)
    std::string reduction; // "" | most_frequent | count
    // Throws probaudit::Error naming the field on anything else. The regex itself is compiled
    // (and refused when broken or without named groups) by analysis::parseRecords.
    static RecordSpec fromJson(const nlohmann::json& j);
    // Every field written out (fromJson(toJson()) is the same spec).
    nlohmann::json toJson() const;
};

} // namespace probaudit
