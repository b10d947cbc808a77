#include "common/json_read.h"

#include <fstream>
#include <iterator>

namespace probaudit {

namespace {

template <class Json> Json parseBounded(std::string_view text, bool comments) {
    const typename Json::parser_callback_t bound = [](int depth, typename Json::parse_event_t ev,
                                                      Json&) {
        // The outermost object or array starts at depth 0.
        if ((ev == Json::parse_event_t::object_start || ev == Json::parse_event_t::array_start) &&
            depth >= kMaxJsonDepth) {
            throw JsonError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        return true;
    };
    try {
        return Json::parse(text.begin(), text.end(), bound, /*allow_exceptions=*/true, comments);
    } catch (const nlohmann::json::exception& e) {
        throw JsonError(std::string("invalid JSON: ") + e.what());
    }
}

} // namespace

nlohmann::json parseJson(std::string_view text) {
    return parseBounded<nlohmann::json>(text, false);
}

nlohmann::ordered_json parseCommentedJson(std::string_view text) {
    return parseBounded<nlohmann::ordered_json>(text, true);
}

std::optional<nlohmann::json> tryParseJson(std::string_view text) {
    try {
        return parseJson(text);
    } catch (const JsonError&) {
        return std::nullopt;
    }
}

nlohmann::json readJsonFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    try {
        return parseJson(text);
    } catch (const JsonError& e) {
        throw Error(path, e.what());
    }
}

} // namespace probaudit
