#include "core/common/endpoint_spec.h"

#include <algorithm>
#include <cmath>

namespace probaudit {

using nlohmann::json;

namespace {

const std::vector<std::string> kFields = {"endpoint",    "name",         "api",
                                          "api_key_env", "labels",       "timeout",
                                          "max_retries", "top_logprobs", "temperature"};

void readString(const json& j, const char* key, std::string& out, const std::string& path,
                std::vector<std::string>& errors, bool required) {
    if (!j.contains(key)) {
        if (required) {
            errors.push_back(path + "." + key + ": missing");
        }
    } else if (!j[key].is_string() || j[key].get<std::string>().empty()) {
        errors.push_back(path + "." + key + ": must be a non-empty string");
    } else {
        out = j[key].get<std::string>();
    }
}

void readInt(const json& j, const char* key, int& out, int lo, int hi, const std::string& path,
             std::vector<std::string>& errors) {
    if (!j.contains(key)) {
        return;
    }
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi) {
        errors.push_back(path + "." + key + ": must be an integer in [" + std::to_string(lo) +
                         ", " + std::to_string(hi) + "]");
    } else {
        out = v.get<int>();
    }
}

void checkUrl(const std::string& url, const std::string& path, std::vector<std::string>& errors) {
    const bool http = url.rfind("http://", 0) == 0, https = url.rfind("https://", 0) == 0;
    if (!http && !https) {
        errors.push_back(path + ".endpoint: must start with http:// or https://");
        return;
    }
    const std::size_t hostStart = url.find("//") + 2;
    const std::string authority = url.substr(hostStart, url.find('/', hostStart) - hostStart);
    if (authority.find('@') != std::string::npos) {
        errors.push_back(path + ".endpoint: must not carry credentials (user:password@); name the "
                                "environment variable that holds the key in \"api_key_env\"");
    } else if (authority.empty()) {
        errors.push_back(path + ".endpoint: has no host");
    }
    if (url.find_first_of("?# \t\r\n") != std::string::npos) {
        errors.push_back(path + ".endpoint: must be a base URL (no query, fragment or spaces)");
    }
}

bool isEnvName(const std::string& s) {
    return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
           std::all_of(s.begin(), s.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

} // namespace

EndpointSpec EndpointSpec::fromJson(const json& j, const std::string& path,
                                    std::vector<std::string>& errors) {
    EndpointSpec s;
    for (const auto& [key, _] : j.items()) {
        if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
            errors.push_back(path + "." + key + ": unknown field");
        }
    }
    readString(j, "endpoint", s.url, path, errors, true);
    if (!s.url.empty()) {
        checkUrl(s.url, path, errors);
        while (!s.url.empty() && s.url.back() == '/') {
            s.url.pop_back();
        }
    }
    readString(j, "name", s.model, path, errors, true);
    readString(j, "api", s.api, path, errors, false);
    if (s.api != "completions" && s.api != "chat") {
        errors.push_back(path + ".api: must be \"completions\" or \"chat\"");
    }
    readString(j, "api_key_env", s.api_key_env, path, errors, false);
    if (!s.api_key_env.empty() && !isEnvName(s.api_key_env)) {
        errors.push_back(path + ".api_key_env: must name an environment variable (the key itself "
                                "is never written in a study)");
    }
    if (j.contains("labels")) {
        const json& l = j["labels"];
        if (!l.is_object() ||
            !std::all_of(l.begin(), l.end(), [](const json& v) { return v.is_string(); })) {
            errors.push_back(path + ".labels: must be an object of strings");
        } else {
            s.labels = l.get<std::map<std::string, std::string>>();
        }
    }
    if (j.contains("timeout")) {
        const json& t = j["timeout"];
        if (!t.is_number() || !(t.get<double>() >= 1 && t.get<double>() <= 3600)) {
            errors.push_back(path + ".timeout: must be a number of seconds in [1, 3600]");
        } else {
            s.timeout_seconds = t.get<double>();
        }
    }
    readInt(j, "max_retries", s.max_retries, 0, 10, path, errors);
    readInt(j, "top_logprobs", s.top_logprobs, 0, kMaxTopLogprobs, path, errors);
    if (j.contains("temperature") &&
        !(j["temperature"].is_number() && j["temperature"].get<double>() == 0)) {
        errors.push_back(path +
                         ".temperature: must be 0 (an audit compares greedy decisions; with "
                         "sampling, two runs differ by chance and no difference could be traced "
                         "to a runtime setting)");
    }
    return s;
}

json EndpointSpec::toJson() const {
    return {{"endpoint", url},
            {"name", model},
            {"api", api},
            {"api_key_env", api_key_env},
            {"labels", labels},
            {"timeout", timeout_seconds},
            {"max_retries", max_retries},
            {"top_logprobs", top_logprobs}};
}

std::string EndpointSpec::endpointUrl(const std::string& what) const {
    return url + "/" + what;
}

} // namespace probaudit
