// probaudit env [--json] [--engine ssh://user@host]: the environment fingerprint, here or of the
// engine on another host.
#include "command.h"
#include "env_text.h"

#include "engine/env_fingerprint.h"
#include "runner/remote_run.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct EnvArgs {
    bool json = false;
    std::string engine; // "" = here; ssh://user@host[:port]
    runner::RemoteOptions remote;
};
} // namespace

void addEnvCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<EnvArgs>();
    CLI::App* sub = cli.add_subcommand(
        "env", "Print the environment fingerprint: libtorch and CUDA build, GPUs, CPU and ISA, "
               "threads, numerics-relevant variables, compiled kernels, engine version");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    sub->add_option("--engine", a->engine,
                    "ssh://[user@]host[:port]: the fingerprint of the engine on that host");
    sub->add_option("--remote-probaudit", a->remote.probaudit,
                    "--engine ssh://: the probaudit on that host")
        ->capture_default_str();
    sub->add_option("--ssh-config", a->remote.sshConfig, "--engine ssh://: ssh -F FILE");
    onChosen(sub, chosen, a, [](const EnvArgs& o, const Invocation&) {
        if (!o.engine.empty()) {
            runner::RemoteOptions remote = o.remote;
            remote.target = runner::SshTarget::parse(o.engine);
            std::cout << runner::remoteEnvironment(remote, o.json);
            return 0;
        }
        const nlohmann::json env = engine::collectEnvironment();
        std::cout << (o.json ? env.dump(2) + "\n" : formatEnvironment(env));
        return 0;
    });
}

} // namespace probaudit::app
