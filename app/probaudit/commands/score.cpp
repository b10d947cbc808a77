// probaudit score MODEL --head HEAD --input ITEMS.jsonl [--config JSON] [--capture LEVEL] ...
#include "app/probaudit/score.h"
#include "app/probaudit/command.h"

#include "core/tasks/predict.h"
#include "core/tasks/score.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct ScoreCommandArgs {
    tasks::ScoreOptions score;
    bool json = false;
};
} // namespace

void addScoreCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ScoreCommandArgs>();
    tasks::ScoreOptions& s = a->score;
    CLI::App* sub = cli.add_subcommand(
        "score", "Run the engine over a JSONL file of items (text, label, id) without a study: "
                 "accuracy, decisions, throughput; optional per-item records");
    sub->add_option("MODEL", s.model, "Hugging Face model folder or .gguf file")->required();
    sub->add_option("--head", s.head, "Decision head: JSON or a JSON file")->required();
    sub->add_option("--input", s.input, "Items, one JSON object a line")->required();
    sub->add_option("--config", s.config, "Runtime configuration as JSON");
    sub->add_option("--capture", s.capture, "none | hashes | vectors | full");
    sub->add_option("--limit", s.limit, "Only the first N items");
    sub->add_option("--output", s.output, "Write per-item records (JSONL)");
    sub->add_option("--warmup", s.warmup, "Batches to run once, untimed, before the measured run");
    sub->add_option(
        "--repeat", s.repeat,
        "Time the pass this many times and report the fastest (all are listed in --json)");
    sub->add_flag("--gemm-time", s.gemmTime,
                  "Then one more pass with the time inside matrix multiplies measured (\"gemm\" "
                  "in --json: the share of a pass that is GEMM)");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const ScoreCommandArgs& o, const Invocation& inv) {
        tasks::ensureCpuCapability(o.score.config, inv.argc, inv.argv);
        const auto result = tasks::score(o.score);
        std::cout << (o.json ? result.dump(2) + "\n" : formatScore(result));
        return 0;
    });
}

} // namespace probaudit::app
