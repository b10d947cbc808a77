// probaudit bundle LEDGER -o audit.zip [--study FILE] [--head H] [--lock FILE]: the audit bundle.
#include "app/probaudit/bundle_cmds.h"
#include "app/probaudit/command.h"

namespace probaudit::app {

void addBundleCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<BundleArgs>();
    CLI::App* sub = cli.add_subcommand(
        "bundle", "Pack the audit bundle: the ledger, the study, the runtime lock, the report and "
                  "MANIFEST.json with every file's SHA-256 (the report by probaudit-report)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("-o,--output", a->output, "The zip file")->required();
    sub->add_option("--study", a->study,
                    "The study file the ledger was recorded from, to pack with it (its SHA-256 "
                    "must be the one the ledger recorded)");
    sub->add_option("--head", a->head, "Head variant of the report");
    sub->add_option("--lock", a->lock,
                    "Runtime lock (default: beside the ledger, else beside --study)");
    onChosen(sub, chosen, a, [](const BundleArgs& o, const Invocation&) { return runBundle(o); });
}

} // namespace probaudit::app
