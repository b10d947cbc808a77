// probaudit env [--json] [--engine ssh://user@host]: the environment fingerprint, here or of the
// engine on another host.
#include "app/probaudit/command.h"
#include "app/probaudit/env_text.h"
#include "app/probaudit/remote_engine.h"

#include "core/tasks/environment.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct EnvArgs {
    bool json = false;
    EngineArgs engine;
};
} // namespace

void addEnvCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<EnvArgs>();
    CLI::App* sub = cli.add_subcommand(
        "env", "Print the environment fingerprint: libtorch and CUDA build, GPUs, CPU and ISA, "
               "threads, numerics-relevant variables, compiled kernels, engine version");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    addEngineOptions(sub, a->engine, "the fingerprint of the engine on that host", false);
    onChosen(sub, chosen, a, [](const EnvArgs& o, const Invocation&) {
        if (o.engine.remoteEngine()) {
            std::cout << runner::remoteEnvironment(o.engine.target(), o.json);
            return 0;
        }
        const nlohmann::json env = tasks::currentEnvironment();
        std::cout << (o.json ? env.dump(2) + "\n" : formatEnvironment(env));
        return 0;
    });
}

} // namespace probaudit::app
