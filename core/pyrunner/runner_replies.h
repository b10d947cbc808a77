#pragma once
// What the transformers runner answers (docs/runner-protocol.md), read into probaudit's types:
// its "ready" line, a reply line's result, and each method's result. Pure functions of the text
// (no process, no I/O), so that everything a runner can send is fuzzed
// (tests/fuzz/fuzz_runner_replies.cpp). Every refusal is one probaudit::Error naming the
// interpreter (`python`); nothing else is thrown.
#include "core/ledger/ledger.h"
#include "core/pyrunner/reply_bounds.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::runner {

// The protocol version this side speaks (common/protocol.h kVersion is the engine's framing;
// the runner's methods are version 3 of it).
inline constexpr int kRunnerProtocol = 3;

struct RunnerItem {
    std::vector<std::int64_t> ids; // the tokens the model reads
    bool truncated = false;
};

// One row's numbers as the runner computed them.
struct RunnerRecord {
    std::vector<float> logits;         // F32 [C] decision-class logits
    std::vector<std::uint64_t> hashes; // [layers + 1], capture hashes and up
    std::vector<float> vectors;        // F32 [layers + 1, H], capture vectors and full
    std::vector<float> full;           // F32 [layers + 1, T, H], capture full
};

// A run's kernel trace from the runner, and how it counted the operators: "native" (a
// RecordFunction callback, as the engine counts) or "profiler" (torch.profiler, slower; `why`
// says why not native).
struct RunnerTrace {
    nlohmann::json trace = nlohmann::json::object(); // {"ops", "device_kernels", ...}
    std::string opsFrom;
    std::string why;
};

// What the runner's "ready" line says of itself. Every field is a string when present; a ready
// line whose fields have another type is refused when the runner starts, not after a run.
struct RunnerReady {
    std::string python;
    std::string torch;
    std::string transformers;
    std::string rowHash; // "native" or "numpy"
};

// The runner's first line: its "ready" (protocol kRunnerProtocol, string fields) or its "error".
RunnerReady readReady(const std::string& line, const std::string& python);
// The "result" of reply line `line` to request `id` (`method`), or the refusal: not the
// protocol's JSON (past the tree budget for its length, too deep), another request's, an error
// the runner reports (its message), no result.
nlohmann::json replyResult(const std::string& line, std::int64_t id, const std::string& method,
                           const std::string& python);
// load: the head's classes and the model's hidden-state count and size (plausible ones).
LoadedShape loadedShape(const nlohmann::json& result, const std::string& python);
// tokenize: one item per text.
std::vector<RunnerItem> tokenizedItems(const nlohmann::json& result, std::size_t texts,
                                       const std::string& python);
// forward: one record per row, `classes` logits each, the capture asked for.
std::vector<RunnerRecord> forwardRecords(const nlohmann::json& result, std::size_t rows,
                                         std::size_t classes, const std::string& capture,
                                         const std::string& python);
// trace_stop: counts, and how they were counted.
RunnerTrace runnerTrace(const nlohmann::json& result, const std::string& python);
// generate: one generation per prompt, `topLogprobs` alternatives per step when asked.
std::vector<ledger::GenerationRecord> generations(const nlohmann::json& result, std::size_t prompts,
                                                  std::int64_t topLogprobs,
                                                  const std::string& python);

} // namespace probaudit::runner
