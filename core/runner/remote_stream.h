#pragma once
// What comes back from a remote `probaudit run --events jsonl` (remote_run.h): event lines, other
// text (the remote shell's and program's messages), then, after {"event":"snapshot","bytes":N},
// N bytes of the copy of the remote ledger, which go into `copy`. Every line is outside input:
// parsed with the local lines' nesting limit and tree budget, its messages' control characters
// escaped; a line that is no event is text, said later (the last 20 lines, each cut at 300
// bytes). Fuzzed by tests/fuzz/fuzz_remote_events.cpp.
#include "core/runner/events.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace probaudit::runner {

class RunStream {
public:
    RunStream(Events& e, std::string copyPath) : m_events(e), m_copy(std::move(copyPath)) {}

    // One line as it came (its newline, when it had one, kept: the ledger's bytes need it).
    void onLine(const std::string& line);
    // Whether a ledger copy was announced and came whole.
    bool copied();

    bool started() const { return m_started; } // an event came
    const std::vector<std::string>& text() const { return m_text; }
    const nlohmann::json& done() const { return m_done; } // the remote "done" event, if any

private:
    void sayLater(const std::string& line);

    Events& m_events;
    std::string m_copy;
    bool m_started = false;
    std::vector<std::string> m_text;
    std::ofstream m_out;
    std::uint64_t m_remaining = 0;
    bool m_copying = false;
    nlohmann::json m_done;
};

} // namespace probaudit::runner
