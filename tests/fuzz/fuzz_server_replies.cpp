// libFuzzer: a model server's reply body (core/endpoint/openai_api.h, label_decision.h) as the
// endpoint client reads it: a completion of either API, the label decision from its first
// token's alternatives, a model list, the server's own words for an error message and a
// snippet. A refusal is one ReplyError; nothing else may be thrown, and what is accepted holds
// together (log-probabilities at most 0, probabilities that sum to 1 or are missing).
#include "core/endpoint/label_decision.h"
#include "core/endpoint/openai_api.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace probaudit::endpoint;

namespace {

void check(bool ok) {
    if (!ok) {
        std::abort();
    }
}

void read(std::uint8_t how, std::string_view body) {
    const std::string api = how % 2 == 0 ? "completions" : "chat";
    try {
        const Completion c = parseCompletion(body, api);
        for (const Step& s : c.steps) {
            check(!s.logprob || *s.logprob <= 0);
        }
        if (!c.steps.empty()) {
            const LabelDecision d = decideLabels(c.steps.front(), {"Yes", "No", " yes"});
            double sum = 0;
            for (double p : d.probs) {
                sum += std::isnan(p) ? 0 : p;
            }
            check(d.decision < 0 || std::fabs(sum - 1) < 1e-6);
            (void)splitLabel(c.steps.front(), {"Yes", "No"});
        }
    } catch (const ReplyError&) {
    }
    try {
        (void)parseModelList(body);
    } catch (const ReplyError&) {
    }
    check(serverMessage(body).size() <= 4 * 203);
    check(snippet(body).size() <= 4 * 123);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    read(data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    return 0;
}
