// probaudit report LEDGER -o report.pdf [--head H] [--page-size a4|letter] [--lock FILE]
// [--absolute-paths]: runs probaudit-report, the Qt-based PDF writer beside this executable.
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

namespace {
struct ReportArgs {
    std::string ledger, output, head, pageSize = "a4", lock;
    bool absolutePaths = false;
};
} // namespace

void addReportCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ReportArgs>();
    CLI::App* sub = cli.add_subcommand(
        "report", "Write the study's PDF report (runs probaudit-report, the Qt-based writer)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("-o,--output", a->output, "The PDF file")->required();
    sub->add_option("--head", a->head, "Head variant (default: the first recorded)");
    sub->add_option("--page-size", a->pageSize, "a4 or letter")
        ->check(CLI::IsMember({"a4", "letter"}));
    sub->add_option("--lock", a->lock,
                    "Runtime lock for the pin status (default: beside the ledger)");
    sub->add_flag("--absolute-paths", a->absolutePaths,
                  "Show the study's, ledger's, model's and dataset's paths as this machine spells "
                  "them (default: relative to the study's folder)");
    onChosen(sub, chosen, a, [](const ReportArgs& o, const Invocation&) {
        std::vector<std::string> args{o.ledger, "-o", o.output, "--page-size", o.pageSize};
        if (!o.head.empty()) {
            args.insert(args.end(), {"--head", o.head});
        }
        if (!o.lock.empty()) {
            args.insert(args.end(), {"--lock", o.lock});
        }
        if (o.absolutePaths) {
            args.emplace_back("--absolute-paths");
        }
        return runSibling("probaudit-report", args);
    });
}

} // namespace probaudit::app
