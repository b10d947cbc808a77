// Throughput of the default and the batch-invariant kernels on cuda:0, for both real models at
// batch 1, 8 and 32 in bfloat16 and float32 (scripts/gpu-check.sh prints it). Sides alternate
// (default, invariant, default, ...) after a warm-up; the median of --reps is reported with the
// ratio invariant / default. Both sides run without the device-kernel trace (the profiler);
// the last column is the default kernels' throughput with it, as a share of without: what the
// trace's evidence costs. Items: the demo's Yelp sentences.
//     gpu_bench [--reps 3] [--items 256]
#include "core/common/run_config.h"
#include "core/engine/engine.h"

#include <ATen/Context.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

using namespace probaudit;

namespace {

const std::string kSrc = PROBAUDIT_SOURCE_DIR;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    if (!at::hasCUDA()) {
        std::printf("SKIP: no CUDA device\n");
        return 0;
    }
    int reps = 3;
    std::size_t n = 256;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--reps") == 0) {
            reps = std::atoi(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--items") == 0) {
            n = std::size_t(std::atoi(argv[i + 1]));
        }
    }
    std::vector<engine::Item> items;
    std::ifstream in(kSrc + "/resources/demo/sentiment-sentences/yelp.jsonl");
    for (std::string line; items.size() < n && std::getline(in, line);) {
        const auto j = nlohmann::json::parse(line);
        items.push_back(engine::Item{std::to_string(items.size()), j.at("text").get<std::string>(),
                                     std::nullopt});
    }
    struct Model {
        const char* name;
        std::string path;
        nlohmann::json head;
        const char* padding;
    };
    const std::vector<Model> models = {
        {"all-MiniLM-L6-v2",
         kSrc + "/.cache/models/all-MiniLM-L6-v2",
         {{"kind", "adapter"},
          {"path", kSrc + "/tests/fixtures/adapters/all-MiniLM-L6-v2-mean.safetensors"}},
         "right"},
        {"SmolLM2-135M-Instruct",
         kSrc + "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf",
         {{"kind", "label_tokens"},
          {"template",
           "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\nReview: "
           "{text}<|im_end|>\n<|im_start|>assistant\n"},
          {"labels", {"No", "Yes"}}},
         "left"}};
    std::printf("%-24s %-9s %5s %14s %14s %8s %8s\n", "model", "dtype", "batch", "default it/s",
                "invariant it/s", "ratio", "traced");
    for (const auto& m : models) {
        if (!std::filesystem::exists(m.path)) {
            std::printf("%-24s not in .cache/models: skipped\n", m.name);
            continue;
        }
        engine::Engine eng(m.path, engine::HeadSpec::parse(m.head.dump()));
        for (const char* dtype : {"bfloat16", "float32"}) {
            for (int batch : {1, 8, 32}) {
                auto cfg = [&](const char* kernels) {
                    return RunConfig::fromJson({{"device", "cuda:0"},
                                                {"dtype", dtype},
                                                {"batch_size", batch},
                                                {"padding_side", m.padding},
                                                {"attention", "sdpa"},
                                                {"kernels", kernels}});
                };
                auto timed = [&](const char* kernels, bool traced = false) {
                    const auto c = cfg(kernels);
                    eng.prepare(c);
                    eng.setDeviceKernelTrace(traced);
                    const auto t0 = std::chrono::steady_clock::now();
                    eng.run(items, c, engine::Capture::None);
                    return double(items.size()) /
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                               .count();
                };
                timed("default"); // warm-up (loads the model, packs, autotunes)
                timed("batch_invariant");
                std::vector<double> d, v, ratio, traced;
                for (int r = 0; r < reps; ++r) {
                    d.push_back(timed("default"));
                    v.push_back(timed("batch_invariant"));
                    ratio.push_back(v.back() / d.back());
                    traced.push_back(timed("default", true) / d.back());
                }
                std::printf("%-24s %-9s %5d %14.1f %14.1f %7.2fx %7.2fx\n", m.name, dtype, batch,
                            median(d), median(v), median(ratio), median(traced));
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
