#include "core/pyrunner/transformers_runner.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"
#include "core/process/child_process.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace probaudit::runner {

using nlohmann::json;
namespace fs = std::filesystem;

std::string runnerPackageDir() {
    if (const char* dir = std::getenv("PROBAUDIT_RUNNERS_DIR"); dir != nullptr && *dir != '\0') {
        return dir;
    }
    const fs::path exeDir = fs::read_symlink("/proc/self/exe").parent_path();
    return (exeDir.parent_path() / "share" / "probaudit" / "runners" / "python").string();
}

std::string rowHashLibrary() {
    const fs::path exeDir = fs::read_symlink("/proc/self/exe").parent_path();
    const fs::path lib = exeDir.parent_path() / "lib" / "probaudit" / "libprobaudit_rowhash.so";
    return ::access(lib.c_str(), R_OK) == 0 ? lib.string() : std::string();
}

namespace {

// What an error event of the runner says (its message, control characters escaped), or
// `otherwise` when it says nothing readable.
std::string runnerSays(const json& event, const std::string& otherwise) {
    const auto message = fieldString(event, "message");
    return message ? escapeControls(*message) : otherwise;
}

// The runner's first line: its "ready" (protocol kRunnerProtocol, string fields) or its "error".
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

// Floats sent as base64 of their little-endian float32 bytes: exact, and a third of decimal.
std::vector<float> decodeFloats(const json& j, const char* what) {
    if (!j.is_string()) {
        throw Error(std::string("the runner's reply has no ") + what);
    }
    const std::string& text = j.get_ref<const std::string&>();
    std::string bytes(text.size() / 4 * 3 + 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0 || text.size() % 4 != 0) {
        throw Error(std::string("the runner's ") + what + " are not base64");
    }
    std::size_t padding = 0;
    for (std::size_t k = text.size(); k > 0 && text[k - 1] == '='; --k) {
        ++padding; // EVP_DecodeBlock counts the padding as zero bytes
    }
    if (padding > 2 || std::size_t(n) < padding) {
        throw Error(std::string("the runner's ") + what + " are not base64");
    }
    const std::size_t size = std::size_t(n) - padding;
    if (size % sizeof(float) != 0) {
        throw Error(std::string("the runner's ") + what + " are not whole float32 values");
    }
    std::vector<float> out(size / sizeof(float));
    std::memcpy(out.data(), bytes.data(), size);
    return out;
}

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

std::string lastLine(const std::string& file) {
    std::ifstream in(file);
    std::string line, last;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") != std::string::npos) {
            last = line;
        }
    }
    return last.size() > 400 ? last.substr(0, 400) + "..." : last;
}

} // namespace

TransformersRunner::TransformersRunner(const study::Environment& env) : m_env(env) {
    m_python = env.python.find('/') != std::string::npos
                   ? env.python
                   : executableOnPath(env.python, " (environment \"" + env.name + "\")");
    if (::access(m_python.c_str(), X_OK) != 0) {
        throw Error(m_python, "no such interpreter (environment \"" + env.name + "\")");
    }
    char tmpl[] = "/tmp/probaudit-runner-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) {
        throw Error("could not make a temporary file for the runner's messages");
    }
    ::close(fd);
    m_stderrFile = tmpl;
    // The runner's package first on PYTHONPATH, then the environment's own (or this process's).
    std::vector<std::string> vars;
    const char* inherited = std::getenv("PYTHONPATH");
    std::string path = inherited != nullptr ? inherited : "";
    for (const std::string& v : env.vars) {
        if (v.rfind("PYTHONPATH=", 0) == 0) {
            path = v.substr(11);
        } else {
            vars.push_back(v);
        }
    }
    vars.push_back("PYTHONPATH=" + runnerPackageDir() + (path.empty() ? "" : ":" + path));
    vars.push_back("HF_HUB_OFFLINE=1"); // no hub: local folders and files only
    vars.push_back("TRANSFORMERS_VERBOSITY=error");
    vars.push_back("PYTHONUNBUFFERED=1");
    // glibc's malloc serves big blocks with mmap and frees them with munmap until its dynamic
    // threshold has grown past a model's activations: in a fresh runner every batch's hidden
    // states are page faults again for the first few hundred batches (MiniLM's first 200 items
    // ran 15% slower than in a warm process). Fixed thresholds keep them in the heap from the
    // start; allocation moves no number (torch aligns its tensors itself). The environment's
    // own settings win.
    for (const char* tune :
         {"MALLOC_MMAP_THRESHOLD_=268435456", "MALLOC_TRIM_THRESHOLD_=1073741824"}) {
        const std::string name(tune, std::strchr(tune, '=') - tune);
        const bool own = std::getenv(name.c_str()) != nullptr ||
                         std::any_of(vars.begin(), vars.end(), [&](const std::string& v) {
                             return v.rfind(name + "=", 0) == 0;
                         });
        if (!own) {
            vars.emplace_back(tune);
        }
    }
    if (const std::string lib = rowHashLibrary(); !lib.empty()) {
        vars.push_back("PROBAUDIT_ROWHASH_LIB=" + lib); // else the runner hashes in numpy
    }
    m_child = std::make_unique<Child>(
        Child::startServer(m_python, {"-m", "probaudit_runner"}, vars, m_stderrFile));
    std::string line;
    bool started = false;
    try {
        started = m_child->readLine(line, Child::kMaxLineBytes, m_env.timeout_seconds);
    } catch (const Error& e) { // a banner past the bound, or silence
        m_child->stop(0);
        throw Error(m_python, "did not start the transformers runner: " + std::string(e.what()) +
                                  " (its first line must be the protocol's \"ready\")");
    }
    if (!started) {
        throw Error(m_python, "did not start the transformers runner: " + endedMessage());
    }
    m_ready = readReady(line, m_python);
}

TransformersRunner::~TransformersRunner() {
    if (m_child) {
        m_child->writeLine(R"({"id":0,"method":"shutdown"})");
        m_child.reset(); // closes its input and waits
    }
    if (!m_stderrFile.empty()) {
        ::unlink(m_stderrFile.c_str());
    }
}

std::string TransformersRunner::endedMessage() {
    const std::string last = lastLine(m_stderrFile);
    const ChildExit e = m_child->stop();
    std::string how = e.signal != 0 ? "killed by signal " + std::to_string(e.signal)
                                    : "exited with status " + std::to_string(e.code);
    return how + (last.empty() ? "" : " (" + escapeControls(last) + ")");
}

void TransformersRunner::dropDueReplies() {
    while (!m_due.empty()) {
        receive(m_due.front().first);
    }
}

json TransformersRunner::call(const std::string& method, const json& params) {
    dropDueReplies();
    return receive(send(method, params));
}

std::int64_t TransformersRunner::send(const std::string& method, const json& params) {
    const std::int64_t id = m_nextId++;
    const json req{{"id", id}, {"method", method}, {"params", params}};
    if (!m_child->writeLine(req.dump())) {
        throw Error(m_python,
                    "the transformers runner ended during \"" + method + "\": " + endedMessage());
    }
    m_due.emplace_back(id, method);
    return id;
}

json TransformersRunner::receive(std::int64_t id) {
    if (m_due.empty() || m_due.front().first != id) {
        throw Error(m_python, "a transformers runner reply was awaited out of order");
    }
    const std::string method = m_due.front().second;
    m_due.pop_front();
    std::string line;
    bool got = false;
    try {
        got = m_child->readLine(line, Child::kMaxLineBytes, m_env.timeout_seconds);
    } catch (const Error& e) { // a reply line past the bound, or no reply in time: it is stopped
        m_child->stop(0);
        throw Error(m_python, "the transformers runner's answer to \"" + method +
                                  "\": " + e.what() + " (the environment's \"timeout\")");
    }
    if (!got) {
        throw Error(m_python,
                    "the transformers runner ended during \"" + method + "\": " + endedMessage());
    }
    json reply;
    try {
        reply = parseJson(line);
    } catch (const std::exception&) {
        throw Error(m_python, "the transformers runner answered \"" + method +
                                  "\" with a line that "
                                  "is not JSON");
    }
    if (!reply.is_object() || reply.value("id", json()) != id) {
        throw Error(m_python,
                    "the transformers runner answered another request than \"" + method + "\"");
    }
    if (eventKind(reply) == EventKind::Error) {
        throw Error(runnerSays(reply, "the runner failed \"" + method + "\""));
    }
    if (eventKind(reply) != EventKind::Result || !reply.contains("result")) {
        throw Error(m_python,
                    "the transformers runner's reply to \"" + method + "\" has no result");
    }
    return reply["result"];
}

json TransformersRunner::fingerprint() {
    json fp = call("env", json::object());
    if (!fp.is_object()) {
        throw Error(m_python, "the transformers runner's environment fingerprint is not a JSON "
                              "object");
    }
    fp["environment"] = m_env.name;
    return fp;
}

json TransformersRunner::load(const std::string& modelPath, const json& head, const json& config) {
    json r = call("load", {{"model", modelPath}, {"head", head}, {"config", config}});
    const auto labels = r.is_object() ? r.find("labels") : r.end();
    if (!r.is_object() || labels == r.end() || !labels->is_array()) {
        throw Error(m_python, "the transformers runner's answer to load names no labels");
    }
    m_classes = labels->size();
    return r;
}

std::vector<RunnerItem> TransformersRunner::tokenize(const std::vector<std::string>& texts,
                                                     std::int64_t maxLength) {
    const json r = call("tokenize", {{"texts", texts}, {"max_length", maxLength}});
    std::vector<RunnerItem> out;
    if (!r.contains("items") || !r["items"].is_array() || r["items"].size() != texts.size()) {
        throw Error(m_python, "the transformers runner tokenized another number of texts");
    }
    for (const auto& it : r["items"]) {
        RunnerItem item;
        try {
            item.ids = it.at("ids").get<std::vector<std::int64_t>>();
            item.truncated = it.value("truncated", false);
        } catch (const json::exception&) {
            throw Error(m_python, "the transformers runner's tokens are not a list of ids");
        }
        if (item.ids.empty()) {
            throw Error(m_python, "the transformers runner's tokenizer gave an item no tokens");
        }
        out.push_back(std::move(item));
    }
    return out;
}

std::int64_t TransformersRunner::sendForward(const std::vector<std::vector<std::int64_t>>& rows,
                                             const RunConfig& config, const std::string& capture) {
    return send("forward", {{"rows", rows},
                            {"padding_side", config.padding_side},
                            {"pad_to", config.pad_to},
                            {"pad_to_n", config.pad_to_n},
                            {"capture", capture}});
}

std::vector<RunnerRecord> TransformersRunner::receiveForward(std::int64_t id, std::size_t rows,
                                                             const std::string& capture) {
    const json r = receive(id);
    if (!r.contains("records") || !r["records"].is_array() || r["records"].size() != rows) {
        throw Error(m_python, "the transformers runner returned another number of records");
    }
    std::vector<RunnerRecord> out;
    for (const auto& j : r["records"]) {
        if (!j.is_object()) {
            throw Error(m_python,
                        "the transformers runner returned a record that is not an object");
        }
        RunnerRecord rec;
        rec.logits = decodeFloats(j.value("logits", json()), "logits");
        if (rec.logits.empty() || rec.logits.size() != m_classes) {
            throw Error(m_python, "the transformers runner returned " +
                                      std::to_string(rec.logits.size()) +
                                      " logits for an item of a head with " +
                                      std::to_string(m_classes) + " labels");
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

void TransformersRunner::traceStart() {
    call("trace_start", json::object());
}

RunnerTrace TransformersRunner::traceStop() {
    json r = call("trace_stop", json::object());
    const json& t = r.contains("trace") ? r["trace"] : json();
    const auto counts = [&](const char* part) {
        if (!t.is_object() || !t.contains(part) || !t[part].is_object()) {
            return false;
        }
        for (const auto& [name, n] : t[part].items()) {
            if (!n.is_number_integer() || n.get<std::int64_t>() < 0) {
                return false;
            }
        }
        return true;
    };
    const auto text = [&](const char* key) {
        return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
    };
    if (!counts("ops") || !counts("device_kernels") ||
        (text("ops_from") != "native" && text("ops_from") != "profiler")) {
        throw Error(m_python, "the transformers runner's kernel trace is not a set of counts "
                              "with how they were counted");
    }
    return {r["trace"], text("ops_from"), text("why")};
}

std::vector<ledger::GenerationRecord>
TransformersRunner::generate(const std::vector<std::string>& prompts, const HeadSpec& head) {
    const json r = call("generate", {{"prompts", prompts},
                                     {"max_new_tokens", head.max_new_tokens},
                                     {"stop", head.stop},
                                     {"stop_at_eos", head.stop_at_eos},
                                     {"top_logprobs", head.top_logprobs}});
    if (!r.contains("generations") || !r["generations"].is_array() ||
        r["generations"].size() != prompts.size()) {
        throw Error(m_python, "the transformers runner returned another number of generations");
    }
    std::vector<ledger::GenerationRecord> out;
    for (const auto& g : r["generations"]) {
        ledger::GenerationRecord rec;
        rec.item = rec.arrival = static_cast<std::int64_t>(out.size());
        try {
            rec.prompt_tokens = g.at("prompt_tokens").get<std::int64_t>();
            rec.text = g.at("text").get<std::string>();
            rec.finish = g.at("finish").get<std::string>();
            for (const auto& st : g.at("steps")) {
                rec.tokens.push_back(st.at("token").get<std::int32_t>());
                rec.logits.push_back(decodeFloats(st.at("logit"), "step logits").at(0));
                rec.gaps.push_back(decodeFloats(st.at("gap"), "step gaps").at(0));
                rec.batch.push_back(st.at("batch").get<std::int32_t>());
                if (head.top_logprobs > 0) {
                    const auto ids = st.at("top_tokens").get<std::vector<std::int32_t>>();
                    const auto lp = decodeFloats(st.at("top_logprobs"), "top log-probabilities");
                    rec.top_tokens.insert(rec.top_tokens.end(), ids.begin(), ids.end());
                    rec.top_logprobs.insert(rec.top_logprobs.end(), lp.begin(), lp.end());
                }
            }
        } catch (const json::exception&) {
            throw Error(m_python, "the transformers runner's generation is not in the protocol's "
                                  "form");
        } catch (const std::out_of_range&) {
            throw Error(m_python, "the transformers runner's generation step has no value");
        }
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace probaudit::runner
