#include "common/json_read.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

namespace probaudit {

namespace {

template <class Json>
Json parseBounded(std::string_view text, bool comments, DuplicateKeys duplicates) {
    std::vector<std::set<std::string>> keys; // the keys seen so far in each open object
    const typename Json::parser_callback_t check = [&](int depth, typename Json::parse_event_t ev,
                                                       Json& parsed) {
        // The outermost object or array starts at depth 0; its keys come at depth 1.
        if ((ev == Json::parse_event_t::object_start || ev == Json::parse_event_t::array_start) &&
            depth >= kMaxJsonDepth) {
            throw JsonError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        if (duplicates == DuplicateKeys::Refuse) {
            if (ev == Json::parse_event_t::object_start) {
                keys.resize(std::max(keys.size(), std::size_t(depth) + 2));
                keys[std::size_t(depth) + 1].clear();
            } else if (ev == Json::parse_event_t::key &&
                       !keys.at(std::size_t(depth))
                            .insert(parsed.template get<std::string>())
                            .second) {
                throw JsonError("duplicate key \"" + parsed.template get<std::string>() +
                                "\" (an object names it twice; which one counts is ambiguous)");
            }
        }
        return true;
    };
    try {
        return Json::parse(text.begin(), text.end(), check, /*allow_exceptions=*/true, comments);
    } catch (const nlohmann::json::exception& e) {
        throw JsonError(std::string("invalid JSON: ") + e.what());
    }
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

} // namespace probaudit
