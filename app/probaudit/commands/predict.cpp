// probaudit predict MODEL --head HEAD --text T [--config JSON] [--json]
#include "app/probaudit/predict.h"
#include "app/probaudit/command.h"

#include "core/tasks/predict.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct PredictArgs {
    std::string model, head, text, config;
    bool json = false;
};
} // namespace

void addPredictCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<PredictArgs>();
    CLI::App* sub = cli.add_subcommand(
        "predict", "Run one input: class probabilities, decision, margin and per-layer norms");
    sub->add_option("MODEL", a->model, "Hugging Face model folder or .gguf file")->required();
    sub->add_option("--head", a->head,
                    "Decision head: JSON or a JSON file, e.g. "
                    "'{\"kind\":\"label_tokens\",\"template\":\"{text} Positive?\",\"labels\":[\" "
                    "No\",\" Yes\"]}'")
        ->required();
    sub->add_option("--text", a->text, "Input text (UTF-8)")->required();
    sub->add_option("--config", a->config, "Runtime configuration as JSON (defaults otherwise)");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const PredictArgs& o, const Invocation& inv) {
        tasks::ensureCpuCapability(o.config, inv.argc, inv.argv);
        const auto p = tasks::predict(o.model, o.head, o.text, o.config);
        std::cout << (o.json ? p.dump(2) + "\n" : formatPrediction(p));
        return 0;
    });
}

} // namespace probaudit::app
