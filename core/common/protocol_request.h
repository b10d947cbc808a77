#pragma once
// The requests of the engine protocol (`probaudit engine`, common/protocol.h), read and
// decoded without the engine: one line of at most kMaxRequestBytes, parsed as JSON, checked
// field by field into a Request. Torch-free and Qt-free, so the line reader and the decoder
// are fuzzed on their own (tests/fuzz/fuzz_protocol.cpp).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

namespace probaudit::protocol {

// The diagnosis probes' bounds (the CLI's --sample and --batch have the same).
inline constexpr std::int64_t kMaxDiagnoseSample = 1'000'000;
inline constexpr std::int64_t kMaxDiagnoseBatch = 65'536;

enum class LineRead { Line, TooLong, End };

// One request line of at most `max` bytes, without its newline; the rest of a longer one is
// read and dropped (TooLong). End: the input closed with nothing after the last newline.
LineRead readRequestLine(std::streambuf& in, std::string& line, std::size_t max);

// A run or diagnose request's params: a study run into its ledger, and for a diagnosis the
// probes' settings.
struct RunParams {
    std::string study;
    std::string ledger; // "" = beside the study
    std::vector<std::string> configs, heads;
    bool all = false, again = false, skip_bad_lines = false;
    std::string head;         // diagnose: the head variant ("" = the first)
    std::int64_t sample = 32; // diagnose: items probed, 1..1,000,000
    std::int64_t batch = 8;   // diagnose: the batched probe's batch size, 1..65,536
    std::uint64_t seed = 1;   // diagnose: the sample's seed
};

struct Request {
    nlohmann::json id; // echoed in every reply (null when the request has none)
    std::string method;
    RunParams params; // run and diagnose
};

// A request the engine cannot take: `message` (one sentence) goes back in an error reply with
// `id` (null when the line did not get that far).
class RequestError : public std::runtime_error {
public:
    RequestError(nlohmann::json id, const std::string& message)
        : std::runtime_error(message), m_id(std::move(id)) {}
    const nlohmann::json& id() const { return m_id; }

private:
    nlohmann::json m_id;
};

// Decodes one request line (not blank). Throws RequestError: not JSON, not an object, no
// string method, an unknown method, params of the wrong type or out of range.
Request decodeRequest(const std::string& line);

} // namespace probaudit::protocol
