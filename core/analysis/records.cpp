#include "core/analysis/records.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

bool space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string normalise(const std::string& s, bool lowercase) {
    std::string out;
    bool pending = false;
    for (unsigned char c : s) {
        if (space(c)) {
            pending = !out.empty();
            continue;
        }
        if (pending) {
            out += ' ';
            pending = false;
        }
        out += static_cast<char>(lowercase && c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    return out;
}

std::string stripBullet(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && space(static_cast<unsigned char>(line[i]))) {
        ++i;
    }
    const std::string rest = line.substr(i);
    for (const char* b : {"- ", "* ", "\xE2\x80\xA2 "}) { // -, *, •
        if (rest.rfind(b, 0) == 0) {
            return rest.substr(std::char_traits<char>::length(b));
        }
    }
    std::size_t d = 0;
    while (d < rest.size() && rest[d] >= '0' && rest[d] <= '9') {
        ++d;
    }
    if (d > 0 && d + 2 < rest.size() && (rest[d] == '.' || rest[d] == ')') && rest[d + 1] == ' ') {
        return rest.substr(d + 2);
    }
    return rest;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        out.push_back(l);
    }
    return out;
}

void regexRecords(const std::string& text, const RecordSpec& spec, std::vector<std::string>& out) {
    int err = 0;
    PCRE2_SIZE offset = 0;
    std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)> code(
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(spec.pattern.data()), spec.pattern.size(),
                      PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &err, &offset, nullptr),
        &pcre2_code_free);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        throw Error("records.pattern: " + std::string(reinterpret_cast<char*>(msg)) +
                    " at offset " + std::to_string(offset));
    }
    std::uint32_t count = 0, entry = 0;
    PCRE2_SPTR table = nullptr;
    pcre2_pattern_info(code.get(), PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(code.get(), PCRE2_INFO_NAMEENTRYSIZE, &entry);
    pcre2_pattern_info(code.get(), PCRE2_INFO_NAMETABLE, &table);
    if (count == 0) {
        throw Error("records.pattern: the regex has no named groups, e.g. (?<name>...)");
    }
    std::map<int, std::string> names; // group number -> name, in group order
    for (std::uint32_t i = 0; i < count; ++i) {
        const PCRE2_SPTR e = table + std::size_t(i) * entry;
        names[(e[0] << 8) | e[1]] = reinterpret_cast<const char*>(e + 2);
    }
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> md(
        pcre2_match_data_create_from_pattern(code.get(), nullptr), &pcre2_match_data_free);
    PCRE2_SIZE start = 0;
    while (start <= text.size()) {
        const int rc = pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(text.data()),
                                   text.size(), start, 0, md.get(), nullptr);
        if (rc == PCRE2_ERROR_NOMATCH) {
            break;
        }
        if (rc < 0) { // match or depth limit, bad UTF-8: never "no more records"
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(rc, msg, sizeof msg);
            throw Error("records.pattern: matching failed on an output of " +
                        std::to_string(text.size()) + " bytes at byte " + std::to_string(start) +
                        ": " + reinterpret_cast<const char*>(msg));
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md.get());
        std::string rec;
        for (const auto& [group, name] : names) {
            std::string value;
            if (group < rc && ov[2 * group] != PCRE2_UNSET) {
                value = text.substr(ov[2 * group], ov[2 * group + 1] - ov[2 * group]);
            }
            rec += (rec.empty() ? "" : "; ") + name + "=" + normalise(value, spec.lowercase);
        }
        out.push_back(rec);
        start = ov[1] > ov[0] ? ov[1] : ov[1] + 1; // an empty match moves on by one byte
    }
}

} // namespace

std::vector<std::string> parseRecords(const std::string& text, const RecordSpec& spec) {
    std::vector<std::string> out;
    if (spec.mode == "regex") {
        regexRecords(text, spec, out);
        return out;
    }
    if (spec.mode == "json") {
        const std::optional<json> whole = tryParseJson(text); // a model's output: anything
        if (whole && whole->is_array()) {
            for (const auto& v : *whole) {
                if (v.is_object()) {
                    out.push_back(normalise(v.dump(), spec.lowercase));
                }
            }
            return out;
        }
        for (const auto& l : lines(text)) {
            const std::optional<json> v = tryParseJson(l);
            if (v && v->is_object()) {
                out.push_back(normalise(v->dump(), spec.lowercase)); // nlohmann sorts object keys
            }
        }
        return out;
    }
    for (const auto& l : lines(text)) {
        const std::string r = normalise(spec.strip_bullets ? stripBullet(l) : l, spec.lowercase);
        if (!r.empty()) {
            out.push_back(r);
        }
    }
    return out;
}

SetCounts setCounts(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const std::set<std::string> sa(a.begin(), a.end()), sb(b.begin(), b.end());
    SetCounts c;
    for (const auto& x : sa) {
        c.intersection += sb.count(x);
    }
    c.union_size = sa.size() + sb.size() - c.intersection;
    return c;
}

double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const SetCounts c = setCounts(a, b);
    return c.union_size == 0 ? 1.0 : double(c.intersection) / double(c.union_size);
}

std::string reduceAnswer(const std::vector<std::string>& records, const std::string& reduction) {
    if (reduction == "count") {
        return std::to_string(std::set<std::string>(records.begin(), records.end()).size());
    }
    if (reduction == "most_frequent") {
        std::map<std::string, std::size_t> n; // ordered: ties go to the smallest
        for (const auto& r : records) {
            ++n[r];
        }
        std::string best;
        std::size_t most = 0;
        for (const auto& [r, k] : n) {
            if (k > most) {
                best = r;
                most = k;
            }
        }
        return best;
    }
    if (reduction.empty()) {
        return {};
    }
    throw Error("unknown answer reduction \"" + reduction + "\"");
}

} // namespace probaudit::analysis
