// probaudit check runtime.lock.json [--study S] [--json]: exit 0 identical, 3 the environment
// differs, 4 the results differ.
#include "app/probaudit/command.h"
#include "app/probaudit/pin.h"

#include "core/tasks/predict.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct CheckArgs {
    tasks::CheckOptions check;
    bool json = false;
};
} // namespace

void addCheckCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<CheckArgs>();
    CLI::App* sub =
        cli.add_subcommand("check", "Compare this runtime with a lock: exit 0 identical, 3 the "
                                    "environment differs, 4 results differ");
    sub->add_option("LOCK", a->check.lock, "runtime.lock.json")->required();
    sub->add_option("--study", a->check.study,
                    "Also rerun the lock's sample with this study's model");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const CheckArgs& o, const Invocation& inv) {
        tasks::ensureCpuCapability(tasks::lockedConfigJson(o.check.lock), inv.argc, inv.argv);
        const tasks::CheckResult c = tasks::checkLock(o.check);
        std::cout << formatCheck(c, o.check.lock, o.json);
        return c.exit;
    });
}

} // namespace probaudit::app
