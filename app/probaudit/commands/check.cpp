// probaudit check runtime.lock.json [--study S] [--json]: exit 0 identical, 3 the environment
// differs, 4 the results differ.
#include "command.h"
#include "pin.h"
#include "predict.h"

namespace probaudit::app {

void addCheckCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<CheckOptions>();
    CLI::App* sub =
        cli.add_subcommand("check", "Compare this runtime with a lock: exit 0 identical, 3 the "
                                    "environment differs, 4 results differ");
    sub->add_option("LOCK", a->lock, "runtime.lock.json")->required();
    sub->add_option("--study", a->study, "Also rerun the lock's sample with this study's model");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const CheckOptions& o, const Invocation& inv) {
        ensureCpuCapability(lockedConfigJson(o.lock), inv.argc, inv.argv);
        return checkLock(o);
    });
}

} // namespace probaudit::app
