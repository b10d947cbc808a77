// probaudit inspect PATH [--load] [--json]: describe a checkpoint.
#include "app/probaudit/inspect.h"
#include "app/probaudit/command.h"

#include "core/tasks/inspect.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct InspectArgs {
    std::string path;
    bool json = false;
    bool load = false;
};
} // namespace

void addInspectCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<InspectArgs>();
    CLI::App* sub = cli.add_subcommand(
        "inspect", "Describe a checkpoint: format, architecture, parameter count, dtypes, "
                   "tokenizer kind and vocabulary size");
    sub->add_option("PATH", a->path, "Hugging Face model folder or .gguf file")->required();
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    sub->add_flag("--load", a->load,
                  "Also load every weight in float32 and report load time and peak memory");
    onChosen(sub, chosen, a, [](const InspectArgs& o, const Invocation&) {
        const auto info = tasks::inspectCheckpoint(o.path, o.load);
        std::cout << (o.json ? info.dump(2) + "\n" : formatInspection(info));
        return 0;
    });
}

} // namespace probaudit::app
