// probaudit migrate LEDGER: bring a ledger from an older ProbAudit to this schema.
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

void addMigrateCommand(CLI::App& cli, Action& chosen) {
    auto path = std::make_shared<std::string>();
    CLI::App* sub =
        cli.add_subcommand("migrate", "Bring a ledger from an older ProbAudit to this schema");
    sub->add_option("LEDGER", *path, "Ledger file")->required();
    onChosen(sub, chosen, path,
             [](const std::string& ledger, const Invocation&) { return migrateLedger(ledger); });
}

} // namespace probaudit::app
