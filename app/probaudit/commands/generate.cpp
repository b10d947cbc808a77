// probaudit generate MODEL (--prompt TEXT ... | --input ITEMS.jsonl [--template T]) ...
#include "app/probaudit/command.h"
#include "app/probaudit/generate_cmd.h"

#include "core/tasks/generate.h"
#include "core/tasks/predict.h"

#include <iostream>

namespace probaudit::app {

using tasks::GenerateArgs;

namespace {
struct GenerateCommandArgs {
    GenerateArgs gen;
    bool json = false;
};
} // namespace

// The options generate and generation-probe share.
void addGenerationOptions(CLI::App* sub, GenerateArgs& g) {
    sub->add_option("MODEL", g.model, "Hugging Face model folder or .gguf file")->required();
    sub->add_option("--prompt", g.prompts, "A prompt, as the model reads it (repeatable)");
    sub->add_option("--input", g.input, "JSONL of {\"id\", \"text\"}, each wrapped by --template");
    sub->add_option("--template", g.templateText, "Prompt template with {text} (for --input)");
    sub->add_option("--max-new-tokens", g.maxNewTokens, "Most new tokens per prompt (default 32)")
        ->check(CLI::Range(1L, 100000L));
    sub->add_option("--stop", g.stop, "Stop string (repeatable): the text is cut before it");
    sub->add_flag("--no-eos", g.noEos, "Do not stop at the model's end-of-sequence tokens");
}

void addGenerateCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<GenerateCommandArgs>();
    CLI::App* sub = cli.add_subcommand(
        "generate", "Greedy generation (llama family, KV cache): new tokens, text, and every "
                    "step's logit and top-2 logit gap");
    addGenerationOptions(sub, a->gen);
    sub->add_option("--config", a->gen.config,
                    "Runtime configuration as JSON: batch_size batches the prompts statically "
                    "(left padding); concurrency C > 1 runs the serving simulation (continuous "
                    "batching, requests arriving in the order of arrival_seed)");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const GenerateCommandArgs& o, const Invocation& inv) {
        tasks::ensureCpuCapability(o.gen.config, inv.argc, inv.argv);
        const auto g = tasks::generate(o.gen);
        // A byte-level token can end inside a character: such bytes of "pieces" and "text"
        // become U+FFFD in JSON (the token ids stay exact).
        std::cout << (o.json
                          ? g.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                          : formatGeneration(g));
        return 0;
    });
}

} // namespace probaudit::app
