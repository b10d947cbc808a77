#pragma once
// The client side of the transformers runner (docs/runner-protocol.md): `PYTHON -m
// probaudit_runner` started in a study's environment, spoken to in JSON lines. Torch-free: the
// runner returns decision-class logits and per-layer capture, the session decides and records.
//
// Every failure is one sentence naming the interpreter: it cannot start, torch or transformers
// is missing or too old there, it speaks another protocol version, a request failed (its
// message), or it ended mid-request (the last line it wrote to standard error).
#include "core/ledger/ledger.h"
#include "core/pyrunner/reply_bounds.h"
#include "core/pyrunner/runner_replies.h"
#include "core/study/study.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace probaudit::runner {

class Child;

// Where `python -m probaudit_runner` is found: $PROBAUDIT_RUNNERS_DIR, else
// share/probaudit/runners/python beside the executable's folder (installed and build trees).
std::string runnerPackageDir();
// The row hash library the runner loads (kernels/row_hash_c.cpp), at lib/probaudit/ beside the
// executables' folder; empty when it is not there (the runner then hashes in numpy).
std::string rowHashLibrary();

class TransformersRunner {
public:
    // Starts the runner in `env` and waits for its "ready" line. Throws probaudit::Error.
    explicit TransformersRunner(const study::Environment& env);
    ~TransformersRunner();
    TransformersRunner(const TransformersRunner&) = delete;
    TransformersRunner& operator=(const TransformersRunner&) = delete;

    const study::Environment& environment() const { return m_env; }
    const RunnerReady& ready() const { return m_ready; }
    // The environment's fingerprint (kind "transformers"; DESIGN.md "environment fingerprint").
    nlohmann::json fingerprint();
    // Loads the model for a head and config (once per model, head, dtype, device, attention)
    // and applies the config's process settings. Returns {labels, hidden_states, ...}; every
    // record of a forward must then carry one logit per label.
    nlohmann::json load(const std::string& modelPath, const nlohmann::json& head,
                        const nlohmann::json& config);
    std::vector<RunnerItem> tokenize(const std::vector<std::string>& texts, std::int64_t maxLength);
    // One batch, rows as planned, in two halves, so that the runner computes a batch while the
    // one before is recorded here: sendForward returns the request's id, receiveForward(id)
    // its records. Replies are read in the order sent; any other request first reads (and
    // drops) the replies still due.
    std::int64_t sendForward(const std::vector<std::vector<std::int64_t>>& rows,
                             const RunConfig& config, const std::string& capture);
    std::vector<RunnerRecord> receiveForward(std::int64_t id, std::size_t rows,
                                             const std::string& capture);
    // The kernel trace of every forward between the two (ops, device kernels, with counts;
    // the engine's trace also spans a run).
    void traceStart();
    RunnerTrace traceStop();

    // Greedy generation of a generation head (loaded with load()) for prompts (templates filled
    // in), as one static batch left padded (the engine's generate()): each output's item is its
    // index in `prompts`, as is its arrival.
    std::vector<ledger::GenerationRecord> generate(const std::vector<std::string>& prompts,
                                                   const HeadSpec& head);

private:
    // A request and its reply, which may be no longer than `maxReplyBytes` (reply_bounds.h).
    nlohmann::json call(const std::string& method, const nlohmann::json& params,
                        std::size_t maxReplyBytes = kSmallRunnerReplyBytes);
    std::int64_t send(const std::string& method, const nlohmann::json& params,
                      std::size_t maxReplyBytes = kSmallRunnerReplyBytes);
    // The result of request `id`, the oldest still due.
    nlohmann::json receive(std::int64_t id);
    // Reads the replies of requests sent and no longer waited for (a run stopped mid-way).
    void dropDueReplies();
    // The sentence for a runner that ended: its exit and the last line of its standard error.
    std::string endedMessage();

    study::Environment m_env;
    std::string m_python;
    std::string m_stderrFile;
    std::unique_ptr<Child> m_child;
    RunnerReady m_ready;
    LoadedShape m_shape; // the loaded model's, as load answered (classes 0: none loaded)
    std::int64_t m_nextId = 1;
    struct Due {
        std::int64_t id;
        std::string method;
        std::size_t maxReplyBytes;
    };
    std::deque<Due> m_due; // sent, not yet answered
};

} // namespace probaudit::runner
