// probaudit bundle LEDGER -o audit.zip [--head H] [--lock FILE]: the audit bundle.
#include "command.h"
#include "ledger_cmds.h"

namespace probaudit::app {

namespace {
struct BundleArgs {
    std::string ledger, output, head, lock;
};
} // namespace

void addBundleCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<BundleArgs>();
    CLI::App* sub = cli.add_subcommand(
        "bundle", "Pack the audit bundle: the ledger, the study, the runtime lock, the report and "
                  "MANIFEST.json with every file's SHA-256 (runs probaudit-report)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("-o,--output", a->output, "The zip file")->required();
    sub->add_option("--head", a->head, "Head variant of the report");
    sub->add_option("--lock", a->lock, "Runtime lock (default: beside the ledger)");
    onChosen(sub, chosen, a, [](const BundleArgs& o, const Invocation&) {
        std::vector<std::string> args{o.ledger, "--bundle", "-o", o.output};
        if (!o.head.empty()) {
            args.insert(args.end(), {"--head", o.head});
        }
        if (!o.lock.empty()) {
            args.insert(args.end(), {"--lock", o.lock});
        }
        return runSibling("probaudit-report", args);
    });
}

} // namespace probaudit::app
