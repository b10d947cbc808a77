#pragma once
// A study's dataset: JSONL (one object a line) or CSV (a header row), with configurable text,
// label and id fields. Every bad line is reported with its line number; with skipBadLines the
// good lines are kept and each bad one becomes a warning. A line longer than kMaxLineBytes is a
// bad line; a file larger than kMaxFileBytes is refused before it is read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::study {

// A line of a JSONL file or a record of a CSV file holds one item; past these sizes a file is
// not a dataset of texts to classify (and would only be a way to exhaust memory).
inline constexpr std::size_t kMaxLineBytes = std::size_t(1) << 20;     // 1 MiB
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t(1) << 30; // 1 GiB

struct DatasetSpec {
    std::vector<std::string> paths; // one or more files, read in order (ids unique across them)
    std::string format;             // jsonl | csv ("" = from the file extension)
    std::string text_field = "text";
    std::string label_field = "label"; // optional per item; "" = no labels
    std::string id_field = "id";       // "" or absent in a line = the line number
    std::vector<std::string> labels;   // class names: a string label is looked up here
    std::size_t limit = 0;             // 0 = all items
    std::optional<std::uint64_t> seed; // with limit: a seeded sample instead of the first N
};

struct DatasetItem {
    std::string id;
    std::string text;
    std::optional<int> label; // class index
    std::int64_t line = 0;    // where it is in its file (CSV: record number, header = 1)
    std::size_t file = 0;     // index into DatasetSpec::paths
};

struct Dataset {
    std::vector<DatasetItem> items;    // in file order (a sample keeps file order too)
    std::vector<std::string> warnings; // skipped bad lines, "FILE: line N: problem"
    std::string sha256;                // of the files' bytes
};

// Throws probaudit::Error listing every bad line (up to 20, then a count) unless skipBadLines.
Dataset loadDataset(const DatasetSpec& spec, bool skipBadLines);

} // namespace probaudit::study
