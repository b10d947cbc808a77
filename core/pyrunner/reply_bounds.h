#pragma once
// How long a transformers runner's reply line may be: what the request can need, from what was
// asked (rows, texts, tokens) and the loaded model's sizes, never more than
// kMaxRunnerReplyBytes. A runner that sends more (a line that never ends, a flood of values) is
// stopped when it passes the bound, so probaudit's memory stays bounded by what the request
// needs, not by what a runner writes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::runner {

// The most any one reply may take: the protocol's line bound. A reply that needs more (the
// hidden-state vectors of a very large model at a large batch) asks for a smaller batch.
inline constexpr std::size_t kMaxRunnerReplyBytes = std::size_t(64) << 20;
// env, load, trace_start/stop, shutdown and errors: a few kilobytes in practice.
inline constexpr std::size_t kSmallRunnerReplyBytes = std::size_t(4) << 20;

// What a load reply may claim at most (a runner claiming more is refused).
inline constexpr std::int64_t kMaxModelLayers = 4096;
inline constexpr std::int64_t kMaxHiddenSize = std::int64_t(1) << 20;

// The loaded model's sizes, as load answered them (checked against its config.json).
struct LoadedShape {
    std::size_t classes = 0;
    std::size_t hiddenStates = 0; // layers + 1
    std::size_t hiddenSize = 0;
};

std::size_t tokenizeReplyBound(const std::vector<std::string>& texts, std::int64_t maxLength);
std::size_t forwardReplyBound(const std::vector<std::vector<std::int64_t>>& rows,
                              const LoadedShape& shape, const std::string& capture);
std::size_t generateReplyBound(const std::vector<std::string>& prompts, std::int64_t maxNewTokens,
                               std::int64_t topLogprobs);

} // namespace probaudit::runner
