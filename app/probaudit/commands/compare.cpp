// probaudit compare LEDGER A B [--json | --csv | --jsonl] [--top N] [--near-boundary K]
#include "app/probaudit/command.h"
#include "app/probaudit/compare_cmd.h"

namespace probaudit::app {

void addCompareCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<CompareOptions>();
    CLI::App* sub = cli.add_subcommand(
        "compare",
        "Compare two runs: three-level verdict, accuracy interval and McNemar test, flips, "
        "bit-identity, Δp, first divergent layer, margin histogram, kernel-trace diff");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("A", a->a, "Run id (the reference side)")->required();
    sub->add_option("B", a->b, "Run id")->required();
    auto* json =
        sub->add_flag("--json", a->json, "Everything as JSON, per-item differences included");
    auto* csv = sub->add_flag("--csv", a->csv, "Per-item differences as CSV")->excludes(json);
    sub->add_flag("--jsonl", a->jsonl, "Per-item differences as JSON lines")
        ->excludes(json)
        ->excludes(csv);
    sub->add_option("--top", a->top, "How many largest-Δp items to list (default 10)");
    sub->add_option("--near-boundary", a->nearBoundary, "Also list the K smallest-margin items");
    onChosen(sub, chosen, a,
             [](const CompareOptions& o, const Invocation&) { return compareRuns(o); });
}

} // namespace probaudit::app
