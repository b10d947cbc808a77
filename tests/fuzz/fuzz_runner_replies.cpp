// libFuzzer: the lines a transformers runner sends (core/pyrunner/runner_replies.h). The first
// byte picks what the line answers (ready, load, tokenize, forward with each capture, trace_stop,
// generate with and without alternatives); the rest is the line. Each is read as probaudit reads
// it: a refusal is one probaudit::Error, nothing else may be thrown, and what is accepted has
// the shape asked for (one record per row, one item per text, one generation per prompt).
#include "core/pyrunner/runner_replies.h"

#include "core/common/error.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace probaudit::runner;

namespace {

void check(bool ok) {
    if (!ok) {
        std::abort(); // accepted, but not the shape asked for
    }
}

void answer(std::uint8_t what, const std::string& line) {
    const std::string python = "python";
    if (what % 9 == 0) {
        (void)readReady(line, python);
        return;
    }
    const nlohmann::json r = replyResult(line, 7, "forward", python);
    switch (what % 9) {
    case 1:
        (void)loadedShape(r, python);
        break;
    case 2:
        check(tokenizedItems(r, 3, python).size() == 3);
        break;
    case 3:
    case 4:
    case 5: {
        const char* capture = what % 9 == 3 ? "none" : what % 9 == 4 ? "hashes" : "full";
        const auto records = forwardRecords(r, 2, 2, capture, python);
        check(records.size() == 2 && records[0].logits.size() == 2);
        break;
    }
    case 6:
        (void)runnerTrace(r, python);
        break;
    default: {
        const std::int64_t top = what % 9 == 7 ? 0 : 3;
        for (const auto& g : generations(r, 2, top, python)) {
            check(g.tokens.size() == g.logits.size() && g.logits.size() == g.gaps.size());
            check(g.top_tokens.size() == g.top_logprobs.size());
        }
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    try {
        answer(data[0], std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
    } catch (const probaudit::Error&) {
    }
    return 0;
}
