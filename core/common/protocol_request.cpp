#include "core/common/protocol_request.h"

#include "core/common/json_read.h"
#include "core/common/protocol.h"

#include <algorithm>

namespace probaudit::protocol {

using nlohmann::json;

LineRead readRequestLine(std::streambuf& in, std::string& line, std::size_t max) {
    line.clear();
    bool tooLong = false;
    for (;;) {
        const int c = in.sbumpc();
        if (c == std::char_traits<char>::eof()) {
            return tooLong ? LineRead::TooLong : line.empty() ? LineRead::End : LineRead::Line;
        }
        if (c == '\n') {
            return tooLong ? LineRead::TooLong : LineRead::Line;
        }
        if (tooLong) {
            continue; // the rest of a line already refused
        }
        if (line.size() < max) {
            line.push_back(static_cast<char>(c));
        } else {
            tooLong = true;
            line = std::string(); // give the memory back now
        }
    }
}

namespace {

// The field `key` of params, checked against its type; absent: `fallback`.
class Params {
public:
    Params(const json& id, const std::string& method, const json& p)
        : m_id(id), m_method(method), m_p(p) {}

    std::string text(const char* key, const std::string& fallback, bool required = false) const {
        const json* v = find(key, required);
        if (v == nullptr) {
            return fallback;
        }
        if (!v->is_string()) {
            fail(key, "must be a string");
        }
        return v->get<std::string>();
    }
    std::vector<std::string> names(const char* key) const {
        const json* v = find(key, false);
        std::vector<std::string> out;
        if (v == nullptr) {
            return out;
        }
        if (!v->is_array()) {
            fail(key, "must be an array of names");
        }
        for (const json& n : *v) {
            if (!n.is_string()) {
                fail(key, "must be an array of names");
            }
            out.push_back(n.get<std::string>());
        }
        return out;
    }
    bool flag(const char* key) const {
        const json* v = find(key, false);
        if (v != nullptr && !v->is_boolean()) {
            fail(key, "must be true or false");
        }
        return v != nullptr && v->get<bool>();
    }
    std::int64_t integer(const char* key, std::int64_t fallback, std::int64_t low,
                         std::int64_t high) const {
        const json* v = find(key, false);
        if (v == nullptr) {
            return fallback;
        }
        const bool fits = v->is_number_integer() &&
                          (v->is_number_unsigned() ? v->get<std::uint64_t>() <= std::uint64_t(high)
                                                   : v->get<std::int64_t>() <= high) &&
                          (v->is_number_unsigned() || v->get<std::int64_t>() >= low);
        if (!fits) {
            fail(key,
                 "must be an integer from " + std::to_string(low) + " to " + std::to_string(high));
        }
        return v->is_number_unsigned() ? std::int64_t(v->get<std::uint64_t>())
                                       : v->get<std::int64_t>();
    }
    std::uint64_t seed(const char* key) const {
        const json* v = find(key, false);
        if (v == nullptr) {
            return 1;
        }
        if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0)) {
            fail(key, "must be an integer from 0 up");
        }
        return v->get<std::uint64_t>();
    }

private:
    const json* find(const char* key, bool required) const {
        const auto it = m_p.find(key);
        if (it == m_p.end()) {
            if (required) {
                fail(key, "is required");
            }
            return nullptr;
        }
        return &*it;
    }
    [[noreturn]] void fail(const char* key, const std::string& why) const {
        throw RequestError(m_id, "malformed " + m_method + " request: params." + key + " " + why);
    }

    const json& m_id;
    const std::string& m_method;
    const json& m_p;
};

RunParams runParams(const json& id, const std::string& method, const json& p) {
    if (!p.is_object()) {
        throw RequestError(id, "malformed " + method + " request: params must be an object");
    }
    const Params in(id, method, p);
    RunParams o;
    o.study = in.text("study", "", true);
    o.ledger = in.text("ledger", "");
    o.configs = in.names("configs");
    o.heads = in.names("heads");
    o.all = in.flag("all");
    o.again = in.flag("again");
    o.skip_bad_lines = in.flag("skip_bad_lines");
    o.head = in.text("head", "");
    o.sample = in.integer("sample", 32, 1, kMaxDiagnoseSample);
    o.batch = in.integer("batch", 8, 1, kMaxDiagnoseBatch);
    o.seed = in.seed("seed");
    return o;
}

} // namespace

Request decodeRequest(const std::string& line) {
    json req;
    try {
        req = parseJson(line);
    } catch (const JsonError& e) {
        throw RequestError(nullptr, std::string("the request is not accepted: ") + e.what());
    }
    Request r;
    r.id = req.is_object() && req.contains("id") ? req["id"] : json();
    if (!req.is_object() || !req.contains("method") || !req["method"].is_string()) {
        throw RequestError(r.id,
                           "the request has no method (a JSON object with a string \"method\")");
    }
    r.method = req["method"].get<std::string>();
    if (r.method == method::kRun || r.method == method::kDiagnose) {
        r.params =
            runParams(r.id, r.method, req.contains("params") ? req["params"] : json::object());
    } else if (r.method != method::kEnv && r.method != method::kCancel &&
               r.method != method::kShutdown) {
        // The name as sent, but never a megabyte of it in the reply.
        std::size_t cut = std::min<std::size_t>(r.method.size(), 64);
        while (cut < r.method.size() && cut > 0 && (r.method[cut] & 0xC0) == 0x80) {
            --cut; // not inside a UTF-8 sequence
        }
        const std::string shown = r.method.substr(0, cut) + (cut < r.method.size() ? "…" : "");
        throw RequestError(r.id, "unknown method \"" + shown +
                                     "\" (env, run, diagnose, cancel, shutdown)");
    }
    return r;
}

} // namespace probaudit::protocol
