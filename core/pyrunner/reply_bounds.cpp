#include "core/pyrunner/reply_bounds.h"

#include <algorithm>

namespace probaudit::runner {

namespace {

constexpr std::size_t kEnvelope = std::size_t(1) << 20; // the reply's own fields, errors

// Saturating arithmetic: a bound computed from large sizes stays the cap, never wraps.
std::size_t add(std::size_t a, std::size_t b) {
    return a > kMaxRunnerReplyBytes || b > kMaxRunnerReplyBytes - std::min(a, kMaxRunnerReplyBytes)
               ? kMaxRunnerReplyBytes + 1
               : a + b;
}
std::size_t mul(std::size_t a, std::size_t b) {
    return a != 0 && b > (kMaxRunnerReplyBytes + 1) / a ? kMaxRunnerReplyBytes + 1 : a * b;
}
std::size_t capped(std::size_t bytes) {
    return std::min(bytes, kMaxRunnerReplyBytes);
}
// base64 of n float32s, with its quotes.
std::size_t floats(std::size_t n) {
    return add(mul(n, 6), 8);
}

} // namespace

std::size_t tokenizeReplyBound(const std::vector<std::string>& texts, std::int64_t maxLength) {
    std::size_t bytes = kEnvelope;
    for (const std::string& t : texts) {
        // A token covers at least one byte of its text; a few are added (BOS, EOS); an id and
        // its comma take at most 21 characters.
        std::size_t tokens = t.size() + 16;
        if (maxLength > 0) {
            tokens = std::min(tokens, std::size_t(maxLength));
        }
        bytes = add(bytes, add(mul(tokens, 21), 64));
    }
    return capped(bytes);
}

std::size_t forwardReplyBound(const std::vector<std::vector<std::int64_t>>& rows,
                              const LoadedShape& shape, const std::string& capture) {
    std::size_t bytes = kEnvelope;
    for (const auto& row : rows) {
        std::size_t record = add(1024, floats(shape.classes));
        if (capture != "none") {
            record = add(record, mul(shape.hiddenStates, 24)); // 16 hex digits per state
        }
        if (capture == "vectors" || capture == "full") {
            record = add(record, floats(mul(shape.hiddenStates, shape.hiddenSize)));
        }
        if (capture == "full") {
            record =
                add(record, floats(mul(mul(row.size(), shape.hiddenStates), shape.hiddenSize)));
        }
        bytes = add(bytes, record);
    }
    return capped(bytes);
}

std::size_t generateReplyBound(const std::vector<std::string>& prompts, std::int64_t maxNewTokens,
                               std::int64_t topLogprobs) {
    // A step: its token, logit, gap and batch (a few dozen characters), the token's text in the
    // output (at most a few hundred bytes), and its alternatives' ids and log-probabilities.
    const std::size_t step = add(512, mul(std::size_t(std::max<std::int64_t>(topLogprobs, 0)), 32));
    const std::size_t one =
        add(1024, mul(std::size_t(std::max<std::int64_t>(maxNewTokens, 0)), step));
    return capped(add(kEnvelope, mul(prompts.size(), one)));
}

} // namespace probaudit::runner
