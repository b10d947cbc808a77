#pragma once
// An endpoint run (DESIGN.md, "Runners"): a study's items sent to an OpenAI-compatible server as
// completions or chat requests (temperature 0), `concurrency` in flight in a seeded arrival
// order, each reply turned into what the ledger keeps: a label-token head's record (p over the
// labels the server listed, margin, labels it did not list marked missing), a generation
// head's output (text, per step the chosen token, its log-probability and the top-2 gap), and
// every item's exchange with the server (attempts and their times, top_logprobs, why it failed).
//
// Faults are told apart: what concerns one item (a malformed or truncated reply, a request the
// server refused as bad) marks that item failed with a snippet and the run goes on; what
// concerns the server (no reply after the retries, 401/403, 404, 429 or 5xx after the retries,
// a reply for another model, no log-probabilities where a label head needs them) stops sending,
// lets the requests in flight end, hands on those that replied well and throws one sentence.
// Torch-free and Qt-free; the key is read from the environment and never written anywhere.
#include "core/common/endpoint_spec.h"
#include "core/common/head_spec.h"
#include "core/common/run_config.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace probaudit::endpoint {

// The headers every request carries: "Authorization: Bearer KEY" when the study names
// api_key_env. Throws Error naming the variable (never a value) when it is unset or empty.
std::vector<std::string> authHeaders(const EndpointSpec& e);

// The models a server lists (GET /models), and its `server` header ("" when none). Throws Error
// with one sentence: no server, a TLS error, the key refused (naming its variable), a reply
// that is not a model list. The New Study form's "Test connection" and the preflight use it.
std::vector<std::string> listModels(const EndpointSpec& e, std::string* serverHeader = nullptr);

// Before a ledger is touched: the server answers GET /models and lists the study's model, and
// one probe request per head kind comes back for that model with what the head needs (for a
// label-token head: log-probabilities, and no label split into several tokens). Returns the
// endpoint's environment fingerprint: kind "endpoint", the base URL (never credentials), API
// and model, the /models reply, the `server` header and system_fingerprint when present, the
// declared labels and the client's build. Throws Error with one sentence.
nlohmann::json preflight(const EndpointSpec& e, const std::vector<const HeadSpec*>& heads);

// One item that ended: its record (label_tokens) or output (generation), and its exchange.
struct ItemOutcome {
    std::size_t position = 0; // index into EndpointRun::prompts
    bool failed = false;      // recorded as failed (decision -1 / finish "failed"), kept
    ledger::Record record;
    ledger::GenerationRecord output;
    ledger::RequestRecord request;
};

struct EndpointRun {
    const EndpointSpec* endpoint = nullptr;
    const HeadSpec* head = nullptr;
    RunConfig config;
    std::vector<std::string> prompts;  // by position, the template filled in
    std::vector<std::int64_t> items;   // by position: the ledger item
    std::vector<std::int64_t> arrival; // by position: its place in the run's arrival order
    std::vector<std::size_t> order;    // positions to send, in this order (resumes leave out
                                       // what is recorded)
};

// What this call recorded (the serving figures come from the stored exchanges:
// analysis/request_stats.h).
struct EndpointStats {
    std::size_t done = 0, failed = 0;
};

// Sends the run's requests and calls `sink` on this thread for each item as it ends, in the
// order they end; `sink` returning false, or `stop`, sends nothing more (in-flight requests end
// and are handed on). A server-level fault throws Error after that (see above).
EndpointStats runEndpoint(const EndpointRun& run, const std::function<bool(ItemOutcome&&)>& sink,
                          const std::atomic<bool>* stop = nullptr);

} // namespace probaudit::endpoint
