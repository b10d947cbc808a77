// probaudit merge SHARD.ledger ... -o OUT.ledger: the ledgers of `run --shard I/N` joined into
// one sealed ledger (ledger/merge.h); a refusal names the shard and writes nothing.
#include "app/probaudit/command.h"

#include "core/ledger/merge.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct MergeArgs {
    std::vector<std::string> shards;
    std::string out;
};
} // namespace

void addMergeCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<MergeArgs>();
    CLI::App* sub = cli.add_subcommand(
        "merge", "Join the ledgers of a sharded study (run --shard I/N) into one sealed ledger, "
                 "as if one node had recorded it; checks every shard first");
    sub->add_option("SHARDS", a->shards, "Every shard's ledger")->required();
    sub->add_option("-o,--output", a->out, "The merged ledger (must not exist)")->required();
    onChosen(sub, chosen, a, [](const MergeArgs& o, const Invocation&) {
        const ledger::MergeResult m = ledger::mergeShards(o.shards, o.out);
        std::cout << o.out << ": " << m.shards << " shards merged, " << m.runs << " runs of "
                  << m.items << " items, sealed\n";
        return 0;
    });
}

} // namespace probaudit::app
