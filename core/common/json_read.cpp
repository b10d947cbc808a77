#include "core/common/json_read.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

namespace probaudit {

namespace {

// nlohmann's DOM builder with the nesting limit, the tree budget (kMaxJsonTreeBytes) and the
// duplicate-key check added. A SAX handler rather than a parser callback: the callback parser
// is quadratic in the number of values (a server's reply of 100,000 empty objects took 15 s;
// this reads it in milliseconds).
//
// The tree's cost, per value as libstdc++ lays it out: a node (16 bytes) and room for it in its
// parent's vector (counted twice for the vector's spare capacity); an object's map (48 bytes and
// the allocator's 16), each key's map node (64) and the key; an array's vector (24 + 16); a
// string's (32 + 16) and its bytes.
template <class Json> class BoundedSax : public nlohmann::detail::json_sax_dom_parser<Json> {
    using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
    BoundedSax(Json& result, DuplicateKeys duplicates, std::size_t maxTreeBytes)
        : Base(result, /*allow_exceptions=*/true), m_duplicates(duplicates),
          m_maxTree(maxTreeBytes) {}

    bool null() { return spend(kNode) && Base::null(); }
    bool boolean(bool v) { return spend(kNode) && Base::boolean(v); }
    bool number_integer(typename Json::number_integer_t v) {
        return spend(kNode) && Base::number_integer(v);
    }
    bool number_unsigned(typename Json::number_unsigned_t v) {
        return spend(kNode) && Base::number_unsigned(v);
    }
    bool number_float(typename Json::number_float_t v, const typename Json::string_t& s) {
        return spend(kNode) && Base::number_float(v, s);
    }
    bool string(typename Json::string_t& v) {
        return spend(kNode + 48 + v.size()) && Base::string(v);
    }
    bool binary(typename Json::binary_t& v) {
        return spend(kNode + 64 + v.size()) && Base::binary(v);
    }
    bool start_object(std::size_t n) {
        spend(kNode + 64);
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
        spend(kNode + 40);
        enter();
        return Base::start_array(n);
    }
    bool end_array() {
        --m_depth;
        return Base::end_array();
    }
    bool key(typename Json::string_t& k) {
        spend(64 + k.size());
        if (m_duplicates == DuplicateKeys::Refuse && !m_keys.back().insert(k).second) {
            throw JsonError("duplicate key \"" + k +
                            "\" (an object names it twice; which one counts is ambiguous)");
        }
        return Base::key(k);
    }

private:
    static constexpr std::size_t kNode = 2 * 16;

    bool spend(std::size_t bytes) {
        m_tree += bytes;
        if (m_tree > m_maxTree) {
            throw JsonError("JSON that would take more than " + std::to_string(m_maxTree >> 20) +
                            " MiB once read (too many values for its purpose)");
        }
        return true;
    }

    void enter() {
        if (++m_depth > kMaxJsonDepth) {
            throw JsonError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
    }

    DuplicateKeys m_duplicates;
    int m_depth = 0;
    std::size_t m_maxTree;
    std::size_t m_tree = 0;                    // the tree's estimated bytes so far
    std::vector<std::set<std::string>> m_keys; // the keys seen so far in each open object
};

template <class Json>
Json parseBounded(std::string_view text, bool comments, DuplicateKeys duplicates,
                  std::size_t maxTreeBytes = kMaxJsonTreeBytes) {
    Json result;
    BoundedSax<Json> sax(result, duplicates, maxTreeBytes);
    try {
        Json::sax_parse(text.begin(), text.end(), &sax, nlohmann::detail::input_format_t::json,
                        /*strict=*/true, comments);
    } catch (const nlohmann::json::exception& e) {
        throw JsonError(std::string("invalid JSON: ") + e.what());
    }
    return result;
}

} // namespace

nlohmann::json parseJson(std::string_view text, DuplicateKeys duplicates,
                         std::size_t maxTreeBytes) {
    return parseBounded<nlohmann::json>(text, false, duplicates, maxTreeBytes);
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
