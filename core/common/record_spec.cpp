#include "core/common/record_spec.h"

#include "core/common/error.h"

namespace probaudit {

using nlohmann::json;

RecordSpec RecordSpec::fromJson(const json& j) {
    if (!j.is_object()) {
        throw Error("records: expected an object");
    }
    RecordSpec s;
    for (const auto& [key, value] : j.items()) {
        if (key == "mode" && value.is_string()) {
            s.mode = value.get<std::string>();
        } else if (key == "pattern" && value.is_string()) {
            s.pattern = value.get<std::string>();
        } else if (key == "lowercase" && value.is_boolean()) {
            s.lowercase = value.get<bool>();
        } else if (key == "strip_bullets" && value.is_boolean()) {
            s.strip_bullets = value.get<bool>();
        } else if (key == "reduction" && value.is_string()) {
            s.reduction = value.get<std::string>();
        } else {
            throw Error("records." + key + ": unknown field or wrong type");
        }
    }
    if (s.mode != "lines" && s.mode != "json" && s.mode != "regex") {
        throw Error("records.mode: \"" + s.mode + "\" is not lines, json or regex");
    }
    if (s.mode == "regex" && s.pattern.empty()) {
        throw Error("records.pattern: a regex mode needs a pattern with named groups");
    }
    if (!s.reduction.empty() && s.reduction != "most_frequent" && s.reduction != "count") {
        throw Error("records.reduction: \"" + s.reduction + "\" is not most_frequent or count");
    }
    return s;
}

json RecordSpec::toJson() const {
    json j{{"mode", mode},
           {"lowercase", lowercase},
           {"strip_bullets", strip_bullets},
           {"reduction", reduction}};
    if (mode == "regex") {
        j["pattern"] = pattern;
    }
    return j;
}

} // namespace probaudit
