// probaudit env [--json]: the environment fingerprint.
#include "command.h"
#include "env_text.h"

#include "engine/env_fingerprint.h"

#include <iostream>

namespace probaudit::app {

void addEnvCommand(CLI::App& cli, Action& chosen) {
    auto asJson = std::make_shared<bool>(false);
    CLI::App* sub = cli.add_subcommand(
        "env", "Print the environment fingerprint: libtorch and CUDA build, GPUs, CPU and ISA, "
               "threads, numerics-relevant variables, compiled kernels, engine version");
    sub->add_flag("--json", *asJson, "Machine-readable JSON");
    onChosen(sub, chosen, asJson, [](bool json, const Invocation&) {
        const nlohmann::json env = engine::collectEnvironment();
        std::cout << (json ? env.dump(2) + "\n" : formatEnvironment(env));
        return 0;
    });
}

} // namespace probaudit::app
