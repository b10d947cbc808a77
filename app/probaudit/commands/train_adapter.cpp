// probaudit train-adapter MODEL --data FILE -o ADAPTER.safetensors [--seed S] [--pooling P] ...
#include "app/probaudit/command.h"

#include "core/tasks/train_adapter.h"

#include <iostream>

namespace probaudit::app {

using tasks::TrainOptions;

void addTrainAdapterCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<TrainOptions>();
    CLI::App* sub = cli.add_subcommand(
        "train-adapter",
        "Train a decision adapter (softmax regression on pooled hidden states of a frozen "
        "encoder), deterministic for a seed; writes the adapter and its card");
    sub->add_option("MODEL", a->model, "Hugging Face model folder or .gguf file")->required();
    sub->add_option("--data", a->data, "Labelled items, JSONL or CSV (repeatable)")->required();
    sub->add_option("-o,--output", a->output, "Adapter file to write (.safetensors)")->required();
    sub->add_option("--labels", a->labels,
                    "Class names, in class-index order (default negative positive)");
    sub->add_option("--pooling", a->pooling, "mean | cls | last (default mean)")
        ->check(CLI::IsMember({"mean", "cls", "last"}));
    sub->add_option("--template", a->templateText,
                    "Prompt the model reads, with {text} for the item's text (default {text}); "
                    "the study's adapter head must give the same")
        ->check([](const std::string& t) {
            return t.find("{text}") == std::string::npos ? std::string("the template has no {text}")
                                                         : std::string();
        });
    sub->add_option("--batch", a->batch,
                    "Feature extraction batch size (default 32; right padding, all threads)")
        ->check(CLI::Range(1, 4096));
    sub->add_option("--seed", a->seed, "Seed of the train/validation split (default 1)");
    sub->add_option("--validation", a->validation,
                    "Share held out for early stopping (default 0.2)");
    sub->add_option("--l2", a->l2, "L2 regularization of the weights (default 1e-4)");
    sub->add_option("--lr", a->lr, "Adam learning rate (default 0.05)");
    sub->add_option("--max-epochs", a->maxEpochs, "Full-batch epochs at most (default 2000)");
    sub->add_option("--patience", a->patience,
                    "Stop after this many epochs without a better validation loss");
    onChosen(sub, chosen, a, [](const TrainOptions& o, const Invocation&) {
        const tasks::TrainResult r = tasks::trainAdapter(
            o, [](const std::string& message) { std::cerr << message << std::endl; });
        std::cout << "adapter " << r.adapter << ": " << r.trainItems << " training items, "
                  << r.validationItems << " held out; best epoch " << r.bestEpoch
                  << "; validation accuracy " << r.validationAccuracy << ", calibration error "
                  << r.calibrationError << (r.cachedFeatures ? " (cached features)" : "") << "\n";
        return 0;
    });
}

} // namespace probaudit::app
