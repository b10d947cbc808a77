#include "app/probaudit/events.h"

#include "core/analysis/stats.h"
#include "core/common/run_event.h"
#include "core/common/vocabulary.h"

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace probaudit::app {

using nlohmann::json;

std::mutex& JsonLinesEvents::outputMutex() {
    static std::mutex m;
    return m;
}

void JsonLinesEvents::emit(const json& event) {
    json e = event;
    for (const auto& [k, v] : m_tag.items()) {
        e[k] = v;
    }
    const std::string line = e.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    const std::lock_guard<std::mutex> lock(outputMutex());
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

namespace {

std::string clock(double seconds) {
    if (!(seconds >= 0) || seconds > 360000) {
        return "--:--";
    }
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600) {
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    }
    return buf;
}

} // namespace

void TerminalEvents::emit(const json& event) {
    if (!m_checked) {
        m_tty = ::isatty(STDERR_FILENO) != 0;
        m_checked = true;
    }
    const RunEvent e = RunEvent::read(event);
    endBar(e);
    switch (e.kind) {
    case EventKind::Started:
        started(e);
        break;
    case EventKind::Progress:
        if (m_tty) {
            progress(e);
        }
        break;
    case EventKind::RunFinished:
        finished(e);
        break;
    case EventKind::Skipped:
        std::cerr << "head " << e.head << ", config " << e.config << ": already recorded (run "
                  << e.run.value_or(0) << "); --again records it once more" << std::endl;
        break;
    case EventKind::Done:
        if (e.imported) { // a run on another host
            std::cerr << *e.imported << " new finished runs of " << e.from << " imported into "
                      << e.ledger << std::endl;
        }
        break;
    case EventKind::Warning:
        std::cerr << "warning: " << e.message << std::endl;
        break;
    case EventKind::Error:
        std::cerr << "error: " << e.message << std::endl;
        break;
    default:
        break;
    }
}

// A progress bar ends (with a newline) before any line that is shown.
void TerminalEvents::endBar(const RunEvent& e) {
    const EventKind kind = e.kind;
    const bool shown = kind == EventKind::Started || kind == EventKind::RunFinished ||
                       kind == EventKind::Skipped || (kind == EventKind::Done && e.imported) ||
                       kind == EventKind::Warning || kind == EventKind::Error;
    if (shown && m_barShown) {
        std::cerr << "\n";
        m_barShown = false;
    }
}

void TerminalEvents::started(const RunEvent& e) {
    // A job of `run --jobs` has its run id once imported (run-finished says it).
    if (e.run) {
        std::cerr << "run " << *e.run;
    } else {
        std::cerr << "job " << e.job;
    }
    std::cerr << ": head " << e.head << ", config " << e.config << " (" << e.config_hash << "), "
              << e.items << " items";
    if (e.resumed_items > 0) {
        std::cerr << ", resuming after " << e.resumed_items << " recorded";
    }
    std::cerr << std::endl;
    if (!m_planned && e.items > 0) { // what this sample size can show, before any number
        m_planned = true;
        const std::int64_t n = e.items;
        char buf[400];
        std::snprintf(buf, sizeof buf,
                      "planning: %lld items: a config without a flip among them may still flip "
                      "up to %.2f%% of decisions (Wilson 95%%), and no accuracy difference below "
                      "±%.1f points can be detected (80%% power, 5%% two-sided), however well "
                      "the runs agree",
                      static_cast<long long>(n), 100 * analysis::wilson(0, n).high,
                      100 * analysis::pairedMinimumDetectableDifference(0, n));
        std::cerr << buf << std::endl;
    }
}

void TerminalEvents::progress(const RunEvent& e) {
    const int width = 30;
    const int filled = e.total > 0 ? static_cast<int>(width * e.done / e.total) : 0;
    char buf[200];
    std::snprintf(buf, sizeof buf, "\r%s[%s%s] %.0f/%.0f items  %.1f items/s  ETA %s ",
                  e.job.empty() ? "" : ("job " + e.job + " ").c_str(),
                  std::string(std::size_t(filled), '#').c_str(),
                  std::string(std::size_t(width - filled), '.').c_str(), e.done, e.total,
                  e.items_per_second, clock(e.eta_seconds).c_str());
    std::cerr << buf << std::flush;
    m_barShown = true;
}

void TerminalEvents::finished(const RunEvent& e) {
    char buf[300];
    std::snprintf(buf, sizeof buf, "run %lld %s: %lld items in %.1f s (%.1f items/s)",
                  static_cast<long long>(e.run.value_or(0)), e.status.c_str(),
                  static_cast<long long>(e.items_done), e.seconds,
                  e.seconds > 0 ? double(e.items_done) / e.seconds : 0.0);
    std::cerr << buf;
    if (const auto& s = e.serving) { // a serving run: where the generation time went
        std::snprintf(buf, sizeof buf,
                      "; serving: %lld prefills, %lld decode steps, up to %lld resident, "
                      "scheduler overhead %.2f%% of %.1f s",
                      static_cast<long long>(s->prefills), static_cast<long long>(s->decode_steps),
                      static_cast<long long>(s->max_resident), 100.0 * s->overhead_share,
                      s->total_seconds);
        std::cerr << buf;
    }
    if (const auto& s = e.endpoint) { // an endpoint run: what the server really did
        std::snprintf(buf, sizeof buf,
                      "; endpoint: %.2f requests in flight on average, %.2f items/s, "
                      "%lld items failed, %lld retries",
                      s->achieved_concurrency, s->items_per_second,
                      static_cast<long long>(s->failed), static_cast<long long>(s->retries));
        std::cerr << buf;
    }
    std::cerr << std::endl;
}

std::unique_ptr<Events> makeEvents(const std::string& format) {
    if (format == "jsonl") {
        return std::make_unique<JsonLinesEvents>();
    }
    return std::make_unique<TerminalEvents>();
}

} // namespace probaudit::app
