#include "events.h"

#include "common/vocabulary.h"

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

void TerminalEvents::emit(const json& e) {
    if (!m_checked) {
        m_tty = ::isatty(STDERR_FILENO) != 0;
        m_checked = true;
    }
    const EventKind kind = eventKind(e);
    auto endBar = [&] {
        if (m_barShown) {
            std::cerr << "\n";
            m_barShown = false;
        }
    };
    if (kind == EventKind::Started) {
        endBar();
        // A job of `run --jobs` has its run id once imported (run-finished says it).
        if (e.contains("run")) {
            std::cerr << "run " << e.value("run", 0);
        } else {
            std::cerr << "job " << e.value("job", "");
        }
        std::cerr << ": head " << e.value("head", "") << ", config " << e.value("config", "")
                  << " (" << e.value("config_hash", "") << "), " << e.value("items", 0) << " items";
        if (e.value("resumed_items", 0) > 0) {
            std::cerr << ", resuming after " << e.value("resumed_items", 0) << " recorded";
        }
        std::cerr << std::endl;
    } else if (kind == EventKind::Progress && m_tty) {
        const double done = e.value("done", 0.0), total = e.value("total", 0.0);
        const int width = 30;
        const int filled = total > 0 ? static_cast<int>(width * done / total) : 0;
        char buf[200];
        std::snprintf(buf, sizeof buf, "\r%s[%s%s] %.0f/%.0f items  %.1f items/s  ETA %s ",
                      e.contains("job") ? ("job " + e.value("job", "") + " ").c_str() : "",
                      std::string(std::size_t(filled), '#').c_str(),
                      std::string(std::size_t(width - filled), '.').c_str(), done, total,
                      e.value("items_per_second", 0.0),
                      clock(e.value("eta_seconds", -1.0)).c_str());
        std::cerr << buf << std::flush;
        m_barShown = true;
    } else if (kind == EventKind::RunFinished) {
        endBar();
        char buf[300];
        std::snprintf(
            buf, sizeof buf, "run %lld %s: %lld items in %.1f s (%.1f items/s)",
            static_cast<long long>(e.value("run", 0)), e.value("status", "").c_str(),
            static_cast<long long>(e.value("items_done", 0)), e.value("seconds", 0.0),
            e.value("seconds", 0.0) > 0 ? e.value("items_done", 0) / e.value("seconds", 1.0) : 0.0);
        std::cerr << buf;
        if (e.contains("serving")) { // a serving run: where the generation time went
            const json& s = e.at("serving");
            std::snprintf(buf, sizeof buf,
                          "; serving: %lld prefills, %lld decode steps, up to %lld resident, "
                          "scheduler overhead %.2f%% of %.1f s",
                          static_cast<long long>(s.value("prefills", 0)),
                          static_cast<long long>(s.value("decode_steps", 0)),
                          static_cast<long long>(s.value("max_resident", 0)),
                          100.0 * s.value("overhead_share", 0.0), s.value("total_seconds", 0.0));
            std::cerr << buf;
        }
        if (e.contains("endpoint")) { // an endpoint run: what the server really did
            const json& s = e.at("endpoint");
            std::snprintf(buf, sizeof buf,
                          "; endpoint: %.2f requests in flight on average, %.2f items/s, "
                          "%lld items failed, %lld retries",
                          s.value("achieved_concurrency", 0.0), s.value("items_per_second", 0.0),
                          static_cast<long long>(s.value("failed", 0)),
                          static_cast<long long>(s.value("retries", 0)));
            std::cerr << buf;
        }
        std::cerr << std::endl;
    } else if (kind == EventKind::Skipped) {
        endBar();
        std::cerr << "head " << e.value("head", "") << ", config " << e.value("config", "")
                  << ": already recorded (run " << e.value("run", 0)
                  << "); --again records it once more" << std::endl;
    } else if (kind == EventKind::Done && e.contains("imported")) { // a run on another host
        endBar();
        std::cerr << e.value("imported", 0) << " new finished runs of " << e.value("from", "")
                  << " imported into " << e.value("ledger", "") << std::endl;
    } else if (kind == EventKind::Warning) {
        endBar();
        std::cerr << "warning: " << e.value("message", "") << std::endl;
    } else if (kind == EventKind::Error) {
        endBar();
        std::cerr << "error: " << e.value("message", "") << std::endl;
    }
}

std::unique_ptr<Events> makeEvents(const std::string& format) {
    if (format == "jsonl") {
        return std::make_unique<JsonLinesEvents>();
    }
    return std::make_unique<TerminalEvents>();
}

} // namespace probaudit::app
