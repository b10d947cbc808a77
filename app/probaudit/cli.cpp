// The command line of `probaudit` (Qt-free): each subcommand lives in commands/ and registers
// its own options and action (command.h); this file lists them and runs the chosen one.
#include "app/probaudit/command.h"

#include "core/common/build_info.h"
#include "core/common/error.h"
#include "core/common/protocol.h"

#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <malloc.h>

namespace probaudit::app {

namespace {
std::atomic<bool> g_stop{false};

extern "C" void onStopSignal(int sig) {
    if (g_stop.exchange(true)) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
}
} // namespace

const std::atomic<bool>& stopOnSignals() {
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    return g_stop;
}

int runCli(int argc, char** argv) {
    // A forward pass allocates and frees large tensors by the thousand. By default glibc hands
    // big freed blocks back to the kernel (mmap threshold, heap trimming) and the next batch
    // faults them in again, zero-filled: measured on SmolLM2 at batch 8, 3.3 million page
    // faults and ~7 s of system time per 30 s run. Keeping freed memory in the heap removes
    // that; numerics are untouched. MALLOC_MMAP_THRESHOLD_/MALLOC_TRIM_THRESHOLD_ still win.
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
        mallopt(M_MMAP_THRESHOLD, 512 << 20);
    }
    if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) {
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
    }
    CLI::App cli{"ProbAudit: do decisions and decision probabilities reproduce across runtime "
                 "configurations?",
                 "probaudit"};
    cli.set_version_flag("--version", std::string("probaudit ") + engineVersion() + " (commit " +
                                          gitCommit() + (gitDirty() ? ", modified" : "") + ")");
    cli.require_subcommand(0, 1);
    Action chosen;
    for (auto add : {addEnvCommand,
                     addInspectCommand,
                     addTokenizeCommand,
                     addPredictCommand,
                     addGenerateCommand,
                     addGenerationProbeCommand,
                     addScoreCommand,
                     addRunCommand,
                     addRunsCommand,
                     addExportCommand,
                     addVerifyCommand,
                     addHeadCommand,
                     addKeygenCommand,
                     addSignCommand,
                     addCompareCommand,
                     addSummaryCommand,
                     addReportCommand,
                     addBundleCommand,
                     addImportCommand,
                     addDiagnoseCommand,
                     addLocalizeCommand,
                     addPinCommand,
                     addCheckCommand,
                     addGateCommand,
                     addVerifyAttestationCommand,
                     addCardCommand,
                     addReproduceCommand,
                     addTrainAdapterCommand,
                     addMigrateCommand,
                     addEngineCommand,
                     addMergeCommand,
                     addSweepCommand,
                     addSnapshotCommand}) {
        add(cli, chosen);
    }
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    }
    if (!chosen) {
        std::cout << cli.help();
        return 0;
    }
    try {
        return chosen(Invocation{argc, argv});
    } catch (const std::exception& e) {
        // Messages quote outside text (file names, servers' and runners' words): no control
        // character but the line breaks of multi-line messages reaches the terminal.
        std::cerr << "probaudit: error: " << escapeControls(e.what(), "\n") << "\n";
        return protocol::kExitError;
    }
}

} // namespace probaudit::app
