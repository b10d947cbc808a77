// probaudit gate LEDGER [--study S] [--junit FILE] [--json]: the study's policy evaluated on the
// recorded runs. Exit 0 every check passed, 5 a check failed, 6 none failed but one could not
// be evaluated, 2 the ledger's hash chain is broken (nothing judged).
#include "app/probaudit/command.h"
#include "app/probaudit/gate_cmd.h"

namespace probaudit::app {

void addGateCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<GateOptions>();
    CLI::App* sub = cli.add_subcommand(
        "gate", "Evaluate the study's policy on the recorded runs: a table rule x config, exit 0 "
                "all pass, 5 a rule failed, 6 a rule could not be evaluated, 2 the ledger was "
                "changed");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--study", a->study,
                    "Judge by this study file's policy instead of the one sealed in the ledger "
                    "(reported as written after the runs unless it is the same policy)");
    sub->add_option("--junit", a->junit, "Also write the verdict as JUnit XML to FILE");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const GateOptions& o, const Invocation&) { return gate(o); });
}

} // namespace probaudit::app
