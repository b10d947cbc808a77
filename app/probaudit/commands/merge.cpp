// probaudit merge SHARD.ledger ... -o OUT.ledger [--trust KEY.pub]: the ledgers of
// `run --shard I/N` joined into one sealed ledger (ledger/merge.h); a refusal names the shard
// and writes nothing.
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

namespace {
struct MergeArgs {
    std::vector<std::string> shards;
    std::string out;
    std::string trust;
};
} // namespace

void addMergeCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<MergeArgs>();
    CLI::App* sub = cli.add_subcommand(
        "merge", "Join the ledgers of a sharded study (run --shard I/N) into one sealed ledger, "
                 "as if one node had recorded it; checks every shard first");
    sub->add_option("SHARDS", a->shards, "Every shard's ledger")->required();
    sub->add_option("-o,--output", a->out, "The merged ledger (must not exist)")->required();
    sub->add_option("--trust", a->trust,
                    "Public key (KEY.pub): every shard's chain head must be signed by it (without "
                    "it a shard edited and sealed again is not found)");
    onChosen(sub, chosen, a, [](const MergeArgs& o, const Invocation&) {
        return mergeLedgers(o.shards, o.out, o.trust);
    });
}

} // namespace probaudit::app
