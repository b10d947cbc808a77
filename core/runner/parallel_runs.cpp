#include "core/runner/parallel_runs.h"

#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/common/sha256.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/process/child_process.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

namespace probaudit::runner {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> childRunArgs(const RunOptions& o, const std::string& ledger,
                                      const std::string& head, const std::string& config) {
    std::vector<std::string> args{"run",  o.study,  "--ledger", ledger,     "--config",
                                  config, "--head", head,       "--events", "jsonl"};
    if (o.again) {
        args.push_back("--again");
    }
    if (o.skipBadLines) {
        args.push_back("--skip-bad-lines");
    }
    if (!o.recordedIn.empty()) {
        args.insert(args.end(), {"--recorded-in", o.recordedIn});
    }
    if (o.shard.active()) { // a config of another CPU capability, within a shard
        args.insert(args.end(), {"--shard", o.shard.name()});
    }
    return args;
}

std::string jobLedgerPath(const std::string& ledger, const std::string& head,
                          const std::string& configHash) {
    // The head's name may hold any character: the file is named by a digest of it.
    const std::string text = head + "\n" + configHash;
    const std::string key = sha256Hex(text.data(), text.size()).substr(0, 16);
    return (fs::path(ledger + ".jobs") / (key + ".ledger")).string();
}

namespace {

enum class JobState { Pending, Running, Ended, Imported };

struct Job {
    const HeadSpec* head = nullptr;
    const study::NamedConfig* config = nullptr;
    std::string ledger;
    int slots = 1;
    JobState state = JobState::Pending;
    pid_t pid = 0;          // while its engine process runs and may be signalled
    bool reporting = false; // it has said "started" or "skipped": its SIGINT handler is set
    bool signalled = false; // told to stop (once: a second SIGINT ends a run at once)
    ChildExit exit;
    json finished; // the child's run-finished event, emitted once the run is imported
    json skipped;  // the child's skipped event, emitted when nothing was imported
    std::thread reader;
};

void removeLedgerFiles(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        fs::remove(path + suffix, ec);
    }
}

// The jobs of one `run --jobs N`: started while slots are free, their events relayed (one
// emitter at a time), their runs imported in selection order by the thread that owns the
// study's ledger, which also tells running jobs to stop on a signal.
class JobPool {
public:
    JobPool(const RunOptions& o, StudySession& session, Events& events,
            const std::atomic<bool>& stop)
        : m_opt(o), m_session(session), m_events(events), m_stop(stop) {
        m_opt.recordedIn = session.ledgerPath(); // a job skips what the study's ledger has
    }
    ~JobPool() {
        for (Job& j : m_jobs) {
            if (j.reader.joinable()) {
                j.reader.join();
            }
        }
    }

    void add(const HeadSpec& head, const study::NamedConfig& config) {
        Job j;
        j.head = &head;
        j.config = &config;
        j.ledger = jobLedgerPath(m_session.ledgerPath(), head.name, config.config.hash());
        j.slots = std::max(1, static_cast<int>(config.config.threads));
        m_jobs.push_back(std::move(j));
    }

    int run() {
        if (!m_jobs.empty()) {
            fs::create_directories(fs::path(m_jobs.front().ledger).parent_path());
        }
        std::unique_lock<std::mutex> lock(m_mutex);
        while (true) {
            if (m_stop) {
                signalRunning();
            }
            startWhatFits();
            lock.unlock();
            importEnded();
            lock.lock();
            if (finished()) {
                break;
            }
            // Woken by an ending job; every 200 ms to pass a signal on.
            m_changed.wait_for(lock, std::chrono::milliseconds(200),
                               [&] { return m_ended > m_seenEnded; });
            m_seenEnded = m_ended;
        }
        lock.unlock();
        std::error_code ec;
        fs::remove(m_session.ledgerPath() + ".jobs", ec); // only when every job ledger is gone
        return m_exit;
    }

private:
    // Holding m_mutex.
    bool failedOrStopped() const { return m_failed || m_stop.load(); }

    // Holding m_mutex: every job imported, or never to start.
    bool finished() const {
        return std::all_of(m_jobs.begin(), m_jobs.end(), [&](const Job& j) {
            return j.state == JobState::Imported ||
                   (j.state == JobState::Pending && failedOrStopped());
        });
    }

    // Holding m_mutex.
    void signalRunning() {
        for (Job& j : m_jobs) {
            // A job still starting up would die of the signal: it is told once it reports.
            if (j.state == JobState::Running && j.pid > 0 && j.reporting && !j.signalled) {
                ::kill(j.pid, SIGINT);
                j.signalled = true;
            }
        }
    }

    // Holding m_mutex: starts the pending jobs whose slots fit, in order; a job that does not
    // fit yet lets later ones start (the import order stays the selection's). A job that needs
    // more slots than --jobs gives runs when nothing else does.
    void startWhatFits() {
        if (failedOrStopped()) {
            return;
        }
        for (std::size_t k = 0; k < m_jobs.size(); ++k) {
            Job& j = m_jobs[k];
            if (j.state != JobState::Pending || (m_busy > 0 && m_busy + j.slots > m_opt.jobs)) {
                continue;
            }
            m_busy += j.slots;
            j.state = JobState::Running;
            j.reader = std::thread([this, k] { runJob(k); });
        }
    }

    std::string label(std::size_t k) const {
        return std::to_string(k + 1) + "/" + std::to_string(m_jobs.size());
    }

    void emit(const json& e) {
        const std::lock_guard<std::mutex> lock(m_emitMutex);
        m_events.emit(e);
    }

    // On the job's own thread: the engine process in a process group of its own (the pool
    // passes signals on), its events relayed, how it ended kept.
    void runJob(std::size_t k) {
        Job& j = m_jobs[k];
        ChildExit end;
        end.code = protocol::kExitError;
        std::optional<Child> child;
        try {
            std::vector<std::string> env;
            if (j.config->config.cpu_capability != CpuCapability::Auto) {
                env.push_back("ATEN_CPU_CAPABILITY=" + nameString(j.config->config.cpu_capability));
            }
            child.emplace(Child::start("/proc/self/exe", "probaudit",
                                       childRunArgs(m_opt, j.ledger, j.head->name, j.config->name),
                                       env, Stdout::Capture, /*ownGroup=*/true));
            {
                const std::lock_guard<std::mutex> lock(m_mutex);
                j.pid = child->pid();
            }
            child->readLines([&](const std::string& line) { relay(k, line); });
        } catch (const std::exception& e) {
            emit({{"event", protocol::event::kError},
                  {"job", label(k)},
                  {"message", "config " + j.config->name + ": " + e.what()}});
        }
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            j.pid = 0; // not signalled once it may have been reaped
        }
        if (child) {
            end = child->wait();
        }
        const std::lock_guard<std::mutex> lock(m_mutex);
        j.exit = end;
        j.state = JobState::Ended;
        m_busy -= j.slots;
        m_failed = m_failed || end.exitCode() != 0; // no new jobs after a failure
        ++m_ended;
        m_changed.notify_all();
    }

    void relay(std::size_t k, const std::string& line) {
        json e;
        try {
            e = json::parse(line);
        } catch (const json::exception&) {
            return; // not an event
        }
        if (!e.is_object()) {
            return;
        }
        const EventKind kind = eventKind(e);
        e["job"] = label(k);
        if (kind == EventKind::Started || kind == EventKind::Skipped) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_jobs[k].reporting = true;
        }
        if (kind == EventKind::Done) {
            return;
        }
        if (kind == EventKind::RunFinished || kind == EventKind::Skipped) {
            // Said once the import shows what the study's ledger has.
            const std::lock_guard<std::mutex> lock(m_mutex);
            (kind == EventKind::Skipped ? m_jobs[k].skipped : m_jobs[k].finished) = e;
            return;
        }
        if (kind == EventKind::Error || kind == EventKind::Warning) {
            e["message"] = "config " + m_jobs[k].config->name + ": " + e.value("message", "");
        }
        if (kind == EventKind::Started || kind == EventKind::Progress) {
            e.erase("run"); // the id in the job ledger: meaningless in the study's
        }
        emit(e);
    }

    // On the pool's thread: imports, in selection order, every ended job whose predecessors
    // are imported or will never start.
    void importEnded() {
        for (std::size_t k = 0; k < m_jobs.size(); ++k) {
            Job& j = m_jobs[k];
            JobState state;
            bool neverStarts;
            {
                const std::lock_guard<std::mutex> lock(m_mutex);
                state = j.state;
                neverStarts = failedOrStopped();
            }
            if (state == JobState::Imported || (state == JobState::Pending && neverStarts)) {
                continue;
            }
            if (state != JobState::Ended) {
                return;
            }
            if (j.reader.joinable()) {
                j.reader.join();
            }
            importJob(k);
            const std::lock_guard<std::mutex> lock(m_mutex);
            j.state = JobState::Imported;
        }
    }

    void reportFailure(std::size_t k) {
        Job& j = m_jobs[k];
        if (m_exit == 0) {
            m_exit = j.exit.exitCode();
        }
        if (j.exit.signal != 0) {
            emit({{"event", protocol::event::kError},
                  {"job", label(k)},
                  {"message", "config " + j.config->name + ": the engine process was killed by " +
                                  "signal " + std::to_string(j.exit.signal) + " (" +
                                  ::strsignal(j.exit.signal) + ")"}});
        }
        if (j.finished.is_object()) { // interrupted: its run is still in the job ledger
            j.finished.erase("run");
            emit(j.finished);
        }
        if (fs::exists(j.ledger)) {
            emit({{"event", protocol::event::kWarning},
                  {"job", label(k)},
                  {"message", "config " + j.config->name + ": the job ledger " + j.ledger +
                                  " is kept; `run --jobs` resumes from it"}});
        }
    }

    void importJob(std::size_t k) {
        Job& j = m_jobs[k];
        if (j.exit.exitCode() != 0) {
            reportFailure(k);
            return;
        }
        try {
            std::vector<std::int64_t> imported;
            if (fs::exists(j.ledger)) {
                const ledger::Ledger src(j.ledger, ledger::Ledger::Mode::Read);
                for (const ledger::Run& r : src.runs()) {
                    if (r.status == ledger::RunStatus::Finished && r.kind == RunKind::Study) {
                        // With --again a reproduced run is a new row, as without --jobs.
                        imported.push_back(
                            m_session.ledger().importRun(src, r.id, /*reuse=*/!m_opt.again));
                    }
                }
            }
            if (!imported.empty()) {
                json e = j.finished.is_object()
                             ? j.finished
                             : json{{"event", protocol::event::kRunFinished},
                                    {"job", label(k)},
                                    {"head", j.head->name},
                                    {"config", j.config->name},
                                    {"status", "finished"}}; // recorded by an earlier attempt
                e["run"] = imported.back();
                emit(e);
            } else if (j.skipped.is_object()) {
                emit(j.skipped); // the study's ledger has it: the id is the study ledger's
            }
            removeLedgerFiles(j.ledger);
        } catch (const std::exception& e) {
            emit({{"event", protocol::event::kError},
                  {"job", label(k)},
                  {"message", "config " + j.config->name + ": " + e.what()}});
            if (m_exit == 0) {
                m_exit = protocol::kExitError;
            }
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_failed = true;
        }
    }

    RunOptions m_opt;
    StudySession& m_session;
    Events& m_events;
    const std::atomic<bool>& m_stop;
    std::vector<Job> m_jobs;
    std::mutex m_mutex; // job states and pids, m_busy, m_ended, m_failed
    std::mutex m_emitMutex;
    std::condition_variable m_changed;
    int m_busy = 0;
    std::size_t m_ended = 0;
    std::size_t m_seenEnded = 0;
    bool m_failed = false;
    int m_exit = 0; // the pool's thread only
};

} // namespace

namespace {

// A server variant's runs, after the jobs, one at a time in this process (runs at once would
// share the server and change each other's concurrency).
int recordOnServers(const RunOptions& o, StudySession& session,
                    const std::vector<std::pair<const HeadSpec*, const study::NamedConfig*>>& runs,
                    const std::atomic<bool>& stop) {
    for (const auto& [head, config] : runs) {
        if (stop) {
            return protocol::kExitInterrupted;
        }
        RunRequest req;
        req.head = head;
        req.configName = config->name;
        req.config = config->config;
        req.capture = session.study().captureOf(config->config);
        req.again = o.again;
        if (session.record(req).cancelled) {
            return protocol::kExitInterrupted;
        }
    }
    return 0;
}

} // namespace

int runJobs(const RunOptions& o, StudySession& session, const Selection& selection, Events& events,
            const std::atomic<bool>& stop) {
    JobPool pool(o, session, events, stop);
    std::vector<std::pair<const HeadSpec*, const study::NamedConfig*>> onServers;
    for (const HeadSpec* head : selection.heads) {
        for (const study::NamedConfig* config : selection.configs) {
            if (session.study().onServer(config->config)) {
                onServers.emplace_back(head, config);
            } else {
                pool.add(*head, *config);
            }
        }
    }
    int rc = pool.run();
    if (rc == 0 && !stop) {
        rc = recordOnServers(o, session, onServers, stop);
    }
    if (rc == 0 && stop) {
        return protocol::kExitInterrupted;
    }
    if (rc == 0) {
        events.emit({{"event", protocol::event::kDone}, {"ledger", session.ledgerPath()}});
    }
    return rc;
}

} // namespace probaudit::runner
