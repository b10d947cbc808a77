#include "core/runner/recorder.h"

#include "core/common/protocol.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace probaudit::runner {

std::size_t ActiveRun::total() const {
    return items - std::size_t(std::count(outside.begin(), outside.end(), true));
}

ProgressEvents::ProgressEvents(Events& events, const ActiveRun& run, const std::atomic<bool>& stop)
    : m_events(events), m_run(run), m_stop(stop), m_total(run.total() - std::size_t(run.already)) {}

bool ProgressEvents::operator()(std::size_t done, std::size_t) {
    const auto now = Clock::now();
    if (now - m_last >= std::chrono::milliseconds(200) || done == m_total) {
        m_last = now;
        const double secs = std::chrono::duration<double>(now - m_t0).count();
        const double rate = secs > 0 ? double(done) / secs : 0;
        m_events.emit({{"event", protocol::event::kProgress},
                       {"run", m_run.id},
                       {"done", std::size_t(m_run.already) + done},
                       {"total", m_run.total()},
                       {"items_per_second", rate},
                       {"eta_seconds", rate > 0 ? double(m_total - done) / rate : -1.0}});
    }
    return !m_stop.load();
}

double ProgressEvents::seconds() const {
    return std::chrono::duration<double>(Clock::now() - m_t0).count();
}

namespace {

std::function<void(std::int64_t)>& batchObserver() {
    static std::function<void(std::int64_t)> observer;
    return observer;
}

} // namespace

void batchCommitted() {
    static std::int64_t batches = 0;
    ++batches;
    if (batchObserver()) {
        batchObserver()(batches);
    }
}

void setBatchObserver(std::function<void(std::int64_t)> observer) {
    batchObserver() = std::move(observer);
}

} // namespace probaudit::runner
