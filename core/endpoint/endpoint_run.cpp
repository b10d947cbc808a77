#include "core/endpoint/endpoint_run.h"

#include "core/common/build_info.h"
#include "core/common/error.h"
#include "core/common/sha256.h"
#include "core/common/vocabulary.h"
#include "core/endpoint/http_pool.h"
#include "core/endpoint/label_decision.h"
#include "core/endpoint/openai_api.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace probaudit::endpoint {

using nlohmann::json;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::string apiPath(const EndpointSpec& e) {
    return e.api == "chat" ? "chat/completions" : "completions";
}

// The key's value, for scrubbing it out of anything a server says back; "" when none.
std::string keyValue(const EndpointSpec& e) {
    const char* v = e.api_key_env.empty() ? nullptr : std::getenv(e.api_key_env.c_str());
    return v == nullptr ? std::string() : std::string(v);
}

// A server may echo what it was sent: no text it returns reaches a message or the ledger with
// the key in it.
std::string scrub(std::string text, const std::string& key) {
    if (key.size() >= 4) {
        for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
            text.replace(at, key.size(), "[key]");
        }
    }
    return text;
}

// A header's bytes as valid UTF-8 (invalid bytes become U+FFFD): a server's header goes into the
// environment fingerprint, which is JSON.
std::string validUtf8(const std::string& bytes) {
    return json::parse(json(bytes).dump(-1, ' ', false, json::error_handler_t::replace))
        .get<std::string>();
}

// The same for every string of a JSON document (object keys too) that goes into the ledger.
void scrubAll(json& j, const std::string& key) {
    if (key.size() < 4) {
        return;
    }
    if (j.is_string()) {
        j = scrub(j.get<std::string>(), key);
    } else if (j.is_array()) {
        for (json& v : j) {
            scrubAll(v, key);
        }
    } else if (j.is_object()) {
        json out = json::object();
        for (auto& [k, v] : j.items()) {
            scrubAll(v, key);
            out[scrub(k, key)] = std::move(v);
        }
        j = std::move(out);
    }
}

std::string withMessage(const HttpResult& r) {
    const std::string m = serverMessage(r.body);
    return m.empty() ? std::string() : ": " + m;
}

std::string tries(const HttpResult& r) {
    return std::to_string(r.attempts.size()) + (r.attempts.size() == 1 ? " try" : " tries");
}

std::string keyRefused(const EndpointSpec& e, const HttpResult& r) {
    return "the server refused the request with HTTP " + std::to_string(r.status) + withMessage(r) +
           (e.api_key_env.empty()
                ? "; no key was sent (name the environment variable that holds it in "
                  "$.model.api_key_env)"
                : "; the key was read from the environment variable " + e.api_key_env);
}

// The sentence that stops a run for a request that got no usable reply, or "" when the reply is
// the item's own business (a 200, or a 4xx about this one request).
std::string serverFault(const EndpointSpec& e, const std::string& url, const HttpResult& r) {
    if (!r.replied()) {
        return "no reply from " + url + " after " + tries(r) + ": " + r.error;
    }
    if (r.status == 401 || r.status == 403) {
        return keyRefused(e, r);
    }
    if (r.status == 404) {
        return url + " answered HTTP 404" + withMessage(r) + " (no such API path, or no model \"" +
               e.model + "\" on this server)";
    }
    if (r.status == 429 || r.status >= 500) {
        return url + " answered HTTP " + std::to_string(r.status) + " after " + tries(r) +
               withMessage(r);
    }
    return {};
}

// A reply names the model that produced it: the one asked for, or a dated snapshot of it
// ("gpt-4o" -> "gpt-4o-2024-08-06"). Anything else is another model.
std::string wrongModel(const EndpointSpec& e, const Completion& c) {
    if (c.model.empty() || c.model == e.model || c.model.rfind(e.model + "-", 0) == 0) {
        return {};
    }
    return "the server answered for model \"" + c.model + "\", not \"" + e.model +
           "\": a reply of another model cannot be recorded as this one's";
}

std::string noLogprobs(const EndpointSpec& e) {
    return "the server at " + e.url + " returned no log-probabilities (top_logprobs) for model \"" +
           e.model +
           "\": a label-token head needs them; audit this server with a generation head "
           "(\"kind\": \"generation\")";
}

std::string splitSentence(const std::string& label, const Step& first) {
    return "the label \"" + label + "\" is more than one token on this server (its first token " +
           "came back as one of: \"" + first.token +
           "\" and the alternatives): choose label words that are single tokens";
}

// A token's id where the server gives only its text: the first 31 bits of its SHA-256, so equal
// texts get equal ids in every run and the records' per-step comparisons apply.
std::int32_t tokenId(const std::string& text) {
    const std::string h = sha256Hex(text.data(), text.size());
    return static_cast<std::int32_t>(std::stoul(h.substr(0, 8), nullptr, 16) & 0x7fffffffU);
}

json attemptsJson(const std::vector<HttpAttempt>& attempts, const std::string& key) {
    json out = json::array();
    for (const HttpAttempt& a : attempts) {
        json j{
            {"sent", a.sent}, {"first_byte", a.first_byte}, {"done", a.done}, {"status", a.status}};
        if (!a.error.empty()) {
            j["error"] = scrub(a.error, key);
        }
        out.push_back(std::move(j));
    }
    return out;
}

// A server may return more alternatives per token than were asked for (10^6 instead of 5):
// only the `asked` most likely are kept, decided on and recorded (none are cut when none were
// asked for a number).
Completion keepAsked(Completion c, std::int64_t asked) {
    if (asked > 0) {
        for (Step& s : c.steps) {
            if (s.top.size() > std::size_t(asked)) {
                s.top.resize(std::size_t(asked));
                s.top.shrink_to_fit();
            }
        }
    }
    return c;
}

json topJson(const std::vector<Step>& steps) {
    json out = json::array();
    for (const Step& s : steps) {
        json step = json::array();
        for (const TokenLogprob& t : s.top) {
            step.push_back(json::array({t.token, t.logprob}));
        }
        out.push_back(std::move(step));
    }
    return out;
}

class RunState {
public:
    RunState(const EndpointRun& run, double session)
        : m_run(run), m_e(*run.endpoint), m_head(*run.head), m_key(keyValue(m_e)),
          m_session(session) {}

    // The item's outcome from its reply; a server-level problem is returned in `fault`.
    ItemOutcome outcome(std::size_t pos, const HttpResult& r, std::string& fault) const {
        ItemOutcome o;
        o.position = pos;
        json ex{{"session", m_session},
                {"attempts", attemptsJson(r.attempts, m_key)},
                {"status", r.status}};
        if (!r.warmup_attempts.empty()) {
            ex["warmup"] = attemptsJson(r.warmup_attempts, m_key);
        }
        std::optional<Completion> c;
        std::string failure;
        if (r.status != 200) {
            failure = "HTTP " + std::to_string(r.status) + withMessage(r);
        } else {
            try {
                c = keepAsked(parseCompletion(r.body, m_e.api), m_e.top_logprobs);
            } catch (const ReplyError& e) {
                failure = e.what();
            }
        }
        if (c) {
            fault = wrongModel(m_e, *c);
            if (fault.empty() && !m_head.generation()) {
                if (!c->logprobs() || c->steps.front().top.empty()) {
                    fault = noLogprobs(m_e);
                } else if (const std::string split = splitLabel(c->steps.front(), m_head.labels);
                           !split.empty()) {
                    fault = splitSentence(split, c->steps.front());
                }
            }
            if (!fault.empty()) {
                return o;
            }
            ex["model"] = c->model;
            ex["finish"] = c->finish;
            ex["usage"] = {{"prompt_tokens", c->prompt_tokens},
                           {"completion_tokens", c->completion_tokens}};
            if (!c->system_fingerprint.empty()) {
                ex["system_fingerprint"] = c->system_fingerprint;
            }
            json tokens = json::array();
            for (const Step& step : c->steps) {
                tokens.push_back(step.token);
            }
            ex["tokens"] = std::move(tokens);
            ex["top"] = topJson(c->steps);
        } else {
            o.failed = true;
            ex["failed"] = scrub(failure, m_key);
        }
        fill(o, pos, r, c ? &*c : nullptr);
        o.request.item = m_run.items[pos];
        scrubAll(ex, m_key); // a server that echoes the request has the key in its reply
        o.request.json = ex.dump(-1, ' ', false, json::error_handler_t::replace);
        o.output.text = scrub(std::move(o.output.text), m_key);
        return o;
    }

private:
    void fill(ItemOutcome& o, std::size_t pos, const HttpResult& r, const Completion* c) const {
        const std::int64_t item = m_run.items[pos];
        const HttpAttempt& last = r.attempts.back();
        if (m_head.generation()) {
            ledger::GenerationRecord& g = o.output;
            g.item = item;
            g.arrival = m_run.arrival[pos];
            g.finish = c == nullptr ? "failed" : c->finish;
            if (c != nullptr) {
                g.prompt_tokens = std::max<std::int64_t>(c->prompt_tokens, 0);
                g.text = c->text;
                for (const Step& s : c->steps) {
                    g.tokens.push_back(tokenId(s.token));
                    g.logits.push_back(s.logprob ? float(*s.logprob) : kNaN);
                    g.gaps.push_back(s.top.size() >= 2 ? float(s.top[0].logprob - s.top[1].logprob)
                                                       : kNaN);
                    g.batch.push_back(-1); // the server's batch is not known
                }
            }
            return;
        }
        ledger::Record& rec = o.record;
        rec.item = item;
        rec.batch = m_run.arrival[pos];
        rec.batch_seconds = last.done - last.sent;
        const std::size_t classes = m_head.labels.size();
        if (c == nullptr) {
            rec.probs.assign(classes, kNaN);
            rec.logits.assign(classes, kNaN);
            rec.decision = -1;
            rec.margin = kNaN;
            rec.nonfinite = true;
            return;
        }
        const LabelDecision d = decideLabels(c->steps.front(), m_head.labels);
        rec.tokens = std::max<std::int64_t>(c->prompt_tokens, 0);
        for (std::size_t k = 0; k < classes; ++k) {
            rec.probs.push_back(float(d.probs[k]));
            rec.logits.push_back(float(d.logprobs[k]));
        }
        rec.decision = d.decision;
        if (classes == 2 && m_head.threshold >= 0 && d.missing == 0) {
            rec.decision = rec.probs[1] >= m_head.threshold ? 1 : 0;
        }
        rec.margin = float(d.margin);
        rec.nonfinite = d.decision < 0;
    }

    const EndpointRun& m_run;
    const EndpointSpec& m_e;
    const HeadSpec& m_head;
    const std::string m_key;
    const double m_session;
};

CompletionRequest completionRequest(const EndpointRun& run, const std::string& prompt) {
    CompletionRequest cr;
    cr.prompt = prompt;
    if (run.head->generation()) {
        cr.max_tokens = run.head->max_new_tokens;
        cr.stop = run.head->stop;
    }
    if (run.config.seed >= 0) {
        cr.seed = run.config.seed;
    }
    cr.top_logprobs = run.endpoint->top_logprobs;
    return cr;
}

PoolOptions poolOptions(const EndpointSpec& e, std::int64_t concurrency) {
    PoolOptions o;
    o.concurrency = static_cast<int>(concurrency);
    o.timeout_seconds = e.timeout_seconds;
    o.max_retries = e.max_retries;
    o.headers = authHeaders(e);
    return o;
}

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

std::vector<std::string> authHeaders(const EndpointSpec& e) {
    if (e.api_key_env.empty()) {
        return {};
    }
    const char* v = std::getenv(e.api_key_env.c_str());
    if (v == nullptr || *v == '\0') {
        throw Error("$.model.api_key_env names the environment variable " + e.api_key_env +
                    ", which is not set (or empty) here; set it to the server's key");
    }
    const std::string key(v);
    // A control character (CR, LF, ...) in the key would end the header line and start
    // another: the server would get headers the study never declared.
    if (std::any_of(key.begin(), key.end(),
                    [](unsigned char c) { return c < 0x20 || c == 0x7f; })) {
        throw Error("$.model.api_key_env names the environment variable " + e.api_key_env +
                    ", whose value holds a control character (a line break?); an API key is "
                    "one line of printable characters");
    }
    return {"Authorization: Bearer " + key};
}

EndpointStats runEndpoint(const EndpointRun& run, const std::function<bool(ItemOutcome&&)>& sink,
                          const std::atomic<bool>* stop) {
    const EndpointSpec& e = *run.endpoint;
    const std::string url = e.endpointUrl(apiPath(e));
    std::vector<HttpRequest> requests(run.prompts.size());
    for (std::size_t pos : run.order) {
        const CompletionRequest cr = completionRequest(run, run.prompts.at(pos));
        requests.at(pos) = HttpRequest::post(url, requestBody(e, cr));
        requests[pos].max_reply_bytes = replyBytesNeeded(cr);
        if (run.config.prefix_cache == PrefixCache::Warm) {
            requests[pos].warmup = requests[pos].body;
        }
    }
    HttpPool pool(poolOptions(e, run.config.concurrency));
    const RunState state(run, unixNow());
    std::string fault;
    EndpointStats stats;
    pool.run(
        requests, run.order,
        [&](std::size_t pos, HttpResult&& r) {
            std::string itemFault = serverFault(e, url, r);
            ItemOutcome o;
            if (itemFault.empty()) {
                o = state.outcome(pos, r, itemFault);
            }
            if (!itemFault.empty()) {
                if (fault.empty()) {
                    fault = itemFault;
                }
                return false;
            }
            ++stats.done;
            stats.failed += o.failed ? 1 : 0;
            const bool more = sink(std::move(o));
            return more && fault.empty();
        },
        stop);
    if (!fault.empty()) {
        throw Error(scrub(fault, keyValue(e)) + "; the run stopped (" + std::to_string(stats.done) +
                    " items recorded now), run again to resume");
    }
    return stats;
}

std::vector<std::string> listModels(const EndpointSpec& e, std::string* serverHeader) {
    const std::string key = keyValue(e);
    PoolOptions o = poolOptions(e, 1);
    o.timeout_seconds = std::min(e.timeout_seconds, 60.0);
    HttpPool pool(o);
    const std::string modelsUrl = e.endpointUrl("models");
    const HttpResult r = pool.fetch(HttpRequest::get(modelsUrl));
    if (!r.replied()) {
        throw Error("cannot reach " + modelsUrl + ": " + scrub(r.error, key));
    }
    if (r.status == 401 || r.status == 403) {
        throw Error(scrub(keyRefused(e, r), key));
    }
    if (r.status != 200) {
        throw Error(modelsUrl + " answered HTTP " + std::to_string(r.status) +
                    scrub(withMessage(r), key));
    }
    try {
        if (serverHeader != nullptr) {
            *serverHeader = r.header("server");
        }
        return parseModelList(r.body);
    } catch (const ReplyError& x) {
        throw Error(modelsUrl + ": " + scrub(x.what(), key));
    }
}

json preflight(const EndpointSpec& e, const std::vector<const HeadSpec*>& heads) {
    const std::string key = keyValue(e);
    std::string header;
    const std::vector<std::string> ids = listModels(e, &header);
    if (std::find(ids.begin(), ids.end(), e.model) == ids.end()) {
        std::string list;
        for (const auto& id : ids) {
            list += (list.empty() ? "" : ", ") + id;
        }
        throw Error("the server at " + e.url + " does not serve model \"" + e.model +
                    "\" (it lists: " + (list.empty() ? "none" : scrub(list, key)) + ")");
    }
    json server{{"models", ids}};
    if (!header.empty()) {
        server["header"] = validUtf8(header);
    }
    PoolOptions o = poolOptions(e, 1);
    o.timeout_seconds = std::min(e.timeout_seconds, 60.0);
    HttpPool pool(o);
    const std::string url = e.endpointUrl(apiPath(e));
    for (const HeadSpec* h : heads) {
        EndpointRun probe;
        probe.endpoint = &e;
        probe.head = h;
        CompletionRequest cr = completionRequest(probe, h->prompt("Hello."));
        cr.max_tokens = 1;
        HttpRequest probeRequest = HttpRequest::post(url, requestBody(e, cr));
        probeRequest.max_reply_bytes = replyBytesNeeded(cr);
        const HttpResult p = pool.fetch(probeRequest);
        std::string fault = serverFault(e, url, p);
        if (fault.empty() && p.status != 200) {
            fault = url + " answered HTTP " + std::to_string(p.status) + withMessage(p);
        }
        if (!fault.empty()) {
            throw Error(scrub(fault, key));
        }
        Completion c;
        try {
            c = keepAsked(parseCompletion(p.body, e.api), e.top_logprobs);
        } catch (const ReplyError& x) {
            throw Error(url + ": " + scrub(x.what(), key));
        }
        fault = wrongModel(e, c);
        if (fault.empty() && !h->generation()) {
            if (!c.logprobs() || c.steps.front().top.empty()) {
                fault = noLogprobs(e);
            } else if (const std::string split = splitLabel(c.steps.front(), h->labels);
                       !split.empty()) {
                fault = splitSentence(split, c.steps.front());
            }
        }
        if (!fault.empty()) {
            throw Error("head " + h->name + ": " + scrub(fault, key));
        }
        if (!c.system_fingerprint.empty()) {
            server["system_fingerprint"] = c.system_fingerprint;
        }
    }
    scrubAll(server, key); // what the server says of itself: its header, its model list
    return json{{"kind", EnvKind::Endpoint},
                {"endpoint", {{"url", e.url}, {"api", e.api}, {"model", e.model}}},
                {"server", server},
                {"labels", e.labels},
                {"client", {{"probaudit", engineVersion()}, {"commit", gitCommit()}}}};
}

} // namespace probaudit::endpoint
