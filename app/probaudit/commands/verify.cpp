// probaudit verify LEDGER [--head SEQ:DIGEST] [--trust PUB] [--json]: exit 2 and what changed
// when the chain breaks, when a recorded head is gone or when the trusted key did not sign.
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

void addVerifyCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<VerifyOptions>();
    CLI::App* sub = cli.add_subcommand(
        "verify",
        "Recompute the whole hash chain (runs, study, items, configs, environments, diagnoses) "
        "and every signature; names the first thing that changed (exit 2)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--head", a->head,
                    "A head printed earlier by `probaudit head` (SEQ:DIGEST): the chain must "
                    "still contain it");
    sub->add_option("--trust", a->trust,
                    "Public key (KEY.pub): its signature must cover the current head");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a,
             [](const VerifyOptions& o, const Invocation&) { return verifyLedger(o); });
}

} // namespace probaudit::app
