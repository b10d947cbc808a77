// probaudit export LEDGER --run ID --format csv|jsonl [--output FILE]
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

namespace {
struct ExportArgs {
    std::string ledger;
    long long run = 0;
    std::string format = "jsonl";
    std::string output;
};
} // namespace

void addExportCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ExportArgs>();
    CLI::App* sub = cli.add_subcommand("export", "Write one run's per-item records (exact floats)");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--run", a->run, "Run id (see `probaudit runs`)")->required();
    sub->add_option("--format", a->format, "csv | jsonl")->check(CLI::IsMember({"csv", "jsonl"}));
    sub->add_option("--output", a->output, "File to write (default: stdout)");
    onChosen(sub, chosen, a, [](const ExportArgs& o, const Invocation&) {
        return exportRun(o.ledger, o.run, o.format, o.output);
    });
}

} // namespace probaudit::app
