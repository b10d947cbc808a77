// probaudit-fault-engine: the real `probaudit` (same commands, same engine) with faults injected
// after committed batches, for the workbench's engine tests (test_runs). Environment:
//   PROBAUDIT_TEST_BATCH_DELAY_MS=M       each batch lasts M ms longer (so a tiny model runs
//                                         long enough to be cancelled mid-run)
//   PROBAUDIT_TEST_FAIL_AFTER_BATCHES=N   the run fails with an error after N batches
//   PROBAUDIT_TEST_CRASH_AFTER_BATCHES=N  the process aborts after N batches, as a crash would
// Either way every batch committed before stays in the ledger. Without them it is `probaudit`.
#include "app/probaudit/command.h"
#include "core/common/error.h"
#include "core/runner/study_session.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

long long envNumber(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? -1 : std::atoll(v);
}

} // namespace

int main(int argc, char** argv) {
    const long long delay = envNumber("PROBAUDIT_TEST_BATCH_DELAY_MS");
    const long long failAfter = envNumber("PROBAUDIT_TEST_FAIL_AFTER_BATCHES");
    const long long crashAfter = envNumber("PROBAUDIT_TEST_CRASH_AFTER_BATCHES");
    probaudit::runner::setBatchObserver([=](std::int64_t batches) {
        if (delay > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        }
        if (failAfter >= 0 && batches >= failAfter) {
            throw probaudit::Error("test failure after " + std::to_string(batches) + " batches");
        }
        if (crashAfter >= 0 && batches >= crashAfter) {
            std::abort();
        }
    });
    return probaudit::app::runCli(argc, argv);
}
