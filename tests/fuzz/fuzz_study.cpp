// libFuzzer: study files are read as `probaudit run` reads them (comments allowed, duplicate
// keys refused, every problem collected) and either validate or are refused with
// probaudit::Error; a valid one is written back out as a ledger stores it. Relative paths
// resolve against the repository's test fixtures, so seeds naming the tiny models reach the
// model and head checks.
#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/study/study.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto j = probaudit::parseCommentedJson(
            std::string_view(reinterpret_cast<const char*>(data), size));
        std::vector<std::string> errors;
        const auto study = probaudit::study::Study::fromJson(j, PROBAUDIT_FUZZ_FIXTURES, errors);
        if (errors.empty()) {
            (void)study.resolvedJson().dump();
        }
    } catch (const probaudit::Error&) {
    }
    return 0;
}
