#pragma once
// The OpenAI-compatible API as ProbAudit speaks it: the body of a completions or chat request
// (always temperature 0) and what a reply says: the text, why it ended, and per generated token
// the token, its log-probability and the alternatives the server returned (top_logprobs).
// Replies come from outside: anything malformed is a ReplyError with a short snippet of what
// came, never a crash or a silently wrong number.
#include "core/common/endpoint_spec.h"
#include "core/common/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit::endpoint {

class ReplyError : public Error {
public:
    using Error::Error;
};

struct CompletionRequest {
    std::string prompt;
    std::int64_t max_tokens = 1;
    std::vector<std::string> stop;
    std::optional<std::int64_t> seed;
    int top_logprobs = 0; // 0: no log-probabilities asked for
};

std::string requestBody(const EndpointSpec& endpoint, const CompletionRequest& request);
// The largest reply the request can need: 4 MiB for the reply's own fields (what servers add:
// usage, timings, fingerprints) and per token asked 4 KiB and 1 KiB per alternative. A server
// that sends more is cut off there: with requests in flight by the dozen, each may hold only
// what it needs.
std::size_t replyBytesNeeded(const CompletionRequest& request);

struct TokenLogprob {
    std::string token;
    double logprob = 0;
};

// One generated token. `top` is sorted by log-probability, highest first, and holds each token
// string once; empty when the server returned no alternatives.
struct Step {
    std::string token;
    std::optional<double> logprob; // none: the server returned no log-probabilities
    std::vector<TokenLogprob> top;
};

struct Completion {
    std::string model; // as the server names it in its reply
    std::string text;
    std::string finish; // stop | length | eos (the server's finish_reason, "" when none)
    std::string system_fingerprint;
    std::vector<Step> steps; // empty when the server returned no log-probabilities
    std::int64_t prompt_tokens = -1, completion_tokens = -1; // usage; -1 when absent
    bool logprobs() const { return !steps.empty() && steps.front().logprob.has_value(); }
};

Completion parseCompletion(std::string_view body, const std::string& api);

// The server's own words from an error reply ({"error": {"message"}}, {"error": "..."},
// {"detail": ...}, {"message"}), at most 200 characters; "" when none.
std::string serverMessage(std::string_view body);
// At most 120 characters of a reply, control characters escaped, for an error message.
std::string snippet(std::string_view body);

// The model ids a GET of /v1/models lists. Throws ReplyError on a malformed reply.
std::vector<std::string> parseModelList(std::string_view body);

} // namespace probaudit::endpoint
