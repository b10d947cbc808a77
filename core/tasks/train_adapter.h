#pragma once
// `probaudit train-adapter MODEL --data FILE [--data FILE] -o ADAPTER.safetensors`: trains a
// decision adapter (multinomial logistic regression: softmax over the classes) on the pooled
// last hidden state of a frozen encoder, with libtorch, deterministic for a given seed:
// seeded train/validation split, full-batch Adam with L2 regularization, early stopping on
// the validation loss. Writes the adapter (weight [C, H], bias [C], pooling and labels in its
// metadata) and ADAPTER.card.json (data, seed, epochs, accuracies, calibration error). The
// pooled features are cached beside it (ADAPTER.features.safetensors), so a retrain with
// other training settings takes seconds. Nothing is printed: progress goes to a callback, the
// outcome is returned.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace probaudit::tasks {

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

// What a training gave (its card, ADAPTER.card.json, has all of it and more).
struct TrainResult {
    std::string adapter; // the file written
    std::int64_t trainItems = 0, validationItems = 0;
    int bestEpoch = 0;
    double validationAccuracy = 0;
    double calibrationError = 0; // on the validation items (0 without any)
    bool cachedFeatures = false; // the pooled features came from the cache
};

// One sentence on what the training is doing now ("extracting pooled features of N items...").
using TrainProgress = std::function<void(const std::string&)>;

// Throws probaudit::Error on bad input.
TrainResult trainAdapter(const TrainOptions& o, const TrainProgress& progress = {});

} // namespace probaudit::tasks
