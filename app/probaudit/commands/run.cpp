// probaudit run STUDY (--all | --config NAME ...) [--head NAME ...] [--ledger FILE] [--again]
//   [--skip-bad-lines] [--jobs N] [--shard I/N] [--events jsonl]: a study into its ledger
//   (runner/study_session.h); with --engine ssh://user@host on another host, its finished runs
//   then imported into the local ledger (runner/remote_run.h).
#include "app/probaudit/command.h"
#include "app/probaudit/events.h"
#include "app/probaudit/remote_engine.h"

#include "core/common/protocol.h"
#include "core/runner/study_session.h"

namespace probaudit::app {

namespace {
struct RunArgs {
    runner::RunOptions run;
    std::string events;
    std::string shard;
    EngineArgs engine;
};
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
    addEngineOptions(sub, a->engine,
                     "run there (STUDY and its paths as that host sees them; OpenSSH with your "
                     "keys and config), then import its finished runs into the local --ledger",
                     true);
    sub->add_option("--events", a->events,
                    "jsonl: one JSON event per line on stdout (for the workbench)")
        ->check(CLI::IsMember({"jsonl"}));
    onChosen(sub, chosen, a, [](const RunArgs& o, const Invocation&) {
        const std::atomic<bool>& stop = stopOnSignals();
        const auto events = makeEvents(o.events);
        runner::RunOptions run = o.run;
        try {
            if (!o.shard.empty()) {
                run.shard = runner::Shard::parse(o.shard);
            }
            if (o.engine.remoteEngine()) {
                return runner::runRemote(run, o.engine.target(), *events, stop);
            }
        } catch (const std::exception& e) {
            events->emit({{"event", protocol::event::kError}, {"message", e.what()}});
            return protocol::kExitError;
        }
        const int exit = runner::runStudy(run, *events, stop);
        return snapshotAfter(o.engine,
                             run.ledger.empty() ? runner::defaultLedgerPath(run.study) : run.ledger,
                             exit, *events);
    });
}

} // namespace probaudit::app
