// probaudit pin STUDY --run ID -o runtime.lock.json [--ledger L] [--sample K]
#include "app/probaudit/pin.h"
#include "app/probaudit/command.h"

#include <iostream>

namespace probaudit::app {

void addPinCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<tasks::PinOptions>();
    CLI::App* sub = cli.add_subcommand("pin", "Pin a verified run: its environment fingerprint, "
                                              "config, head, records digest and a rerun sample");
    sub->add_option("STUDY", a->study, "Study file")->required();
    sub->add_option("--run", a->run, "Run id (a finished study run)")->required();
    sub->add_option("-o,--output", a->output, "Lock file to write, e.g. runtime.lock.json")
        ->required();
    sub->add_option("--ledger", a->ledger, "Ledger file (default: next to the study)");
    sub->add_option("--sample", a->sample,
                    "Items rerun and stored with exact results (default 32)");
    onChosen(sub, chosen, a, [](const tasks::PinOptions& o, const Invocation&) {
        std::cout << formatPin(tasks::pinRun(o));
        return 0;
    });
}

} // namespace probaudit::app
