#include "core/common/json_read.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

namespace probaudit {

namespace {

// nlohmann's DOM builder with the nesting limit and the duplicate-key check added. A SAX handler
// rather than a parser callback: the callback parser is quadratic in the number of values (a
// server's reply of 100,000 empty objects took 15 s; this reads it in milliseconds).
template <class Json> class BoundedSax : public nlohmann::detail::json_sax_dom_parser<Json> {
    using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
    BoundedSax(Json& result, DuplicateKeys duplicates)
        : Base(result, /*allow_exceptions=*/true), m_duplicates(duplicates) {}

    bool start_object(std::size_t n) {
        enter();
        if (m_duplicates == DuplicateKeys::Refuse) {
            m_keys.emplace_back();
        }
        return Base::start_object(n);
    }
    bool end_object() {
        if (m_duplicates == DuplicateKeys::Refuse) {
            m_keys.pop_back();
        }
        --m_depth;
        return Base::end_object();
    }
    bool start_array(std::size_t n) {
        enter();
        return Base::start_array(n);
    }
    bool end_array() {
        --m_depth;
        return Base::end_array();
    }
    bool key(typename Json::string_t& k) {
        if (m_duplicates == DuplicateKeys::Refuse && !m_keys.back().insert(k).second) {
            throw JsonError("duplicate key \"" + k +
                            "\" (an object names it twice; which one counts is ambiguous)");
        }
        return Base::key(k);
    }

private:
    void enter() {
        if (++m_depth > kMaxJsonDepth) {
            throw JsonError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
    }

    DuplicateKeys m_duplicates;
    int m_depth = 0;
    std::vector<std::set<std::string>> m_keys; // the keys seen so far in each open object
};

template <class Json>
Json parseBounded(std::string_view text, bool comments, DuplicateKeys duplicates) {
    Json result;
    BoundedSax<Json> sax(result, duplicates);
    try {
        Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json,
                        /*strict=*/true, comments);
    } catch (const nlohmann::json::exception& e) {
        throw JsonError(std::string("invalid JSON: ") + e.what());
    }
    return result;
}

} // namespace

nlohmann::json parseJson(std::string_view text, DuplicateKeys duplicates) {
    return parseBounded<nlohmann::json>(text, false, duplicates);
}

nlohmann::ordered_json parseCommentedJson(std::string_view text) {
    return parseBounded<nlohmann::ordered_json>(text, true, DuplicateKeys::Refuse);
}

std::optional<nlohmann::json> tryParseJson(std::string_view text) {
    try {
        return parseJson(text, DuplicateKeys::LastWins);
    } catch (const JsonError&) {
        return std::nullopt;
    }
}

nlohmann::json readJsonFile(const std::string& path, DuplicateKeys duplicates) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    try {
        return parseJson(text, duplicates);
    } catch (const JsonError& e) {
        throw Error(path, e.what());
    }
}

namespace {

const nlohmann::json* member(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) {
        return nullptr;
    }
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

} // namespace

std::optional<std::string> fieldString(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = member(j, key);
    return v != nullptr && v->is_string() ? std::optional(v->get<std::string>()) : std::nullopt;
}

std::optional<std::int64_t> fieldInt64(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = member(j, key);
    if (v == nullptr || !v->is_number_integer() ||
        (v->is_number_unsigned() && v->get<std::uint64_t>() > INT64_MAX)) {
        return std::nullopt;
    }
    return v->get<std::int64_t>();
}

std::optional<double> fieldNumber(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = member(j, key);
    return v != nullptr && v->is_number() ? std::optional(v->get<double>()) : std::nullopt;
}

std::optional<bool> fieldBool(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = member(j, key);
    return v != nullptr && v->is_boolean() ? std::optional(v->get<bool>()) : std::nullopt;
}

const nlohmann::json& fieldObject(const nlohmann::json& j, const char* key) {
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json* v = member(j, key);
    return v != nullptr && v->is_object() ? *v : empty;
}

std::vector<std::string> fieldStrings(const nlohmann::json& j, const char* key) {
    std::vector<std::string> out;
    const nlohmann::json* v = member(j, key);
    if (v != nullptr && v->is_string()) {
        out.push_back(v->get<std::string>());
    } else if (v != nullptr && v->is_array()) {
        for (const auto& e : *v) {
            if (e.is_string()) {
                out.push_back(e.get<std::string>());
            }
        }
    }
    return out;
}

} // namespace probaudit
