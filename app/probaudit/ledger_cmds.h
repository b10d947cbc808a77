#pragma once
// Reading a ledger: `probaudit runs LEDGER [--json]`, `probaudit export LEDGER --run ID
// --format csv|jsonl [--output FILE]`, `probaudit verify LEDGER [--json]`.
#include <string>

namespace probaudit::app {

int listRuns(const std::string& ledger, bool asJson);
int exportRun(const std::string& ledger, long long run, const std::string& format,
              const std::string& output);
int verifyLedger(const std::string& ledger, bool asJson);
int migrateLedger(const std::string& ledger);

} // namespace probaudit::app
