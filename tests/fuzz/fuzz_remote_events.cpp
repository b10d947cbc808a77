// libFuzzer: what a remote `probaudit run --events jsonl` sends back over ssh
// (core/runner/remote_stream.h): lines of events and text, a snapshot announcement and the
// ledger's bytes. Nothing may be thrown; every event passed on is an object that can be written
// as a JSON line (as the local events are), every text line is at most 300 bytes and the
// ellipsis, and no more than 20 are kept.
#include "core/runner/remote_stream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

class WrittenEvents : public probaudit::runner::Events {
public:
    void emit(const nlohmann::json& event) override {
        if (!event.is_object()) {
            std::abort();
        }
        (void)event.dump(); // throws on what could not be written
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    WrittenEvents events;
    probaudit::runner::RunStream stream(events, "/dev/null");
    std::size_t from = 0;
    while (from < input.size()) {
        const std::size_t end = input.find('\n', from);
        const std::size_t next = end == std::string::npos ? input.size() : end + 1;
        stream.onLine(input.substr(from, next - from));
        from = next;
    }
    (void)stream.copied();
    if (stream.text().size() > 20) {
        std::abort();
    }
    for (const std::string& t : stream.text()) {
        if (t.size() > 4 * 303) { // escaped: a byte becomes at most 4 characters
            std::abort();
        }
    }
    return 0;
}
