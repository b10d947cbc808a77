#include "core/runner/remote_run.h"
#include "core/runner/remote_stream.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/protocol.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "core/process/child_process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace probaudit::runner {

SshTarget SshTarget::parse(const std::string& url) {
    const std::string prefix = "ssh://";
    const auto bad = [&](const std::string& why) {
        return Error("--engine " + url + ": " + why + " (ssh://[user@]host[:port])");
    };
    if (url.rfind(prefix, 0) != 0) {
        throw bad("not an ssh:// address");
    }
    std::string rest = url.substr(prefix.size());
    if (!rest.empty() && rest.back() == '/') {
        rest.pop_back();
    }
    SshTarget t;
    if (const auto at = rest.find('@'); at != std::string::npos) {
        t.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
    }
    if (const auto colon = rest.rfind(':');
        colon != std::string::npos && rest.find(']', colon) == std::string::npos) {
        const std::string port = rest.substr(colon + 1);
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != port.npos ||
            std::stoi(port) < 1 || std::stoi(port) > 65535) {
            throw bad("the port must be 1..65535");
        }
        t.port = std::stoi(port);
        rest = rest.substr(0, colon);
    }
    if (rest.size() > 2 && rest.front() == '[' && rest.back() == ']') {
        rest = rest.substr(1, rest.size() - 2); // [::1]
    }
    t.host = rest;
    if (t.host.empty() || t.host.find_first_of("/@ \t") != std::string::npos || t.host[0] == '-' ||
        (!t.user.empty() && t.user[0] == '-')) {
        throw bad("no host");
    }
    return t;
}

std::string SshTarget::url() const {
    return "ssh://" + (user.empty() ? "" : user + "@") + host +
           (port > 0 ? ":" + std::to_string(port) : "");
}

namespace {

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (const char c : s) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

// A temporary file that is removed when it goes out of scope.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& pattern) {
        std::string p = pattern + ".XXXXXX";
        const int fd = ::mkstemp(p.data());
        if (fd < 0) {
            throw Error(pattern, "cannot create a temporary file beside it");
        }
        ::close(fd);
        path = p;
    }
    ~TempFile() { ::unlink(path.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
};

std::string lastLine(const std::string& path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (!line.empty()) {
            last = line;
        }
    }
    return last;
}

// ssh with its own messages in `log` (the remote command's output is the caller's).
Child startSsh(const RemoteOptions& r, const std::string& remoteCommand, const std::string& log) {
    std::vector<std::string> cmd = sshCommand(r, remoteCommand);
    cmd.insert(cmd.begin() + 1, {"-E", log});
    const std::string exe = executableOnPath("ssh", ": install the OpenSSH client");
    return Child::start(exe, "ssh", std::vector<std::string>(cmd.begin() + 1, cmd.end()), {},
                        Stdout::Capture);
}

std::vector<std::string> runArguments(const RunOptions& o, const RemoteOptions& r,
                                      const std::string& remoteLedger) {
    std::vector<std::string> a{r.probaudit, "run", o.study, "--ledger", remoteLedger};
    if (o.all) {
        a.push_back("--all");
    }
    for (const auto& c : o.configs) {
        a.insert(a.end(), {"--config", c});
    }
    for (const auto& h : o.heads) {
        a.insert(a.end(), {"--head", h});
    }
    if (o.again) {
        a.push_back("--again");
    }
    if (o.skipBadLines) {
        a.push_back("--skip-bad-lines");
    }
    if (o.jobs > 1) {
        a.insert(a.end(), {"--jobs", std::to_string(o.jobs)});
    }
    return a;
}

std::vector<std::string> diagnoseArguments(const DiagnoseOptions& o, const RemoteOptions& r,
                                           const std::string& remoteLedger) {
    std::vector<std::string> a{r.probaudit,
                               "diagnose",
                               o.run.study,
                               "--ledger",
                               remoteLedger,
                               "--sample",
                               std::to_string(o.sample),
                               "--batch",
                               std::to_string(o.batch),
                               "--seed",
                               std::to_string(o.seed)};
    if (!o.head.empty()) {
        a.insert(a.end(), {"--head", o.head});
    }
    if (o.run.skipBadLines) {
        a.push_back("--skip-bad-lines");
    }
    if (o.causeSample >= 0) {
        a.insert(a.end(), {"--cause-sample", std::to_string(o.causeSample)});
    }
    return a;
}

// What an ssh exit of 255 (ssh's own failure) or a signal means, in one sentence.
Error connectionError(const RemoteOptions& r, const std::string& log, bool started) {
    const std::string why = lastLine(log);
    const std::string detail = why.empty() ? "" : " (" + why + ")";
    if (!started) {
        return Error(r.target.url(), "cannot run the engine there" + detail);
    }
    return Error(r.target.url(),
                 "the connection dropped mid-run" + detail +
                     "; the remote run keeps every committed batch: run the same command again "
                     "to resume it");
}

// Streams the remote run's events; returns its exit code.
struct RemoteEnd {
    int exit = 0;
    bool copied = false; // the run's copy of its ledger came back whole (into the local copy)
    nlohmann::json done; // the remote command's done event (null when it sent none)
};

// Ends the connection when `stop` is raised (Ctrl-C, the workbench's Cancel): the remote run
// then stops at its next event, keeping every committed batch. The child is signalled only
// before finish(), never once it may have been waited for.
class StopWatcher {
public:
    StopWatcher(Child& child, const std::atomic<bool>& stop)
        : m_thread([this, &child, &stop] {
              while (!stop) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(100));
                  const std::lock_guard<std::mutex> lock(m_mutex);
                  if (m_finished) {
                      return;
                  }
              }
              const std::lock_guard<std::mutex> lock(m_mutex);
              if (!m_finished) {
                  child.signal(SIGTERM);
              }
          }) {}
    ~StopWatcher() { finish(); }
    void finish() {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }

private:
    std::mutex m_mutex;
    bool m_finished = false;
    std::thread m_thread;
};

// `args` (a probaudit command writing `remoteLedger`) on the remote host with --events jsonl,
// its copy of its ledger streamed back through the same connection into `copy` (one ssh
// connection for both).
RemoteEnd streamRun(std::vector<std::string> args, const RemoteOptions& r,
                    const std::string& remoteLedger, const std::string& copy, Events& events,
                    const std::atomic<bool>& stop) {
    const TempFile log(fs::temp_directory_path() / "probaudit-ssh");
    const std::string snapshot = remoteLedger + ".copy-" + std::to_string(::getpid()) + "-" +
                                 fs::path(log.path).extension().string().substr(1);
    args.insert(args.end(), {"--events", "jsonl", "--snapshot-to", snapshot});
    const std::string command = shellWords(args) + " 2>&1; rc=$?; if [ -f " +
                                shellWords({snapshot}) + " ]; then cat " + shellWords({snapshot}) +
                                "; rm -f " + shellWords({snapshot}) + "; fi; exit $rc";
    Child ssh = startSsh(r, command, log.path);
    RunStream stream(events, copy);
    StopWatcher watcher(ssh, stop);
    ssh.readLines([&](const std::string& line) { stream.onLine(line); });
    watcher.finish();
    const ChildExit end = ssh.wait();
    if (stop) {
        events.emit({{"event", protocol::event::kWarning},
                     {"message", "stopped: the run on " + r.target.url() +
                                     " keeps every committed batch; run again to resume it"}});
        return {protocol::kExitInterrupted, false, nullptr};
    }
    if (end.signal != 0 || end.code == 255) {
        throw connectionError(r, log.path, stream.started());
    }
    const std::string said = stream.text().empty() ? "" : " (" + stream.text().back() + ")";
    if ((end.code == 127 || end.code == 126) && !stream.started()) {
        throw Error(r.target.url(), r.probaudit + " cannot be run there" + said +
                                        "; --remote-probaudit names the remote probaudit");
    }
    for (const std::string& t : stream.text()) {
        events.emit({{"event", protocol::event::kWarning}, {"message", r.target.url() + ": " + t}});
    }
    return {end.code, stream.copied(), stream.done()};
}

// A consistent copy of the remote ledger in `copy` by `probaudit snapshot` over a connection
// of its own (when the run's own copy did not come back).
void pullLedger(const RemoteOptions& r, const std::string& remoteLedger, const std::string& copy) {
    const TempFile log(fs::temp_directory_path() / "probaudit-ssh");
    Child ssh = startSsh(r, shellWords({r.probaudit, "snapshot", remoteLedger}), log.path);
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    ssh.readLines(
        [&](const std::string& chunk) { out.write(chunk.data(), std::streamsize(chunk.size())); });
    out.close();
    const ChildExit end = ssh.wait();
    if (end.signal != 0 || end.code == 255) {
        throw connectionError(r, log.path, true);
    }
    if (end.code != 0 || !out) {
        throw Error(r.target.url(), "cannot copy " + remoteLedger + " back (exit " +
                                        std::to_string(end.code) + ")");
    }
}

// What a copy brought: how many runs are new here, and each finished run's id here.
struct Imported {
    int added = 0;
    std::map<std::int64_t, std::int64_t> ids; // the remote ledger's id -> this ledger's
};

// More to take over from the copy in the import's transaction (a diagnosis): called with the
// copy, the local ledger, the runs' ids and the remote command's done event.
using AlsoImport = std::function<void(const ledger::Ledger& src, ledger::Ledger& dst,
                                      const Imported& runs, const nlohmann::json& done)>;

// The copy, verified, becomes the local ledger when there is none (meta "recorded_on" says
// where); otherwise its finished runs are imported into it (one transaction with `also`,
// labelled "imported from ssh://...").
Imported importRuns(const std::string& copy, const std::string& local, const std::string& origin,
                    const nlohmann::json& done, const AlsoImport& also) {
    const ledger::Ledger src(copy, ledger::Ledger::Mode::Read);
    const ledger::VerifyResult v = src.verify();
    if (!v.ok) {
        throw Error(origin, "the remote ledger does not verify: " + v.problem);
    }
    Imported got;
    if (!fs::exists(local)) { // the copy becomes the local ledger, as it was recorded there
        for (const ledger::Run& run : src.runs()) {
            if (run.status == ledger::RunStatus::Finished) {
                got.ids[run.id] = run.id;
                ++got.added;
            }
        }
        ledger::Ledger(copy, ledger::Ledger::Mode::Write).setMeta("recorded_on", origin);
        if (::rename(copy.c_str(), local.c_str()) != 0) {
            throw Error(local, "cannot be written");
        }
        return got;
    }
    ledger::Ledger dst(local, ledger::Ledger::Mode::Write);
    try {
        dst.atomically([&] {
            if (!dst.hasStudy()) {
                dst.initStudy(src.study(), src.datasetSha256(), src.items());
            } else if (dst.datasetSha256() != src.datasetSha256() ||
                       dst.itemCount() != src.itemCount()) {
                throw Error(local, "holds other items than the remote study's ledger");
            }
            const std::size_t before = dst.runs().size();
            for (const ledger::Run& run : src.runs()) {
                if (run.status == ledger::RunStatus::Finished) {
                    got.ids[run.id] = dst.importRun(src, run.id, /*reuse=*/true, origin);
                }
            }
            got.added = int(dst.runs().size() - before);
            ledger::carryPolicyRegistration(src, dst, got.ids);
            if (also) {
                also(src, dst, got, done);
            }
        });
    } catch (...) {
        if (dst.runs().empty()) {
            dst.discardCreated();
        }
        throw;
    }
    return got;
}

// `args` run there writing `remoteLedger`, then its copy taken into `local` (importRuns).
struct RemoteResult {
    int exit = 0;
    std::optional<Imported> imported; // none: stopped here, or the remote command failed
    nlohmann::json done;              // the remote command's done event
};

RemoteResult runThere(const std::vector<std::string>& args, const RemoteOptions& r,
                      const std::string& remoteLedger, const std::string& local, Events& events,
                      const std::atomic<bool>& stop, const AlsoImport& also = {}) {
    const TempFile copy(local + ".remote");
    const RemoteEnd end = streamRun(args, r, remoteLedger, copy.path, events, stop);
    if (end.exit != protocol::kExitOk && (end.exit != protocol::kExitInterrupted || stop)) {
        return {end.exit, std::nullopt,
                end.done}; // its error event said why, or it was stopped here
    }
    if (!end.copied) {
        pullLedger(r, remoteLedger, copy.path);
    }
    // A command that did not end well brings its finished runs, never what it meant to add.
    const AlsoImport more = end.exit == protocol::kExitOk ? also : AlsoImport{};
    return {end.exit, importRuns(copy.path, local, r.target.url(), end.done, more), end.done};
}

// The study on the remote host; throws when STUDY is not a path there.
void checkRemoteStudy(const std::string& study) {
    if (study.empty() || study[0] != '/') {
        throw Error(study, "with --engine ssh://, STUDY is the study's path on that host: give "
                           "it absolute");
    }
}

} // namespace

std::string localLedgerPath(const std::string& ledger, const std::string& study) {
    return ledger.empty() ? fs::path(defaultLedgerPath(study)).filename().string() : ledger;
}

std::string shellWords(const std::vector<std::string>& words) {
    std::string line;
    for (const auto& w : words) {
        line += (line.empty() ? "" : " ") + quoted(w);
    }
    return line;
}

std::vector<std::string> sshCommand(const RemoteOptions& r, const std::string& remoteCommand) {
    std::vector<std::string> cmd{"ssh", "-T",
                                 "-o",  "BatchMode=yes",
                                 "-o",  "ServerAliveInterval=5",
                                 "-o",  "ServerAliveCountMax=3"};
    if (!r.sshConfig.empty()) {
        cmd.insert(cmd.end(), {"-F", r.sshConfig});
    }
    if (r.target.port > 0) {
        cmd.insert(cmd.end(), {"-p", std::to_string(r.target.port)});
    }
    if (!r.target.user.empty()) {
        cmd.insert(cmd.end(), {"-l", r.target.user});
    }
    cmd.insert(cmd.end(), {"--", r.target.host, remoteCommand});
    return cmd;
}

std::string remoteEnvironment(const RemoteOptions& r, bool json) {
    const TempFile log(fs::temp_directory_path() / "probaudit-ssh");
    std::vector<std::string> args{r.probaudit, "env"};
    if (json) {
        args.push_back("--json");
    }
    Child ssh = startSsh(r, shellWords(args) + " 2>&1", log.path);
    std::string out;
    ssh.readLines([&](const std::string& line) { out += line; });
    const ChildExit end = ssh.wait();
    if (end.signal != 0 || end.code == 255) {
        throw connectionError(r, log.path, false);
    }
    if (end.code != 0) {
        const std::string said = out.substr(0, out.find('\n'));
        throw Error(r.target.url(), r.probaudit + " cannot be run there (" + said +
                                        "); --remote-probaudit names the remote probaudit");
    }
    return out;
}

int runRemote(const RunOptions& o, const RemoteOptions& r, Events& events,
              const std::atomic<bool>& stop) {
    checkRemoteStudy(o.study);
    if (o.shard.active()) {
        throw Error("--shard records into a ledger of its own on the host that runs it; use "
                    "probaudit sweep there");
    }
    const std::string remoteLedger =
        r.remoteLedger.empty() ? defaultLedgerPath(o.study) : r.remoteLedger;
    const std::string local = localLedgerPath(o.ledger, o.study);
    const RemoteResult end =
        runThere(runArguments(o, r, remoteLedger), r, remoteLedger, local, events, stop);
    if (end.imported) {
        events.emit({{"event", protocol::event::kDone},
                     {"ledger", local},
                     {"imported", end.imported->added},
                     {"from", r.target.url() + ":" + remoteLedger}});
    }
    return end.exit;
}

int diagnoseRemote(const DiagnoseOptions& o, const RemoteOptions& r, Events& events,
                   const std::atomic<bool>& stop, analysis::Diagnosis& diagnosis) {
    checkRemoteStudy(o.run.study);
    const std::string remoteLedger =
        r.remoteLedger.empty() ? defaultLedgerPath(o.run.study) : r.remoteLedger;
    const std::string local = localLedgerPath(o.run.ledger, o.run.study);
    // The head diagnosed there (the study's first when --head is not given).
    const auto headOf = [&](const nlohmann::json& done) {
        return done.is_object() && done.contains("head") && done["head"].is_string()
                   ? done["head"].get<std::string>()
                   : o.head;
    };
    // The diagnosis names its runs by their ids there: here it names the same runs by theirs.
    const AlsoImport takeDiagnosis = [&](const ledger::Ledger& src, ledger::Ledger& dst,
                                         const Imported& runs, const nlohmann::json& done) {
        const std::string head = headOf(done);
        const auto stored = src.latestDiagnosis(head);
        if (!stored) {
            throw Error(r.target.url(), "the remote ledger holds no diagnosis of head \"" + head +
                                            "\" (is its probaudit older than this one?)");
        }
        analysis::Diagnosis d = analysis::Diagnosis::fromJson(*stored);
        analysis::renumberRuns(d, runs.ids);
        dst.putDiagnosis(head, d.toJson());
    };
    const RemoteResult end = runThere(diagnoseArguments(o, r, remoteLedger), r, remoteLedger, local,
                                      events, stop, takeDiagnosis);
    if (end.exit != protocol::kExitOk || !end.imported) {
        return end.exit == protocol::kExitOk ? protocol::kExitError : end.exit;
    }
    const std::string head = headOf(end.done);
    const ledger::Ledger led(local, ledger::Ledger::Mode::Read);
    const auto stored = led.latestDiagnosis(head);
    if (!stored) { // the copy became the local ledger: its diagnosis is the remote one
        throw Error(local, "holds no diagnosis of head \"" + head + "\" after the remote one");
    }
    diagnosis = analysis::Diagnosis::fromJson(*stored);
    return protocol::kExitOk;
}

} // namespace probaudit::runner
