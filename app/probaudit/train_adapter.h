#pragma once
// `probaudit train-adapter MODEL --data FILE [--data FILE] -o ADAPTER.safetensors`: trains a
// decision adapter (multinomial logistic regression: softmax over the classes) on the pooled
// last hidden state of a frozen encoder, with libtorch, deterministic for a given seed:
// seeded train/validation split, full-batch Adam with L2 regularization, early stopping on
// the validation loss. Writes the adapter (weight [C, H], bias [C], pooling and labels in its
// metadata) and ADAPTER.card.json (data, seed, epochs, accuracies, calibration error). The
// pooled features are cached beside it (ADAPTER.features.safetensors), so a retrain with
// other training settings takes seconds.
#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::app {

struct TrainOptions {
    std::string model;
    std::vector<std::string> data; // JSONL or CSV files (text, label)
    std::string output;            // adapter .safetensors
    std::vector<std::string> labels{"negative", "positive"};
    std::string pooling = "mean";        // mean | cls | last
    std::string templateText = "{text}"; // the prompt the model reads, {text} the item's text
    bool normalize = true; // L2-normalize the pooled vector (sentence-transformers style)
    std::uint64_t seed = 1;
    double validation = 0.2; // share of the items held out
    double l2 = 1e-4;
    double lr = 0.05;
    int maxEpochs = 2000;
    int patience = 50;
    std::int64_t batch = 32; // feature extraction batch size
};

int trainAdapter(const TrainOptions& o);

} // namespace probaudit::app
