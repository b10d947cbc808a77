// probaudit import audit.zip --into LEDGER: check a bundle and merge its finished runs.
#include "command.h"
#include "ledger_cmds.h"

namespace probaudit::app {

namespace {
struct ImportArgs {
    std::string bundle, into;
};
} // namespace

void addImportCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ImportArgs>();
    CLI::App* sub = cli.add_subcommand(
        "import", "Check an audit bundle (names, sizes, every SHA-256, the ledger's hash chain) "
                  "and merge its runs into a ledger, environments kept");
    sub->add_option("BUNDLE", a->bundle, "The audit bundle (zip)")->required();
    sub->add_option("--into", a->into, "The ledger to merge into")->required();
    onChosen(sub, chosen, a, [](const ImportArgs& o, const Invocation&) {
        return runSibling("probaudit-report", {"--import", o.bundle, "--into", o.into});
    });
}

} // namespace probaudit::app
