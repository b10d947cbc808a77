#include "core/pyrunner/transformers_runner.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"
#include "core/process/child_process.h"

#include <algorithm>
#include <cstdlib>
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

// The sizes a runner's load reply claims, against the model's own config.json where it names
// them: a runner cannot make probaudit expect (and so accept) larger replies than the model
// gives. A claim of fewer is harmless: the bound is then tighter.
void checkShape(const std::string& modelPath, const LoadedShape& shape, const std::string& python) {
    const auto states = std::int64_t(shape.hiddenStates), size = std::int64_t(shape.hiddenSize);
    const fs::path file = fs::path(modelPath) / "config.json";
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
        return;
    }
    json config;
    try {
        config = readJsonFile(file.string(), DuplicateKeys::LastWins);
    } catch (const Error&) {
        return; // the runner read it to load the model; what it says of it stands
    }
    const auto layers = fieldInt64(config, "num_hidden_layers");
    const auto hidden = fieldInt64(config, "hidden_size");
    if ((layers && states > *layers + 1) || (hidden && size > *hidden)) {
        throw Error(python, "the transformers runner says the model has " + std::to_string(states) +
                                " hidden states of size " + std::to_string(size) +
                                ", more than its config.json gives");
    }
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
        receive(m_due.front().id);
    }
}

json TransformersRunner::call(const std::string& method, const json& params,
                              std::size_t maxReplyBytes) {
    dropDueReplies();
    return receive(send(method, params, maxReplyBytes));
}

std::int64_t TransformersRunner::send(const std::string& method, const json& params,
                                      std::size_t maxReplyBytes) {
    const std::int64_t id = m_nextId++;
    const json req{{"id", id}, {"method", method}, {"params", params}};
    if (!m_child->writeLine(req.dump())) {
        throw Error(m_python,
                    "the transformers runner ended during \"" + method + "\": " + endedMessage());
    }
    m_due.push_back({id, method, maxReplyBytes});
    return id;
}

json TransformersRunner::receive(std::int64_t id) {
    if (m_due.empty() || m_due.front().id != id) {
        throw Error(m_python, "a transformers runner reply was awaited out of order");
    }
    const Due due = m_due.front();
    const std::string& method = due.method;
    m_due.pop_front();
    std::string line;
    bool got = false;
    try {
        got = m_child->readLine(line, due.maxReplyBytes, m_env.timeout_seconds);
    } catch (const Error& e) { // a reply line past the bound, or no reply in time: it is stopped
        m_child->stop(0);
        const std::string why = e.what();
        const std::string hint =
            why.find("longer than") == std::string::npos ? " (the environment's \"timeout\")"
            : due.maxReplyBytes >= kMaxRunnerReplyBytes
                ? " (more than any reply may take: use a smaller batch_size or capture)"
                : " (more than the request can need)";
        throw Error(m_python,
                    "the transformers runner's answer to \"" + method + "\": " + why + hint);
    }
    if (!got) {
        throw Error(m_python,
                    "the transformers runner ended during \"" + method + "\": " + endedMessage());
    }
    return replyResult(line, id, method, m_python);
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
    const LoadedShape shape = loadedShape(r, m_python);
    checkShape(modelPath, shape, m_python);
    m_shape = shape;
    return r;
}

std::vector<RunnerItem> TransformersRunner::tokenize(const std::vector<std::string>& texts,
                                                     std::int64_t maxLength) {
    // In parts: each reply stays small whatever the dataset's size.
    constexpr std::size_t kPart = 256;
    std::vector<RunnerItem> out;
    out.reserve(texts.size());
    for (std::size_t from = 0; from < texts.size(); from += kPart) {
        const std::vector<std::string> part(
            texts.begin() + std::ptrdiff_t(from),
            texts.begin() + std::ptrdiff_t(std::min(from + kPart, texts.size())));
        const json r = call("tokenize", {{"texts", part}, {"max_length", maxLength}},
                            tokenizeReplyBound(part, maxLength));
        for (RunnerItem& item : tokenizedItems(r, part.size(), m_python)) {
            out.push_back(std::move(item));
        }
    }
    return out;
}

std::int64_t TransformersRunner::sendForward(const std::vector<std::vector<std::int64_t>>& rows,
                                             const RunConfig& config, const std::string& capture) {
    return send("forward",
                {{"rows", rows},
                 {"padding_side", config.padding_side},
                 {"pad_to", config.pad_to},
                 {"pad_to_n", config.pad_to_n},
                 {"capture", capture}},
                forwardReplyBound(rows, m_shape, capture));
}

std::vector<RunnerRecord> TransformersRunner::receiveForward(std::int64_t id, std::size_t rows,
                                                             const std::string& capture) {
    return forwardRecords(receive(id), rows, m_shape.classes, capture, m_python);
}

void TransformersRunner::traceStart() {
    call("trace_start", json::object());
}

RunnerTrace TransformersRunner::traceStop() {
    return runnerTrace(call("trace_stop", json::object()), m_python);
}

std::vector<ledger::GenerationRecord>
TransformersRunner::generate(const std::vector<std::string>& prompts, const HeadSpec& head) {
    const json r = call("generate",
                        {{"prompts", prompts},
                         {"max_new_tokens", head.max_new_tokens},
                         {"stop", head.stop},
                         {"stop_at_eos", head.stop_at_eos},
                         {"top_logprobs", head.top_logprobs}},
                        generateReplyBound(prompts, head.max_new_tokens, head.top_logprobs));
    return generations(r, prompts.size(), head.top_logprobs, m_python);
}

} // namespace probaudit::runner
