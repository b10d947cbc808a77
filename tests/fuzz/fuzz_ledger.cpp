// libFuzzer: ledger files opened read-only, as `verify`, `summary` and the workbench open them:
// the file is refused with probaudit::Error (not SQLite, not a ledger, another schema, a row
// that cannot be read) or read through: the chain verified, every run's records and outputs
// read, the review loaded. Any other exception, a crash or a hang is a finding.
#include "core/analysis/review.h"
#include "core/common/error.h"
#include "core/ledger/ledger.h"
#include "core/ledger/trust.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = "/tmp/probaudit-fuzz-ledger-" + std::to_string(getpid()) + ".ledger";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
        return 0;
    }
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        const probaudit::ledger::Ledger led(path, probaudit::ledger::Ledger::Mode::Read);
        (void)probaudit::ledger::assessTrust(led);
        for (const auto& run : led.runs()) {
            (void)led.records(run.id, true);
            (void)led.generations(run.id);
        }
        (void)probaudit::analysis::loadReview(path);
    } catch (const probaudit::Error&) {
    }
    std::remove(path.c_str());
    return 0;
}
