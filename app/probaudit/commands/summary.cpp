// probaudit summary LEDGER [--head H] [--json | --csv] [--seed-tables [--batched CONFIG]]
// [--variants]: the study's headline table, the field reports' tables, or the model variants'.
#include "app/probaudit/command.h"
#include "app/probaudit/compare_cmd.h"
#include "app/probaudit/variants_cmd.h"

namespace probaudit::app {

namespace {
struct SummaryArgs {
    std::string ledger, head, batched;
    bool json = false, csv = false, seedTables = false, variants = false;
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
    auto* csv = sub->add_flag("--csv", a->csv, "The headline table as CSV")->excludes(json);
    auto* seed = sub->add_flag(
        "--seed-tables", a->seedTables,
        "The field reports' tables instead: the shape table (from the stored diagnosis), "
        "accuracy one at a time against the batched path for every head, flips at near ties; "
        "for a generation study the concurrency table");
    seed->excludes(csv);
    sub->add_option("--batched", a->batched,
                    "With --seed-tables: the batched path's config (default: the first config "
                    "with batch size above 1 that differs from the reference only in shape)")
        ->needs(seed);
    sub->add_flag("--variants", a->variants,
                  "The model variants table instead: each variant against the reference "
                  "variant under the same runtime settings (flips, churn vs net accuracy with "
                  "95% intervals, largest Δp; KL over the vocabulary and same top token where "
                  "the head records its vocabulary) and the runtime noise floor")
        ->excludes(seed)
        ->excludes(csv);
    onChosen(sub, chosen, a, [](const SummaryArgs& o, const Invocation&) {
        if (o.variants) {
            return summarizeVariants(o.ledger, o.head, o.json);
        }
        if (o.seedTables) {
            return seedTables(o.ledger, o.head, o.batched, o.json);
        }
        return summarize(o.ledger, o.head, o.json, o.csv);
    });
}

} // namespace probaudit::app
