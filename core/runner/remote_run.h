#pragma once
// A run on another host (`probaudit run STUDY --engine ssh://user@host[:port]`): the OpenSSH
// client (the user's keys and ~/.ssh/config, or --ssh-config FILE) runs `probaudit run ...
// --events jsonl` there, where the study, model and data paths resolve; its events stream here
// as a local run's do. When it ends, a consistent copy of the remote ledger comes back
// (`probaudit snapshot`) and is verified; it becomes the local ledger when there is none (meta
// "recorded_on" = the ssh:// address), else its finished runs are imported into the local
// ledger, labelled "imported from ssh://host" (a local ledger of other items is refused). A
// dropped connection is one sentence; the remote run keeps every committed batch and the same
// command resumes it. `probaudit diagnose --engine ssh://` runs the ladder there the same way.
#include "core/runner/diagnose.h"
#include "core/runner/events.h"
#include "core/runner/study_session.h"

#include <atomic>
#include <string>
#include <vector>

namespace probaudit::runner {

struct SshTarget {
    std::string user, host;
    int port = 0; // 0: ssh's own default (or the config's)
    // "ssh://user@host[:port]" (user and port optional); throws probaudit::Error otherwise.
    static SshTarget parse(const std::string& url);
    std::string url() const;
};

struct RemoteOptions {
    SshTarget target;
    std::string probaudit = "probaudit"; // the remote executable (a path, or a name on PATH)
    std::string sshConfig;               // ssh -F FILE; "" = the user's own
    std::string remoteLedger;            // "" = beside the remote study
};

// `words`, each quoted for a POSIX shell, joined by spaces.
std::string shellWords(const std::vector<std::string>& words);
// The ssh command line that runs `remoteCommand` (a shell command line) on the target: batch
// mode (never a password prompt), keep-alives that notice a dead connection in ~15 s.
std::vector<std::string> sshCommand(const RemoteOptions& r, const std::string& remoteCommand);

// The local ledger of a command run on another host: `ledger`, or NAME.ledger in the current
// folder for the remote study NAME.study.json.
std::string localLedgerPath(const std::string& ledger, const std::string& remoteStudy);

// `probaudit env [--json]` run on the target: its output, or probaudit::Error with why not (the
// connection, or the remote probaudit that cannot be run).
std::string remoteEnvironment(const RemoteOptions& r, bool json);

// Runs `o` (study path absolute on the remote host; o.ledger the local ledger) there; returns
// the exit code as runStudy does. Throws probaudit::Error for a connection that fails or drops,
// a remote ledger that does not verify, or runs the local ledger cannot take.
int runRemote(const RunOptions& o, const RemoteOptions& r, Events& events,
              const std::atomic<bool>& stop);

// `probaudit diagnose` of `o` there (o.run.study absolute on that host): the probes stream here
// as a local diagnosis's do; the probe runs and the study's finished runs come back into the
// local ledger as runRemote's do, and the diagnosis with them (in the same transaction), its run
// ids and the run ids in its text those of the local ledger. Returns the exit code; on 0
// `diagnosis` is the one stored here. Throws probaudit::Error as runRemote does.
int diagnoseRemote(const DiagnoseOptions& o, const RemoteOptions& r, Events& events,
                   const std::atomic<bool>& stop, analysis::Diagnosis& diagnosis);

} // namespace probaudit::runner
