#pragma once
// Records: what a pipeline extracts from a generated text (one per non-empty line, JSON objects,
// or the named groups of a regex), normalised, and an optional answer reduction over them.
// Record-level agreement (Jaccard) is the measurement; answer-level agreement is a consequence,
// and a weak one (the second field report). Torch-free, Qt-free.
#include "core/common/record_spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::analysis {

using probaudit::RecordSpec;

// The records of a text, in order of appearance, duplicates kept (reductions count them).
// Normalisation: runs of whitespace become one space, ends trimmed, optional lower case; empty
// records are dropped. json: each line that is a JSON object (or each object of a text that is
// one JSON array), written with sorted keys. regex: per match, "name=value" of every named
// group in group order, joined by "; ".
std::vector<std::string> parseRecords(const std::string& text, const RecordSpec& spec);

// |A ∩ B| / |A ∪ B| of the distinct records (1 when both are empty).
double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b);

struct SetCounts {
    std::size_t intersection = 0;
    std::size_t union_size = 0;
};
SetCounts setCounts(const std::vector<std::string>& a, const std::vector<std::string>& b);

// most_frequent: the record that occurs most often (ties: the smallest in byte order; none: "");
// count: the number of distinct records, in decimal.
std::string reduceAnswer(const std::vector<std::string>& records, const std::string& reduction);

} // namespace probaudit::analysis
