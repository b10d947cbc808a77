// probaudit: the command-line interface and headless engine (Qt-free).
#include "env_text.h"
#include "inspect.h"

#include "common/build_info.h"
#include "common/error.h"
#include "engine/env_fingerprint.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

namespace {

constexpr int kExitError = 1;

int runEnv(bool asJson) {
    const nlohmann::json env = probaudit::engine::collectEnvironment();
    if (asJson) {
        std::cout << env.dump(2) << "\n";
    } else {
        std::cout << probaudit::app::formatEnvironment(env);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"ProbAudit: do decisions and decision probabilities reproduce across runtime "
                 "configurations?",
                 "probaudit"};
    app.set_version_flag("--version",
                         std::string("probaudit ") + probaudit::engineVersion() + " (commit " +
                             probaudit::gitCommit() + (probaudit::gitDirty() ? ", modified" : "") +
                             ")");
    app.require_subcommand(0, 1);

    bool envJson = false;
    CLI::App* env = app.add_subcommand(
        "env", "Print the environment fingerprint: libtorch and CUDA build, GPUs, CPU and ISA, "
               "threads, numerics-relevant variables, compiled kernels, engine version");
    env->add_flag("--json", envJson, "Machine-readable JSON");

    bool inspectJson = false;
    std::string inspectPath;
    CLI::App* inspect = app.add_subcommand(
        "inspect", "Describe a checkpoint: format, architecture, parameter count, dtypes, "
                   "tokenizer kind and vocabulary size");
    inspect->add_option("PATH", inspectPath, "Hugging Face model folder")->required();
    inspect->add_flag("--json", inspectJson, "Machine-readable JSON");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }

    try {
        if (env->parsed()) {
            return runEnv(envJson);
        }
        if (inspect->parsed()) {
            const auto info = probaudit::app::inspectCheckpoint(inspectPath);
            std::cout << (inspectJson ? info.dump(2) + "\n"
                                      : probaudit::app::formatInspection(info));
            return 0;
        }
        std::cout << app.help();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "probaudit: error: " << e.what() << "\n";
        return kExitError;
    }
}
