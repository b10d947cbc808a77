// probaudit verify LEDGER [--json]: exit 2 and the first changed run when the chain breaks.
#include "command.h"
#include "ledger_cmds.h"

namespace probaudit::app {

namespace {
struct VerifyArgs {
    std::string ledger;
    bool json = false;
};
} // namespace

void addVerifyCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<VerifyArgs>();
    CLI::App* sub = cli.add_subcommand(
        "verify",
        "Recompute every sealed run's hash chain; names the first run whose records or row changed "
        "(exit 2)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a,
             [](const VerifyArgs& o, const Invocation&) { return verifyLedger(o.ledger, o.json); });
}

} // namespace probaudit::app
