// probaudit run STUDY (--all | --config NAME ...) [--head NAME ...] [--ledger FILE] [--again]
//   [--skip-bad-lines] [--jobs N] [--shard I/N] [--events jsonl]: a study into its ledger
//   (runner/study_session.h); with --engine ssh://user@host on another host, its finished runs
//   then imported into the local ledger (runner/remote_run.h).
#include "command.h"
#include "events.h"

#include "ledger/ledger.h"
#include "runner/remote_run.h"
#include "runner/study_session.h"

#include <filesystem>

namespace probaudit::app {

namespace {
struct RunArgs {
    runner::RunOptions run;
    std::string events;
    std::string shard;
    std::string engine; // "" = here; ssh://user@host[:port]
    runner::RemoteOptions remote;
    std::string snapshotTo; // after the run: a consistent copy of the ledger here (hidden)
};

// `--snapshot-to PATH` (what `run --engine ssh://` asks of the remote run, saving a second
// process start): after a run that kept its work, a consistent copy of the ledger in PATH and
// {"event":"snapshot","path":PATH,"bytes":N}.
int snapshotAfter(const RunArgs& o, const runner::RunOptions& run, int exit, Events& events) {
    if (o.snapshotTo.empty() || (exit != protocol::kExitOk && exit != protocol::kExitInterrupted)) {
        return exit;
    }
    try {
        const std::string path =
            run.ledger.empty() ? runner::defaultLedgerPath(run.study) : run.ledger;
        ledger::Ledger(path, ledger::Ledger::Mode::Read).snapshotTo(o.snapshotTo);
        events.emit({{"event", "snapshot"},
                     {"path", o.snapshotTo},
                     {"bytes", std::filesystem::file_size(o.snapshotTo)}});
    } catch (const std::exception& e) {
        events.emit({{"event", protocol::event::kError}, {"message", e.what()}});
        return protocol::kExitError;
    }
    return exit;
}
} // namespace

void addRunCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<RunArgs>();
    runner::RunOptions& r = a->run;
    CLI::App* sub = cli.add_subcommand(
        "run", "Run a study: its head variants under its configurations, every record into the "
               "study's ledger; resumes an unfinished run where it stopped");
    sub->add_option("STUDY", r.study, "Study file (*.study.json)")->required();
    sub->add_option("--config", r.configs, "Config name to run (repeatable)");
    sub->add_flag("--all", r.all, "Run every config, the reference first");
    sub->add_option("--head", r.heads, "Head variant to run (repeatable; default: all)");
    sub->add_option("--ledger", r.ledger, "Ledger file (default: next to the study, NAME.ledger)");
    sub->add_flag("--again", r.again, "Record configs that already have a finished run once more");
    sub->add_flag("--skip-bad-lines", r.skipBadLines,
                  "Skip malformed dataset lines with a warning");
    sub->add_option("--jobs", r.jobs,
                    "Record up to N configs at once, each in its own engine process (a config "
                    "with threads T takes T of the N); the ledger is the same as without")
        ->check(CLI::Range(1, 1024));
    // A job of --jobs: skip what the study's ledger has (not for people: hidden).
    sub->add_option("--recorded-in", r.recordedIn)->group("");
    sub->add_option("--shard", a->shard,
                    "I/N: record shard I of N (whole batches of every config) into this "
                    "ledger; `probaudit merge` joins the shards' ledgers into one");
    sub->add_option("--engine", a->engine,
                    "ssh://[user@]host[:port]: run there (STUDY and its paths as that host sees "
                    "them; OpenSSH with your keys and config), then import its finished runs "
                    "into the local --ledger");
    sub->add_option("--remote-probaudit", a->remote.probaudit,
                    "--engine ssh://: the probaudit on that host")
        ->capture_default_str();
    sub->add_option("--ssh-config", a->remote.sshConfig, "--engine ssh://: ssh -F FILE");
    sub->add_option("--remote-ledger", a->remote.remoteLedger,
                    "--engine ssh://: the ledger on that host (default: beside its study)");
    sub->add_option("--snapshot-to", a->snapshotTo)->group(""); // for run --engine ssh://
    sub->add_option("--events", a->events,
                    "jsonl: one JSON event per line on stdout (for the workbench)")
        ->check(CLI::IsMember({"jsonl"}));
    onChosen(sub, chosen, a, [](const RunArgs& o, const Invocation&) {
        const std::atomic<bool>& stop = stopOnSignals();
        const auto events = makeEvents(o.events);
        runner::RunOptions run = o.run;
        if (!o.shard.empty()) {
            try {
                run.shard = runner::Shard::parse(o.shard);
            } catch (const std::exception& e) {
                events->emit({{"event", protocol::event::kError}, {"message", e.what()}});
                return protocol::kExitError;
            }
        }
        if (!o.engine.empty()) {
            runner::RemoteOptions remote = o.remote;
            try {
                remote.target = runner::SshTarget::parse(o.engine);
                return runner::runRemote(run, remote, *events, stop);
            } catch (const std::exception& e) {
                events->emit({{"event", protocol::event::kError}, {"message", e.what()}});
                return protocol::kExitError;
            }
        }
        return snapshotAfter(o, run, runner::runStudy(run, *events, stop), *events);
    });
}

} // namespace probaudit::app
