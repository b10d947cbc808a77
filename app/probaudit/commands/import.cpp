// probaudit import audit.zip --into LEDGER: check a bundle and merge its finished runs.
#include "app/probaudit/bundle_cmds.h"
#include "app/probaudit/command.h"

namespace probaudit::app {

void addImportCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ImportArgs>();
    CLI::App* sub = cli.add_subcommand(
        "import", "Check an audit bundle (names, sizes, every SHA-256, the ledger's hash chain) "
                  "and merge its runs into a ledger, environments kept");
    sub->add_option("BUNDLE", a->bundle, "The audit bundle (zip)")->required();
    sub->add_option("--into", a->into, "The ledger to merge into")->required();
    sub->add_option("--trust", a->trust,
                    "Public key (KEY.pub): refuse the bundle unless its ledger's chain head is "
                    "signed by this key");
    onChosen(sub, chosen, a, [](const ImportArgs& o, const Invocation&) { return runImport(o); });
}

} // namespace probaudit::app
