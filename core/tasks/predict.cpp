#include "core/tasks/predict.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/run_config.h"
#include "core/engine/engine.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>

namespace probaudit::tasks {

using nlohmann::json;

RunConfig configFromArg(const std::string& configJson) {
    if (configJson.empty()) {
        return RunConfig();
    }
    json j;
    try {
        j = parseJson(configJson);
    } catch (const JsonError& e) {
        throw Error("--config", e.what());
    }
    return RunConfig::fromJson(j);
}

json predict(const std::string& modelPath, const std::string& head, const std::string& text,
             const std::string& configJson) {
    const RunConfig config = configFromArg(configJson);
    engine::Engine eng(modelPath, engine::HeadSpec::parse(head));
    const auto records =
        eng.run({engine::Item{"input", text, std::nullopt}}, config, engine::Capture::Vectors);
    const engine::ItemRecord& r = records.at(0);
    json norms = json::array();
    for (const auto& v : r.layer_vectors) {
        double s = 0;
        for (float x : v) {
            s += double(x) * double(x);
        }
        norms.push_back(std::sqrt(s));
    }
    const auto& labels = eng.head().spec().labels;
    json classes = json::array();
    for (std::size_t c = 0; c < labels.size(); ++c) {
        json cls{
            {"label", labels[c]}, {"probability", r.head.probs[c]}, {"logit", r.head.logits[c]}};
        if (!r.head.exact_probs.empty()) { // a float64 run: the value before float32 rounding
            cls["probability_float64"] = r.head.exact_probs[c];
        }
        classes.push_back(cls);
    }
    return json{{"model", modelPath},
                {"head", eng.head().spec().toJson()},
                {"config", config.toJson()},
                {"config_hash", config.hash()},
                {"tokens", r.tokens},
                {"truncated", r.truncated},
                {"classes", classes},
                {"decision",
                 r.head.decision >= 0 ? json(labels[std::size_t(r.head.decision)]) : json(nullptr)},
                {"margin", r.head.nonfinite ? json(nullptr) : json(r.head.margin)},
                {"nonfinite", r.head.nonfinite},
                {"layer_norms", norms}};
}

void ensureCpuCapability(const std::string& configJson, int /*argc*/, char** argv) {
    if (configJson.empty()) {
        return;
    }
    const RunConfig c = configFromArg(configJson);
    if (c.cpu_capability == CpuCapability::Auto) {
        return;
    }
    const std::string wanted = nameString(c.cpu_capability);
    const char* current = std::getenv("ATEN_CPU_CAPABILITY");
    if (current != nullptr && wanted == current) {
        return;
    }
    if (std::getenv("PROBAUDIT_REEXEC") != nullptr) {
        throw Error("could not start the engine with ATEN_CPU_CAPABILITY=" + wanted);
    }
    setenv("ATEN_CPU_CAPABILITY", wanted.c_str(), 1);
    setenv("PROBAUDIT_REEXEC", "1", 1);
    execv("/proc/self/exe", argv);
    throw Error("could not re-execute the engine to set ATEN_CPU_CAPABILITY");
}

} // namespace probaudit::tasks
