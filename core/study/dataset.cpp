#include "core/study/dataset.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/sha256.h"
#include "core/tokenizer/unicode.h"

#include <csv.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>

namespace probaudit::study {

using nlohmann::json;

namespace {

struct Collector {
    const DatasetSpec& spec;
    std::string path; // the file being read
    std::size_t file = 0;
    Dataset out;
    std::vector<std::string> errors;
    std::map<std::string, std::pair<std::size_t, std::int64_t>> seen; // id -> file, line

    void bad(std::int64_t line, const std::string& problem) {
        errors.push_back(path + ": line " + std::to_string(line) + ": " + problem);
    }

    // `field` empty: the whole line.
    bool validUtf8(std::int64_t line, const std::string& field, const std::string& value) {
        const std::size_t at = tokenizer::findInvalidUtf8(value);
        if (at != std::string::npos) {
            bad(line, (field.empty() ? std::string() : "field \"" + field + "\" ") +
                          "not valid UTF-8 (byte " + std::to_string(at) + ")");
            return false;
        }
        return true;
    }

    // A line or record within kMaxLineBytes; a longer one is a bad line.
    bool fits(std::int64_t line, const char* what, std::size_t bytes) {
        if (bytes <= kMaxLineBytes) {
            return true;
        }
        bad(line, std::string(what) + " of " + std::to_string(bytes) +
                      " bytes; a dataset line may have at most " + std::to_string(kMaxLineBytes) +
                      " (1 MiB)");
        return false;
    }

    // A label as written: an integer class index, or a class name from spec.labels.
    bool label(std::int64_t line, const std::optional<std::string>& asText,
               const std::optional<std::int64_t>& asInt, std::optional<int>& out) {
        const int classes = static_cast<int>(spec.labels.size());
        if (asInt) {
            if (*asInt < 0 || *asInt > INT32_MAX || (classes > 0 && *asInt >= classes)) {
                bad(line, "label " + std::to_string(*asInt) + " is not a class index");
                return false;
            }
            out = static_cast<int>(*asInt);
            return true;
        }
        if (asText) {
            const auto it = std::find(spec.labels.begin(), spec.labels.end(), *asText);
            if (it != spec.labels.end()) {
                out = static_cast<int>(it - spec.labels.begin());
                return true;
            }
            // "0", "1": CSV has no types.
            if (!asText->empty() && std::all_of(asText->begin(), asText->end(), ::isdigit) &&
                asText->size() < 9) {
                return label(line, std::nullopt, std::stoll(*asText), out);
            }
            bad(line, "label \"" + *asText +
                          "\" is neither a class index nor one of the dataset's labels");
            return false;
        }
        return true;
    }

    void add(DatasetItem item) {
        if (item.text.empty()) {
            bad(item.line, "empty text");
            return;
        }
        if (item.id.empty()) {
            item.id = std::to_string(item.line);
        }
        item.file = file;
        const auto [it, fresh] = seen.emplace(item.id, std::make_pair(file, item.line));
        if (!fresh) {
            bad(item.line, "duplicate id \"" + item.id + "\" (first on line " +
                               std::to_string(it->second.second) +
                               (it->second.first != file ? " of " + spec.paths[it->second.first]
                                                         : std::string()) +
                               ")");
            return;
        }
        out.items.push_back(std::move(item));
    }
};

void readJsonl(const std::string& bytes, Collector& c) {
    const DatasetSpec& s = c.spec;
    std::istringstream in(bytes);
    std::string line;
    for (std::int64_t n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.find_first_not_of(" \t") == std::string::npos) {
            continue;
        }
        if (!c.fits(n, "line", line.size())) {
            continue;
        }
        if (!c.validUtf8(n, "", line)) {
            continue;
        }
        json j;
        try {
            j = parseJson(line);
        } catch (const JsonError& e) {
            c.bad(n, e.what());
            continue;
        }
        if (!j.is_object()) {
            c.bad(n, "not a JSON object");
            continue;
        }
        DatasetItem item;
        item.line = n;
        if (!j.contains(s.text_field)) {
            c.bad(n, "missing field \"" + s.text_field + "\"");
            continue;
        }
        if (!j[s.text_field].is_string()) {
            c.bad(n, "field \"" + s.text_field + "\" is not a string");
            continue;
        }
        item.text = j[s.text_field].get<std::string>();
        if (!s.id_field.empty() && j.contains(s.id_field) && !j[s.id_field].is_null()) {
            const json& id = j[s.id_field];
            if (id.is_string()) {
                item.id = id.get<std::string>();
            } else if (id.is_number_integer()) {
                item.id = id.dump();
            } else {
                c.bad(n, "field \"" + s.id_field + "\" is neither a string nor an integer");
                continue;
            }
        }
        if (!s.label_field.empty() && j.contains(s.label_field) && !j[s.label_field].is_null()) {
            const json& l = j[s.label_field];
            bool ok = false;
            if (l.is_number_integer()) {
                ok = c.label(n, std::nullopt, l.get<std::int64_t>(), item.label);
            } else if (l.is_string()) {
                ok = c.label(n, l.get<std::string>(), std::nullopt, item.label);
            } else {
                c.bad(n, "field \"" + s.label_field + "\" is neither an integer nor a string");
            }
            if (!ok) {
                continue;
            }
        }
        c.add(std::move(item));
    }
}

struct CsvState {
    Collector* c = nullptr;
    std::vector<std::string> header;
    std::vector<std::string> fields;
    std::int64_t record = 0;
};

void csvField(void* data, size_t len, void* state) {
    auto* st = static_cast<CsvState*>(state);
    st->fields.emplace_back(data == nullptr ? ""
                                            : std::string(static_cast<const char*>(data), len));
}

void csvRecord(int, void* state) {
    auto* st = static_cast<CsvState*>(state);
    ++st->record;
    std::vector<std::string> f = std::move(st->fields);
    st->fields.clear();
    Collector& c = *st->c;
    const DatasetSpec& s = c.spec;
    if (st->header.empty()) {
        st->header = std::move(f);
        if (std::find(st->header.begin(), st->header.end(), s.text_field) == st->header.end()) {
            c.bad(st->record, "the header has no column \"" + s.text_field + "\"");
        }
        return;
    }
    if (f.size() == 1 && f[0].empty()) {
        return; // blank line
    }
    std::size_t bytes = 0;
    for (const std::string& field : f) {
        bytes += field.size();
    }
    if (!c.fits(st->record, "record", bytes)) {
        return;
    }
    if (f.size() != st->header.size()) {
        c.bad(st->record, std::to_string(f.size()) + " fields, the header has " +
                              std::to_string(st->header.size()));
        return;
    }
    auto column = [&](const std::string& name) -> const std::string* {
        const auto it = std::find(st->header.begin(), st->header.end(), name);
        return name.empty() || it == st->header.end() ? nullptr
                                                      : &f[std::size_t(it - st->header.begin())];
    };
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (!c.validUtf8(st->record, st->header[i], f[i])) {
            return;
        }
    }
    DatasetItem item;
    item.line = st->record;
    const std::string* text = column(s.text_field);
    if (text == nullptr) {
        return; // reported with the header
    }
    item.text = *text;
    if (const std::string* id = column(s.id_field)) {
        item.id = *id;
    }
    if (const std::string* l = column(s.label_field); l != nullptr && !l->empty()) {
        if (!c.label(st->record, *l, std::nullopt, item.label)) {
            return;
        }
    }
    c.add(std::move(item));
}

void readCsv(const std::string& bytes, Collector& c) {
    csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        throw Error(c.path, "cannot start the CSV reader");
    }
    CsvState st;
    st.c = &c;
    const std::size_t used = csv_parse(&p, bytes.data(), bytes.size(), csvField, csvRecord, &st);
    if (used != bytes.size() || csv_fini(&p, csvField, csvRecord, &st) != 0) {
        c.bad(st.record + 1, std::string("malformed CSV: ") + csv_strerror(csv_error(&p)));
    }
    csv_free(&p);
}

} // namespace

Dataset loadDataset(const DatasetSpec& spec, bool skipBadLines) {
    if (spec.paths.empty()) {
        throw Error("the dataset names no file");
    }
    Collector c{spec, {}, 0, {}, {}, {}};
    Sha256 digest;
    for (std::size_t f = 0; f < spec.paths.size(); ++f) {
        c.path = spec.paths[f];
        c.file = f;
        std::ifstream in(c.path, std::ios::binary);
        if (!in) {
            throw Error(c.path, "cannot open the dataset");
        }
        std::error_code ec;
        if (const auto size = std::filesystem::file_size(c.path, ec); !ec && size > kMaxFileBytes) {
            throw Error(c.path, "the dataset file has " + std::to_string(size) +
                                    " bytes; a dataset file may have at most " +
                                    std::to_string(kMaxFileBytes) + " (1 GiB)");
        }
        std::ostringstream buf;
        buf << in.rdbuf();
        const std::string bytes = buf.str();
        digest.update(sha256Hex(bytes.data(), bytes.size()));
        std::string format = spec.format;
        if (format.empty()) {
            format = std::filesystem::path(c.path).extension() == ".csv" ? "csv" : "jsonl";
        }
        if (format == "csv") {
            readCsv(bytes, c);
        } else if (format == "jsonl") {
            readJsonl(bytes, c);
        } else {
            throw Error(c.path, "unknown dataset format \"" + format + "\" (jsonl, csv)");
        }
    }
    c.out.sha256 = digest.hex(); // over the files' digests, in order
    if (!c.errors.empty() && !skipBadLines) {
        std::string all = std::to_string(c.errors.size()) + " bad line" +
                          (c.errors.size() == 1 ? "" : "s") +
                          " (--skip-bad-lines keeps the good ones):";
        for (std::size_t i = 0; i < c.errors.size() && i < 20; ++i) {
            all += "\n  " + c.errors[i];
        }
        if (c.errors.size() > 20) {
            all += "\n  ... and " + std::to_string(c.errors.size() - 20) + " more";
        }
        throw Error(all);
    }
    c.out.warnings = std::move(c.errors);
    if (c.out.items.empty()) {
        throw Error(spec.paths.front(), "the dataset has no items");
    }
    if (spec.limit > 0 && spec.limit < c.out.items.size()) {
        std::vector<std::size_t> pick(c.out.items.size());
        std::iota(pick.begin(), pick.end(), 0);
        if (spec.seed) {
            std::mt19937_64 gen(*spec.seed); // same seed, same sample, on every machine
            for (std::size_t i = pick.size(); i > 1; --i) {
                std::swap(pick[i - 1], pick[static_cast<std::size_t>(gen() % i)]);
            }
            pick.resize(spec.limit);
            std::sort(pick.begin(), pick.end());
        } else {
            pick.resize(spec.limit);
        }
        std::vector<DatasetItem> kept;
        for (std::size_t i : pick) {
            kept.push_back(std::move(c.out.items[i]));
        }
        c.out.items = std::move(kept);
    }
    return std::move(c.out);
}

} // namespace probaudit::study
