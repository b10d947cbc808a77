#include "core/pyrunner/runner_replies.h"

#include "core/common/base64.h"
#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace probaudit::runner {

using nlohmann::json;

namespace {

// What an error event of the runner says (its message, control characters escaped), or
// `otherwise` when it says nothing readable.
std::string runnerSays(const json& event, const std::string& otherwise) {
    const auto message = fieldString(event, "message");
    return message ? escapeControls(*message) : otherwise;
}

// Floats sent as base64 of their little-endian float32 bytes: exact, and a third of decimal.
std::vector<float> decodeFloats(const json& j, const char* what) {
    if (!j.is_string()) {
        throw Error(std::string("the runner's reply has no ") + what);
    }
    const auto bytes = base64Decode(j.get_ref<const std::string&>());
    if (!bytes) {
        throw Error(std::string("the runner's ") + what + " are not base64");
    }
    const std::size_t size = bytes->size();
    if (size % sizeof(float) != 0) {
        throw Error(std::string("the runner's ") + what + " are not whole float32 values");
    }
    std::vector<float> out(size / sizeof(float));
    std::memcpy(out.data(), bytes->data(), size);
    return out;
}

// Per hidden state, 16 hex digits.
std::vector<std::uint64_t> decodeHashes(const json& j) {
    std::vector<std::uint64_t> out;
    if (!j.is_array()) {
        throw Error("the runner's reply has no layer hashes");
    }
    for (const auto& h : j) {
        const std::string s = h.is_string() ? h.get<std::string>() : std::string();
        if (s.size() != 16 || s.find_first_not_of("0123456789abcdef") != std::string::npos) {
            throw Error("the runner's layer hashes are not 16 hex digits each");
        }
        out.push_back(std::stoull(s, nullptr, 16));
    }
    return out;
}

// An integer of the protocol that must fit `T` (a token id, a count); nothing else is one.
template <class T> std::optional<T> integer(const json& j) {
    if (!j.is_number_integer()) {
        return std::nullopt;
    }
    if (j.is_number_unsigned()) {
        const auto v = j.get<std::uint64_t>();
        return v <= std::uint64_t(std::numeric_limits<T>::max()) ? std::optional<T>(T(v))
                                                                 : std::nullopt;
    }
    const auto v = j.get<std::int64_t>();
    return v >= std::int64_t(std::numeric_limits<T>::min()) &&
                   v <= std::int64_t(std::numeric_limits<T>::max())
               ? std::optional<T>(T(v))
               : std::nullopt;
}

// One item of a tokenize reply.
RunnerItem runnerItem(const json& it, const std::string& python) {
    if (!it.is_object() || !it.contains("ids") || !it["ids"].is_array()) {
        throw Error(python, "the transformers runner's tokens are not a list of ids");
    }
    const json& ids = it["ids"];
    RunnerItem item;
    for (const json& id : ids) {
        const auto v = integer<std::int64_t>(id);
        if (!v) {
            throw Error(python, "the transformers runner's tokens are not a list of ids");
        }
        item.ids.push_back(*v);
    }
    const json truncated = it.value("truncated", json(false));
    if (!truncated.is_boolean()) {
        throw Error(python, "the transformers runner's \"truncated\" is not true or false");
    }
    item.truncated = truncated.get<bool>();
    if (item.ids.empty()) {
        throw Error(python, "the transformers runner's tokenizer gave an item no tokens");
    }
    return item;
}

// The array at `key` of `result`, of `n` elements; refused otherwise.
const json& arrayOf(const json& result, const char* key, std::size_t n, const std::string& python,
                    const char* what) {
    static const json none;
    const json& a = result.is_object() && result.contains(key) ? result[key] : none;
    if (!a.is_array() || a.size() != n) {
        throw Error(python,
                    std::string("the transformers runner returned another number of ") + what);
    }
    return a;
}

// One step of a generation into `rec`.
void readStep(const json& st, std::int64_t topLogprobs, ledger::GenerationRecord& rec) {
    const auto token = integer<std::int32_t>(st.at("token"));
    const auto batch = integer<std::int32_t>(st.at("batch"));
    if (!token || !batch) {
        throw json::other_error::create(501, "a step's token or batch is not an integer", nullptr);
    }
    rec.tokens.push_back(*token);
    rec.logits.push_back(decodeFloats(st.at("logit"), "step logits").at(0));
    rec.gaps.push_back(decodeFloats(st.at("gap"), "step gaps").at(0));
    rec.batch.push_back(*batch);
    if (topLogprobs > 0) {
        const json& ids = st.at("top_tokens");
        const auto lp = decodeFloats(st.at("top_logprobs"), "top log-probabilities");
        if (!ids.is_array() || ids.size() != lp.size()) {
            throw json::other_error::create(501, "top tokens and log-probabilities differ",
                                            nullptr);
        }
        for (const json& id : ids) {
            const auto v = integer<std::int32_t>(id);
            if (!v) {
                throw json::other_error::create(501, "a top token is not an integer", nullptr);
            }
            rec.top_tokens.push_back(*v);
        }
        rec.top_logprobs.insert(rec.top_logprobs.end(), lp.begin(), lp.end());
    }
}

} // namespace

RunnerReady readReady(const std::string& line, const std::string& python) {
    json ready;
    try {
        ready = parseJson(line);
    } catch (const std::exception&) {
        throw Error(python, "the transformers runner's first line is not JSON");
    }
    if (eventKind(ready) == EventKind::Error) {
        throw Error(runnerSays(ready, python + ": the runner could not start"));
    }
    const auto version = fieldInt64(ready, "protocol").value_or(-1);
    if (eventKind(ready) != EventKind::Ready || version != kRunnerProtocol) {
        throw Error(python, "the runner speaks protocol " + std::to_string(version) +
                                ", this probaudit speaks " + std::to_string(kRunnerProtocol) +
                                " (use the probaudit_runner that came with this probaudit)");
    }
    RunnerReady out;
    const std::pair<const char*, std::string*> fields[] = {{"python", &out.python},
                                                           {"torch", &out.torch},
                                                           {"transformers", &out.transformers},
                                                           {"row_hash", &out.rowHash}};
    for (const auto& [key, value] : fields) {
        if (ready.contains(key) && !ready[key].is_string()) {
            throw Error(python, std::string("the transformers runner's \"ready\" line has a \"") +
                                    key + "\" that is not a string");
        }
        *value = fieldString(ready, key).value_or("");
    }
    return out;
}

json replyResult(const std::string& line, std::int64_t id, const std::string& method,
                 const std::string& python) {
    json reply;
    try {
        // The tree of a line the bound let through: its strings (base64 numbers) and the
        // values of a small reply; never a flood of tiny values past kMaxJsonTreeBytes.
        reply = parseJson(line, DuplicateKeys::Refuse,
                          std::max(kMaxJsonTreeBytes, line.size() + line.size() / 4));
    } catch (const JsonError& e) {
        throw Error(python, "the transformers runner answered \"" + method + "\" with a line " +
                                "that is not the protocol's JSON: " + e.what());
    }
    if (fieldInt64(reply, "id") != id) {
        throw Error(python,
                    "the transformers runner answered another request than \"" + method + "\"");
    }
    if (eventKind(reply) == EventKind::Error) {
        throw Error(runnerSays(reply, "the runner failed \"" + method + "\""));
    }
    if (eventKind(reply) != EventKind::Result || !reply.contains("result")) {
        throw Error(python, "the transformers runner's reply to \"" + method + "\" has no result");
    }
    return std::move(reply["result"]);
}

LoadedShape loadedShape(const json& result, const std::string& python) {
    const auto labels = result.is_object() ? result.find("labels") : result.end();
    if (!result.is_object() || labels == result.end() || !labels->is_array()) {
        throw Error(python, "the transformers runner's answer to load names no labels");
    }
    const auto states = fieldInt64(result, "hidden_states").value_or(0);
    const auto size = fieldInt64(result, "hidden_size").value_or(0);
    if (states < 1 || states > kMaxModelLayers || size < 1 || size > kMaxHiddenSize) {
        throw Error(python, "the transformers runner's answer to load gives no plausible "
                            "hidden_states and hidden_size");
    }
    return {labels->size(), std::size_t(states), std::size_t(size)};
}

std::vector<RunnerItem> tokenizedItems(const json& result, std::size_t texts,
                                       const std::string& python) {
    std::vector<RunnerItem> out;
    for (const auto& it : arrayOf(result, "items", texts, python, "tokenized texts")) {
        out.push_back(runnerItem(it, python));
    }
    return out;
}

std::vector<RunnerRecord> forwardRecords(const json& result, std::size_t rows, std::size_t classes,
                                         const std::string& capture, const std::string& python) {
    std::vector<RunnerRecord> out;
    for (const auto& j : arrayOf(result, "records", rows, python, "records")) {
        if (!j.is_object()) {
            throw Error(python, "the transformers runner returned a record that is not an object");
        }
        RunnerRecord rec;
        rec.logits = decodeFloats(j.value("logits", json()), "logits");
        if (rec.logits.empty() || rec.logits.size() != classes) {
            throw Error(python, "the transformers runner returned " +
                                    std::to_string(rec.logits.size()) +
                                    " logits for an item of a head with " +
                                    std::to_string(classes) + " labels");
        }
        if (capture != "none") {
            rec.hashes = decodeHashes(j.value("hashes", json()));
        }
        if (capture == "vectors" || capture == "full") {
            rec.vectors = decodeFloats(j.value("vectors", json()), "vectors");
        }
        if (capture == "full") {
            rec.full = decodeFloats(j.value("full", json()), "full hidden states");
        }
        out.push_back(std::move(rec));
    }
    return out;
}

RunnerTrace runnerTrace(const json& result, const std::string& python) {
    const json& t = fieldObject(result, "trace");
    const auto counts = [&](const char* part) {
        if (!t.contains(part) || !t[part].is_object()) {
            return false;
        }
        return std::all_of(t[part].begin(), t[part].end(), [](const json& n) {
            return n.is_number_integer() && integer<std::int64_t>(n).value_or(-1) >= 0;
        });
    };
    const std::string from = fieldString(result, "ops_from").value_or("");
    if (!counts("ops") || !counts("device_kernels") || (from != "native" && from != "profiler")) {
        throw Error(python, "the transformers runner's kernel trace is not a set of counts "
                            "with how they were counted");
    }
    return {t, from, fieldString(result, "why").value_or("")};
}

std::vector<ledger::GenerationRecord> generations(const json& result, std::size_t prompts,
                                                  std::int64_t topLogprobs,
                                                  const std::string& python) {
    std::vector<ledger::GenerationRecord> out;
    for (const auto& g : arrayOf(result, "generations", prompts, python, "generations")) {
        ledger::GenerationRecord rec;
        rec.item = rec.arrival = static_cast<std::int64_t>(out.size());
        try {
            const auto promptTokens = integer<std::int64_t>(g.at("prompt_tokens"));
            if (!promptTokens || !g.at("steps").is_array()) {
                throw json::other_error::create(501, "not the protocol's form", nullptr);
            }
            rec.prompt_tokens = *promptTokens;
            rec.text = g.at("text").get<std::string>();
            rec.finish = g.at("finish").get<std::string>();
            for (const auto& st : g.at("steps")) {
                readStep(st, topLogprobs, rec);
            }
        } catch (const json::exception&) {
            throw Error(python, "the transformers runner's generation is not in the protocol's "
                                "form");
        } catch (const std::out_of_range&) {
            throw Error(python, "the transformers runner's generation step has no value");
        }
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace probaudit::runner
