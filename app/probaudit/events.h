#pragma once
// How the CLI presents a run's events (common/protocol.h): JSON lines on stdout
// (`--events jsonl`, the workbench and `probaudit engine`), or a progress bar on a terminal.
#include "core/common/run_event.h"
#include "core/runner/events.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace probaudit::app {

using runner::Events;

// One JSON object per line on stdout, flushed per line; `tag` fields are added to each.
class JsonLinesEvents : public Events {
public:
    explicit JsonLinesEvents(nlohmann::json tag = nlohmann::json::object())
        : m_tag(std::move(tag)) {}
    void emit(const nlohmann::json& event) override;
    static std::mutex& outputMutex(); // stdout is shared by every writer of the process

private:
    nlohmann::json m_tag;
};

// Human output on stderr: a progress bar with items/s and ETA when stderr is a terminal,
// one line per run otherwise.
class TerminalEvents : public Events {
public:
    void emit(const nlohmann::json& event) override;

private:
    void endBar(const RunEvent& e);
    void started(const RunEvent& e);
    void progress(const RunEvent& e);
    void finished(const RunEvent& e);

    bool m_tty = false;
    bool m_checked = false;
    bool m_barShown = false;
    bool m_planned = false; // the sample size's planning line, once per command
};

std::unique_ptr<Events> makeEvents(const std::string& format); // "" | "jsonl"

} // namespace probaudit::app
