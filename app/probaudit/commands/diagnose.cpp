// probaudit diagnose STUDY [--ledger L] [--head NAME] [--sample N] [--batch N] [--seed S]
//   [--cause-sample N] [--json] [--engine ssh://user@host]
#include "app/probaudit/command.h"
#include "app/probaudit/diagnose_cmd.h"
#include "app/probaudit/remote_engine.h"

#include "core/common/protocol_request.h"
#include "core/study/study.h"
#include "core/tasks/predict.h"

namespace probaudit::app {

namespace {
struct DiagnoseArgs {
    runner::DiagnoseOptions diag;
    bool json = false;
    std::string events;
    EngineArgs engine;
};
} // namespace

void addDiagnoseCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<DiagnoseArgs>();
    runner::DiagnoseOptions& d = a->diag;
    CLI::App* sub =
        cli.add_subcommand("diagnose", "The diagnosis ladder: loader and repeatability, neighbour "
                                       "interference, shape, kernels and "
                                       "runtime, on a sample; explains each config's gap from the "
                                       "reference, forecasts its flips and localises its cause");
    sub->add_option("STUDY", d.run.study, "Study file")->required();
    sub->add_option("--ledger", d.run.ledger, "Ledger file (default: next to the study)");
    sub->add_option("--head", d.head, "Head variant (default: the first)");
    sub->add_option("--sample", d.sample, "Items in the probe sample (default 32)")
        ->check(CLI::Range(std::int64_t(1), protocol::kMaxDiagnoseSample));
    sub->add_option("--batch", d.batch, "Batch size of the batch and neighbour probes (default 8)")
        ->check(CLI::Range(std::int64_t(1), protocol::kMaxDiagnoseBatch));
    sub->add_option("--seed", d.seed, "Seed of the sample (default 1)");
    sub->add_option("--cause-sample", d.causeSample,
                    "Items each differing config's cause is localised on (default: --sample; 0: "
                    "no cause rung)")
        ->check(CLI::Range(std::int64_t(0), protocol::kMaxDiagnoseSample));
    sub->add_flag("--skip-bad-lines", d.run.skipBadLines, "Skip malformed dataset lines");
    auto* json =
        sub->add_flag("--json", a->json, "The ladder, the table and the explanations as JSON");
    sub->add_option("--events", a->events,
                    "jsonl: the probe runs' events as JSON lines on stdout (for the workbench)")
        ->check(CLI::IsMember({"jsonl"}))
        ->excludes(json);
    addEngineOptions(sub, a->engine,
                     "run the probes there (STUDY and its paths as that host sees them), then "
                     "bring them and the diagnosis into the local --ledger",
                     true);
    onChosen(sub, chosen, a, [](const DiagnoseArgs& o, const Invocation& inv) {
        const std::atomic<bool>& stop = stopOnSignals();
        if (o.engine.remoteEngine()) { // the study is a path on that host
            return diagnoseCommand(o.diag, o.json, o.events, o.engine, stop);
        }
        const auto st = study::Study::load(o.diag.run.study);
        tasks::ensureCpuCapability(st.config(st.reference)->config.toJson().dump(), inv.argc,
                                   inv.argv);
        return diagnoseCommand(o.diag, o.json, o.events, o.engine, stop);
    });
}

} // namespace probaudit::app
