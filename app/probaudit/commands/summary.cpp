// probaudit summary LEDGER [--head H] [--json | --csv]: the study's headline table.
#include "command.h"
#include "compare_cmd.h"

namespace probaudit::app {

namespace {
struct SummaryArgs {
    std::string ledger, head;
    bool json = false, csv = false;
};
} // namespace

void addSummaryCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<SummaryArgs>();
    CLI::App* sub =
        cli.add_subcommand("summary", "The study's headline table: each config against the "
                                      "reference (accuracy, agreement, flips, "
                                      "largest Δp, bit-identical share, first divergent layer)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--head", a->head, "Head variant (default: the first recorded)");
    auto* json = sub->add_flag("--json", a->json, "Machine-readable JSON");
    sub->add_flag("--csv", a->csv, "The headline table as CSV")->excludes(json);
    onChosen(sub, chosen, a, [](const SummaryArgs& o, const Invocation&) {
        return summarize(o.ledger, o.head, o.json, o.csv);
    });
}

} // namespace probaudit::app
