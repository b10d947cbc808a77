// probaudit runs LEDGER [--json]
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

namespace {
struct RunsArgs {
    std::string ledger;
    bool json = false;
};
} // namespace

void addRunsCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<RunsArgs>();
    CLI::App* sub =
        cli.add_subcommand("runs", "List a ledger's runs: config, environment, status, counts");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a,
             [](const RunsArgs& o, const Invocation&) { return listRuns(o.ledger, o.json); });
}

} // namespace probaudit::app
