#include "core/common/head_spec.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

#include <algorithm>
#include <filesystem>

namespace probaudit {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool readString(const json& j, const char* key, std::string& out, const std::string& path,
                std::vector<std::string>& errors, bool required) {
    if (!j.contains(key)) {
        if (required) {
            errors.push_back(path + "." + key + ": missing");
        }
        return false;
    }
    if (!j[key].is_string()) {
        errors.push_back(path + "." + key + ": must be a string");
        return false;
    }
    out = j[key].get<std::string>();
    return true;
}

void readLabels(const json& j, HeadSpec& s, const std::string& path,
                std::vector<std::string>& errors, bool required) {
    if (!j.contains("labels")) {
        if (required) {
            errors.push_back(path + ".labels: missing");
        }
        return;
    }
    const json& l = j["labels"];
    if (!l.is_array() ||
        !std::all_of(l.begin(), l.end(), [](const json& e) { return e.is_string(); })) {
        errors.push_back(path + ".labels: must be an array of strings");
        return;
    }
    s.labels = l.get<std::vector<std::string>>();
}

void readGeneration(const json& j, HeadSpec& s, const std::string& path,
                    std::vector<std::string>& errors) {
    readString(j, "template", s.template_text, path, errors, true);
    if (j.contains("template") && s.template_text.find("{text}") == std::string::npos) {
        errors.push_back(path + ".template: has no {text}");
    }
    if (j.contains("max_new_tokens")) {
        const json& m = j["max_new_tokens"];
        if (!m.is_number_integer() || m.get<std::int64_t>() < 1 || m.get<std::int64_t>() > 4096) {
            errors.push_back(path + ".max_new_tokens: must be an integer in [1, 4096]");
        } else {
            s.max_new_tokens = m.get<std::int64_t>();
        }
    }
    if (j.contains("stop")) {
        const json& st = j["stop"];
        if (!st.is_array() || !std::all_of(st.begin(), st.end(), [](const json& e) {
                return e.is_string() && !e.get<std::string>().empty();
            })) {
            errors.push_back(path + ".stop: must be an array of non-empty strings");
        } else {
            s.stop = st.get<std::vector<std::string>>();
        }
    }
    if (j.contains("top_logprobs")) {
        const json& k = j["top_logprobs"];
        if (!k.is_number_integer() || k.get<std::int64_t>() < 0 || k.get<std::int64_t>() > 20) {
            errors.push_back(path + ".top_logprobs: must be an integer in [0, 20]");
        } else {
            s.top_logprobs = k.get<int>();
        }
    }
    if (j.contains("stop_at_eos")) {
        if (!j["stop_at_eos"].is_boolean()) {
            errors.push_back(path + ".stop_at_eos: must be true or false");
        } else {
            s.stop_at_eos = j["stop_at_eos"].get<bool>();
        }
    }
    if (j.contains("records")) {
        try {
            s.records = RecordSpec::fromJson(j["records"]);
        } catch (const Error& e) {
            errors.push_back(path + "." + e.what());
        }
    }
    if (j.contains("labels") || j.contains("threshold")) {
        errors.push_back(path + ": a generation head has no labels or threshold (its output is "
                                "records)");
    }
}

} // namespace

HeadSpec HeadSpec::fromJson(const json& j, const std::string& path,
                            std::vector<std::string>& errors) {
    HeadSpec s;
    if (!j.is_object()) {
        errors.push_back(path + ": a head must be a JSON object");
        return s;
    }
    // "sha256": the adapter file's digest, which a run's recorded head carries (its identity)
    static const std::vector<std::string> known{
        "kind",    "name",           "template",  "labels",       "path",
        "pooling", "normalize",      "threshold", "stop",         "stop_at_eos",
        "records", "max_new_tokens", "sha256",    "top_logprobs", "vocabulary"};
    for (const auto& [key, value] : j.items()) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            errors.push_back(path + "." + key + ": unknown field");
        }
    }
    std::string kindName;
    if (!readString(j, "kind", kindName, path, errors, true)) {
        return s;
    }
    s.kind = fromName<HeadKind>(kindName).value_or(HeadKind::None);
    s.name = kindName;
    readString(j, "name", s.name, path, errors, false);
    if (s.kind == HeadKind::LabelTokens) {
        readString(j, "template", s.template_text, path, errors, false);
        if (s.template_text.find("{text}") == std::string::npos) {
            errors.push_back(path + ".template: has no {text}");
        }
        readLabels(j, s, path, errors, true);
        if (j.contains("labels") && s.labels.size() < 2) {
            errors.push_back(path + ".labels: label_tokens needs at least two label words");
        }
        if (j.contains("vocabulary")) {
            if (!j["vocabulary"].is_boolean()) {
                errors.push_back(path + ".vocabulary: must be true or false");
            } else {
                s.vocabulary = j["vocabulary"].get<bool>();
            }
        }
    } else if (s.kind == HeadKind::Adapter) {
        readString(j, "path", s.adapter_path, path, errors, true);
        readString(j, "template", s.template_text, path, errors, false);
        if (s.template_text.find("{text}") == std::string::npos) {
            errors.push_back(path + ".template: has no {text}");
        }
        readString(j, "pooling", s.pooling, path, errors, false);
        if (!s.pooling.empty() && s.pooling != "cls" && s.pooling != "mean" &&
            s.pooling != "last") {
            errors.push_back(path + ".pooling: unknown value \"" + s.pooling +
                             "\" (one of: cls, mean, last)");
        }
        if (j.contains("normalize")) {
            if (!j["normalize"].is_boolean()) {
                errors.push_back(path + ".normalize: must be true or false");
            } else {
                s.normalize = j["normalize"].get<bool>();
            }
        }
        readLabels(j, s, path, errors, false);
    } else if (s.kind == HeadKind::Classifier) {
        readLabels(j, s, path, errors, false);
    } else if (s.kind == HeadKind::Generation) {
        readGeneration(j, s, path, errors);
    } else {
        errors.push_back(path + ".kind: unknown value \"" + kindName +
                         "\" (one of: " + allowedNames<HeadKind>() + ")");
    }
    if (s.kind != HeadKind::LabelTokens && j.contains("vocabulary")) {
        errors.push_back(path + ".vocabulary: only a label_tokens head has it");
    }
    if (s.kind != HeadKind::Generation) {
        for (const char* key :
             {"stop", "stop_at_eos", "records", "max_new_tokens", "top_logprobs"}) {
            if (j.contains(key)) {
                errors.push_back(path + "." + key + ": only a generation head has it");
            }
        }
    }
    if (j.contains("threshold")) {
        if (!j["threshold"].is_number() || j["threshold"].get<double>() < 0 ||
            j["threshold"].get<double>() > 1) {
            errors.push_back(path + ".threshold: must be a number in [0, 1]");
        } else {
            s.threshold = j["threshold"].get<double>();
        }
    }
    return s;
}

HeadSpec HeadSpec::fromJson(const json& j, const std::string& where) {
    std::vector<std::string> errors;
    HeadSpec s = fromJson(j, "$", errors);
    if (!errors.empty()) {
        std::string all;
        for (const auto& e : errors) {
            all += (all.empty() ? "" : "; ") + e;
        }
        throw Error(where, all);
    }
    return s;
}

HeadSpec HeadSpec::parse(const std::string& jsonOrPath) {
    const auto first = jsonOrPath.find_first_not_of(" \t\n");
    if (first != std::string::npos && jsonOrPath[first] == '{') {
        json j;
        try {
            j = parseJson(jsonOrPath);
        } catch (const JsonError& e) {
            throw Error("head", e.what());
        }
        return fromJson(j, "head");
    }
    HeadSpec s = fromJson(readJsonFile(jsonOrPath), jsonOrPath); // names the file it cannot open
    if (!s.adapter_path.empty() && fs::path(s.adapter_path).is_relative()) {
        s.adapter_path = (fs::path(jsonOrPath).parent_path() / s.adapter_path).string();
    }
    return s;
}

json HeadSpec::toJson() const {
    json j{{"kind", kind}, {"name", name}, {"labels", labels}};
    if (kind == HeadKind::LabelTokens) {
        j["template"] = template_text;
        if (vocabulary) { // absent when off: the heads recorded before it keep their identity
            j["vocabulary"] = true;
        }
    }
    if (kind == HeadKind::Adapter) {
        if (template_text != "{text}") { // adapters on the bare text keep their old form
            j["template"] = template_text;
        }
        j["path"] = adapter_path;
        j["pooling"] = pooling;
        j["normalize"] = normalize;
    }
    if (kind == HeadKind::Generation) {
        j.erase("labels");
        j["template"] = template_text;
        j["max_new_tokens"] = max_new_tokens;
        j["stop"] = stop;
        j["stop_at_eos"] = stop_at_eos;
        j["records"] = records.toJson();
        if (top_logprobs > 0) { // absent when 0: the heads recorded before it keep their identity
            j["top_logprobs"] = top_logprobs;
        }
    }
    if (threshold >= 0) {
        j["threshold"] = threshold;
    }
    return j;
}

std::string HeadSpec::prompt(const std::string& text) const {
    if (kind != HeadKind::LabelTokens && kind != HeadKind::Generation &&
        kind != HeadKind::Adapter) {
        return text;
    }
    std::string p = template_text;
    return p.replace(p.find("{text}"), 6, text);
}

} // namespace probaudit
