#pragma once
// The subcommands of `probaudit`: one file each under commands/, each registering its options
// on the CLI11 app and the action that runs when the command line chooses it. main.cpp lists
// them in the order `probaudit --help` shows them. Product logic lives in core/; these files
// read options and present results.
#include <CLI/CLI.hpp>

#include <atomic>
#include <functional>
#include <memory>

namespace probaudit::app {

// The process's own command line: a command may re-execute itself with another
// ATEN_CPU_CAPABILITY (libtorch reads it once, at start).
struct Invocation {
    int argc = 0;
    char** argv = nullptr;
};

using Action = std::function<int(const Invocation&)>;

// When `sub` is parsed, `chosen` becomes `run(options, invocation)` over the options that the
// subcommand's flags were bound to.
template <typename Options, typename Run>
void onChosen(CLI::App* sub, Action& chosen, const std::shared_ptr<Options>& options, Run run) {
    sub->callback([&chosen, options, run] {
        chosen = [options, run](const Invocation& inv) { return run(*options, inv); };
    });
}

// Installs SIGINT/SIGTERM handlers and returns the flag they raise: the current batch is
// finished and committed, the run marked interrupted, exit 130. A second signal ends the
// process at once (the ledger keeps every committed batch).
const std::atomic<bool>& stopOnSignals();

// Parses the command line, runs the chosen subcommand and returns the exit code
// (common/protocol.h); errors are one line on stderr.
int runCli(int argc, char** argv);

void addEnvCommand(CLI::App& cli, Action& chosen);
void addInspectCommand(CLI::App& cli, Action& chosen);
void addTokenizeCommand(CLI::App& cli, Action& chosen);
void addPredictCommand(CLI::App& cli, Action& chosen);
void addGenerateCommand(CLI::App& cli, Action& chosen);
void addGenerationProbeCommand(CLI::App& cli, Action& chosen);
void addScoreCommand(CLI::App& cli, Action& chosen);
void addRunCommand(CLI::App& cli, Action& chosen);
void addRunsCommand(CLI::App& cli, Action& chosen);
void addExportCommand(CLI::App& cli, Action& chosen);
void addVerifyCommand(CLI::App& cli, Action& chosen);
void addMergeCommand(CLI::App& cli, Action& chosen);
void addSweepCommand(CLI::App& cli, Action& chosen);
void addSnapshotCommand(CLI::App& cli, Action& chosen);
void addHeadCommand(CLI::App& cli, Action& chosen);
void addKeygenCommand(CLI::App& cli, Action& chosen);
void addSignCommand(CLI::App& cli, Action& chosen);
void addCompareCommand(CLI::App& cli, Action& chosen);
void addSummaryCommand(CLI::App& cli, Action& chosen);
void addReportCommand(CLI::App& cli, Action& chosen);
void addBundleCommand(CLI::App& cli, Action& chosen);
void addImportCommand(CLI::App& cli, Action& chosen);
void addDiagnoseCommand(CLI::App& cli, Action& chosen);
void addLocalizeCommand(CLI::App& cli, Action& chosen);
void addPinCommand(CLI::App& cli, Action& chosen);
void addCheckCommand(CLI::App& cli, Action& chosen);
void addGateCommand(CLI::App& cli, Action& chosen);
void addCardCommand(CLI::App& cli, Action& chosen);
void addReproduceCommand(CLI::App& cli, Action& chosen);
void addVerifyAttestationCommand(CLI::App& cli, Action& chosen);
void addTrainAdapterCommand(CLI::App& cli, Action& chosen);
void addMigrateCommand(CLI::App& cli, Action& chosen);
void addEngineCommand(CLI::App& cli, Action& chosen);

} // namespace probaudit::app
