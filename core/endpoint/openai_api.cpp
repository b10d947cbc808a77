#include "core/endpoint/openai_api.h"

#include "core/common/json_read.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace probaudit::endpoint {

using nlohmann::json;

namespace {

// OpenAI's chat API writes -9999 for "not among the alternatives"; such an entry is left out.
constexpr double kAbsentLogprob = -9999;

// Drops a UTF-8 sequence cut off at the end.
void dropPartialUtf8(std::string& s) {
    std::size_t k = s.size(), cont = 0;
    while (k > 0 && (static_cast<unsigned char>(s[k - 1]) & 0xC0) == 0x80 && cont < 3) {
        --k;
        ++cont;
    }
    if (k == 0 || static_cast<unsigned char>(s[k - 1]) < 0xC0) {
        return; // ASCII last, or only continuation bytes: leave as is
    }
    const auto lead = static_cast<unsigned char>(s[k - 1]);
    const std::size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
    if (cont < need) {
        s.resize(k - 1);
    }
}

std::string truncated(std::string s, std::size_t n) {
    if (s.size() > n) {
        s.resize(n);
        dropPartialUtf8(s);
        s += "...";
    }
    return s;
}

[[noreturn]] void malformed(const std::string& what, std::string_view body) {
    throw ReplyError("malformed reply (" + what + "): " + snippet(body));
}

// A reply's JSON object; one that is not JSON, nests too deeply or would be too large a tree is a
// malformed reply that says which (the last of duplicate keys wins, as for any HTTP client).
json replyObject(std::string_view body, const char* expected,
                 std::size_t maxTree = kMaxJsonTreeBytes) {
    json j;
    try {
        j = parseJson(body, DuplicateKeys::LastWins, maxTree);
    } catch (const JsonError& e) { // a syntax error's words are the parser's, not a sentence
        const std::string why = e.what();
        malformed(why.rfind("invalid JSON", 0) == 0 ? expected : std::string(expected) + ": " + why,
                  body);
    }
    if (!j.is_object()) {
        malformed(expected, body);
    }
    return j;
}

const json& member(const json& j, const char* key, std::string_view body) {
    if (!j.is_object() || !j.contains(key)) {
        malformed(std::string("no \"") + key + "\"", body);
    }
    return j[key];
}

std::string optionalString(const json& j, const char* key) {
    if (j.is_object() && j.contains(key) && j[key].is_string()) {
        return j[key].get<std::string>();
    }
    return {};
}

double logprobValue(const json& v, std::string_view body) {
    if (!v.is_number()) {
        malformed("a log-probability that is not a number", body);
    }
    const double lp = v.get<double>();
    if (!std::isfinite(lp) || lp > 1e-4) {
        malformed("a log-probability above 0", body);
    }
    return std::min(lp, 0.0);
}

// Each token once (the highest value when a server lists two tokens that decode to the same
// text), sorted highest first, ties by token.
std::vector<TokenLogprob> normalised(std::map<std::string, double> entries) {
    std::vector<TokenLogprob> top;
    for (auto& [token, lp] : entries) {
        if (lp > kAbsentLogprob) {
            top.push_back({token, lp});
        }
    }
    std::stable_sort(top.begin(), top.end(),
                     [](const auto& a, const auto& b) { return a.logprob > b.logprob; });
    return top;
}

void keepMax(std::map<std::string, double>& m, const std::string& token, double lp) {
    const auto [it, fresh] = m.emplace(token, lp);
    if (!fresh) {
        it->second = std::max(it->second, lp);
    }
}

// Legacy completions: {"tokens": [...], "token_logprobs": [...], "top_logprobs": [{tok: lp}]}.
std::vector<Step> completionSteps(const json& lp, std::string_view body) {
    const json& tokens = member(lp, "tokens", body);
    const json& values = member(lp, "token_logprobs", body);
    if (!tokens.is_array() || !values.is_array() || tokens.size() != values.size()) {
        malformed("logprobs.tokens and logprobs.token_logprobs differ in length", body);
    }
    const json* tops = lp.contains("top_logprobs") && !lp["top_logprobs"].is_null()
                           ? &lp["top_logprobs"]
                           : nullptr;
    if (tops != nullptr && (!tops->is_array() || tops->size() != tokens.size())) {
        malformed("logprobs.top_logprobs differs in length from logprobs.tokens", body);
    }
    std::vector<Step> steps(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!tokens[i].is_string()) {
            malformed("a token that is not a string", body);
        }
        steps[i].token = tokens[i].get<std::string>();
        steps[i].logprob = logprobValue(values[i], body);
        if (tops == nullptr || (*tops)[i].is_null()) {
            continue;
        }
        if (!(*tops)[i].is_object()) {
            malformed("an entry of logprobs.top_logprobs that is not an object", body);
        }
        std::map<std::string, double> entries;
        for (const auto& [token, v] : (*tops)[i].items()) {
            keepMax(entries, token, logprobValue(v, body));
        }
        steps[i].top = normalised(std::move(entries));
    }
    return steps;
}

// Chat: {"content": [{"token", "logprob", "top_logprobs": [{"token", "logprob"}]}]}.
std::vector<Step> chatSteps(const json& lp, std::string_view body) {
    if (!lp.contains("content") || lp["content"].is_null()) {
        return {};
    }
    const json& content = lp["content"];
    if (!content.is_array()) {
        malformed("logprobs.content is not an array", body);
    }
    std::vector<Step> steps;
    steps.reserve(content.size());
    for (const json& e : content) {
        const json& token = member(e, "token", body);
        if (!token.is_string()) {
            malformed("a token that is not a string", body);
        }
        Step s;
        s.token = token.get<std::string>();
        s.logprob = logprobValue(member(e, "logprob", body), body);
        if (e.contains("top_logprobs") && !e["top_logprobs"].is_null()) {
            if (!e["top_logprobs"].is_array()) {
                malformed("top_logprobs is not an array", body);
            }
            std::map<std::string, double> entries;
            for (const json& t : e["top_logprobs"]) {
                const json& tt = member(t, "token", body);
                if (!tt.is_string()) {
                    malformed("a token that is not a string", body);
                }
                keepMax(entries, tt.get<std::string>(),
                        logprobValue(member(t, "logprob", body), body));
            }
            s.top = normalised(std::move(entries));
        }
        steps.push_back(std::move(s));
    }
    return steps;
}

std::int64_t usageField(const json& j, const char* key) {
    if (j.contains("usage") && j["usage"].is_object() && j["usage"].contains(key) &&
        j["usage"][key].is_number_integer()) {
        return j["usage"][key].get<std::int64_t>();
    }
    return -1;
}

} // namespace

std::string requestBody(const EndpointSpec& endpoint, const CompletionRequest& r) {
    json j{{"model", endpoint.model},
           {"max_tokens", r.max_tokens},
           {"temperature", 0},
           {"stream", false}};
    if (endpoint.api == "chat") {
        j["messages"] = json::array({{{"role", "user"}, {"content", r.prompt}}});
        if (r.top_logprobs > 0) {
            j["logprobs"] = true;
            j["top_logprobs"] = r.top_logprobs;
        }
    } else {
        j["prompt"] = r.prompt;
        if (r.top_logprobs > 0) {
            j["logprobs"] = r.top_logprobs;
        }
    }
    if (!r.stop.empty()) {
        j["stop"] = r.stop;
    }
    if (r.seed) {
        j["seed"] = *r.seed;
    }
    return j.dump();
}

std::size_t replyBytesNeeded(const CompletionRequest& request) {
    constexpr std::size_t kEnvelope = std::size_t(4) << 20, kCap = std::size_t(64) << 20;
    const auto tokens = std::size_t(std::clamp<std::int64_t>(request.max_tokens, 1, 1 << 20));
    const auto top = std::size_t(std::clamp(request.top_logprobs, 0, 1 << 10));
    const std::size_t perToken = 4096 + top * 1024;
    return tokens > (kCap - kEnvelope) / perToken ? kCap : kEnvelope + tokens * perToken;
}

Completion parseCompletion(std::string_view body, const std::string& api) {
    // A reply's tree: about ten times its text for log-probabilities (an object, two keys, a
    // string and a number per alternative), never the gigabytes of a flood of tiny values.
    const json j =
        replyObject(body, "not a JSON object",
                    std::min(kMaxJsonTreeBytes, (std::size_t(16) << 20) + 12 * body.size()));
    const json& choices = member(j, "choices", body);
    if (!choices.is_array() || choices.empty() || !choices[0].is_object()) {
        malformed("no choices", body);
    }
    const json& c = choices[0];
    Completion out;
    out.model = optionalString(j, "model");
    out.system_fingerprint = optionalString(j, "system_fingerprint");
    out.finish = optionalString(c, "finish_reason");
    if (api == "chat") {
        const json& message = member(c, "message", body);
        const json& content = member(message, "content", body);
        if (!content.is_null() && !content.is_string()) {
            malformed("message.content is not a string", body);
        }
        out.text = content.is_string() ? content.get<std::string>() : std::string();
    } else {
        const json& text = member(c, "text", body);
        if (!text.is_string()) {
            malformed("text is not a string", body);
        }
        out.text = text.get<std::string>();
    }
    if (c.contains("logprobs") && !c["logprobs"].is_null()) {
        if (!c["logprobs"].is_object()) {
            malformed("logprobs is not an object", body);
        }
        out.steps =
            api == "chat" ? chatSteps(c["logprobs"], body) : completionSteps(c["logprobs"], body);
    }
    out.prompt_tokens = usageField(j, "prompt_tokens");
    out.completion_tokens = usageField(j, "completion_tokens");
    return out;
}

std::string serverMessage(std::string_view body) {
    const std::optional<json> j = tryParseJson(body);
    if (!j || !j->is_object()) {
        return {};
    }
    for (const char* key : {"error", "detail", "message"}) {
        if (!j->contains(key)) {
            continue;
        }
        const json& v = (*j)[key];
        if (v.is_string()) {
            return escapeControls(truncated(v.get<std::string>(), 200));
        }
        if (v.is_object() && v.contains("message") && v["message"].is_string()) {
            return escapeControls(truncated(v["message"].get<std::string>(), 200));
        }
        return escapeControls(truncated(v.dump(), 200));
    }
    return {};
}

std::string snippet(std::string_view body) {
    if (body.empty()) {
        return "(empty)";
    }
    std::string head(body.substr(0, 120));
    dropPartialUtf8(head);
    const std::string out = escapeControls(head);
    return body.size() > 120 ? out + "..." : out;
}

std::vector<std::string> parseModelList(std::string_view body) {
    const json j = replyObject(body, "not a model list");
    if (!j.contains("data") || !j["data"].is_array()) {
        malformed("not a model list", body);
    }
    std::vector<std::string> ids;
    for (const json& m : j["data"]) {
        if (m.is_object() && m.contains("id") && m["id"].is_string()) {
            ids.push_back(m["id"].get<std::string>());
        }
    }
    return ids;
}

} // namespace probaudit::endpoint
