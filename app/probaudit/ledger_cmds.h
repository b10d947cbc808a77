#pragma once
// Reading a ledger: `probaudit runs LEDGER [--json]`, `probaudit export LEDGER --run ID
// --format csv|jsonl [--output FILE]`, `probaudit verify LEDGER [--json]`.
#include <string>
#include <vector>

namespace probaudit::app {

int listRuns(const std::string& ledger, bool asJson);
int exportRun(const std::string& ledger, long long run, const std::string& format,
              const std::string& output);
int verifyLedger(const std::string& ledger, bool asJson);
int migrateLedger(const std::string& ledger);
// Runs a helper executable that lives next to `probaudit` (such as the Qt-based report writer),
// waits for it and returns its exit code. Throws probaudit::Error when it is missing.
// `quiet`: its standard output goes to /dev/null (its errors still reach the terminal).
int runSibling(const std::string& name, const std::vector<std::string>& args, bool quiet = false);

} // namespace probaudit::app
