// GPU, end to end: with kernels: batch_invariant on cuda:0, every item's probabilities and
// per-layer hashes are bit-identical across batch sizes, pad-to, padding side, shuffled order,
// in float32 and bfloat16 (fixtures, and the real models when .cache/models has them); the
// negative test that the default CUDA path changes bits over the same matrix; and float32
// accuracy against the reference (golden heads). Skips (exit 77) without a CUDA device.
#include "core/common/run_config.h"
#include "core/engine/engine.h"
#include "harness.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace probaudit;
using engine::Capture;
using engine::Engine;
using engine::HeadSpec;
using engine::Item;
using engine::ItemRecord;

namespace {

const std::string kSrc = PROBAUDIT_SOURCE_DIR;

nlohmann::json readJson(const std::string& path) {
    std::ifstream f(path);
    return nlohmann::json::parse(f);
}

std::vector<Item> items() {
    std::vector<Item> out;
    for (const auto& t : readJson(kSrc + "/tests/golden/forward_inputs.json")) {
        out.push_back(
            Item{"item-" + std::to_string(out.size()), t.get<std::string>(), std::nullopt});
    }
    return out;
}

std::string modelPath(const std::string& name) {
    if (name == "SmolLM2-135M-Instruct") {
        return kSrc + "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf";
    }
    if (name.rfind("tiny-", 0) == 0) {
        return kSrc + "/tests/fixtures/" + name;
    }
    return kSrc + "/.cache/models/" + name;
}

HeadSpec headFor(const std::string& name) {
    const auto heads = readJson(kSrc + "/tests/golden/heads.json");
    nlohmann::json h = heads.at(heads.contains(name) ? name : std::string("tiny-llama")).at("head");
    if (h.contains("path")) {
        h["path"] = kSrc + "/" + h["path"].get<std::string>();
    }
    return HeadSpec::parse(h.dump());
}

std::vector<std::pair<std::string, nlohmann::json>> matrix() {
    std::vector<std::pair<std::string, nlohmann::json>> m;
    for (int bs : {1, 2, 3, 8, 16, 32}) {
        m.push_back({"batch " + std::to_string(bs), {{"batch_size", bs}}});
    }
    for (int pad : {64, 128, 256}) {
        m.push_back({"pad " + std::to_string(pad),
                     {{"batch_size", 1}, {"pad_to", "multiple"}, {"pad_to_n", pad}}});
    }
    m.push_back({"batch 8 left", {{"batch_size", 8}, {"padding_side", "left"}}});
    m.push_back(
        {"batch 8 shuffled", {{"batch_size", 8}, {"order", "shuffled"}, {"order_seed", 7}}});
    m.push_back({"batch 32 left pad 256 shuffled",
                 {{"batch_size", 32},
                  {"padding_side", "left"},
                  {"pad_to", "multiple"},
                  {"pad_to_n", 256},
                  {"order", "shuffled"},
                  {"order_seed", 7}}});
    return m;
}

int changed(const std::vector<ItemRecord>& a, const std::vector<ItemRecord>& b) {
    int n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        n += (std::memcmp(a[i].head.probs.data(), b[i].head.probs.data(),
                          a[i].head.probs.size() * 4) != 0 ||
              std::memcmp(a[i].head.logits.data(), b[i].head.logits.data(),
                          a[i].head.logits.size() * 4) != 0 ||
              a[i].layer_hashes != b[i].layer_hashes)
                 ? 1
                 : 0;
    }
    return n;
}

// Configurations of the matrix that change some bit against the first.
int runMatrix(const std::string& name, const std::string& dtype, const std::string& kernels) {
    Engine eng(modelPath(name), headFor(name));
    const auto all = items();
    auto cfg = [&](nlohmann::json c) {
        c["device"] = "cuda:0";
        c["dtype"] = dtype;
        c["kernels"] = kernels;
        return RunConfig::fromJson(c);
    };
    const auto m = matrix();
    const auto ref = eng.run(all, cfg(m.front().second), Capture::Hashes);
    int differing = 0;
    for (std::size_t v = 1; v < m.size(); ++v) {
        const int c = changed(ref, eng.run(all, cfg(m[v].second), Capture::Hashes));
        if (c > 0) {
            std::printf("  %s %s %s: %s changes %d of %zu items\n", name.c_str(), dtype.c_str(),
                        kernels.c_str(), m[v].first.c_str(), c, all.size());
        }
        differing += c > 0 ? 1 : 0;
    }
    std::printf("  %s %s %s: %d of %zu configurations change bits\n", name.c_str(), dtype.c_str(),
                kernels.c_str(), differing, m.size() - 1);
    return differing;
}

std::vector<std::string> models() {
    std::vector<std::string> out{"tiny-bert", "tiny-llama", "tiny-qwen3"};
    for (const char* real : {"all-MiniLM-L6-v2", "SmolLM2-135M-Instruct"}) {
        if (std::filesystem::exists(modelPath(real))) {
            out.emplace_back(real);
        } else {
            std::printf("  (%s not in .cache/models: skipped)\n", real);
        }
    }
    return out;
}

} // namespace

GPU_CASE(invariantKernelsAreBatchInvariantOnTheGpu) {
    for (const auto& name : models()) {
        for (const char* dtype : {"float32", "bfloat16"}) {
            GPU_CHECK(runMatrix(name, dtype, "batch_invariant") == 0,
                      "%s %s: batch-invariant kernels changed bits", name.c_str(), dtype);
        }
    }
}

GPU_CASE(defaultCudaPathDiffers) {
    int differing = 0;
    for (const auto& name : models()) {
        for (const char* dtype : {"float32", "bfloat16"}) {
            differing += runMatrix(name, dtype, "default");
        }
    }
    GPU_CHECK(
        differing > 0,
        "the default CUDA kernels were invariant everywhere: the invariance test could not fail");
}

// How far the GPU's batch-invariant kernels are from the CPU's on the same items (the same
// canonical orders; only the transcendental functions' last bits may differ).
namespace {
void printAgainstCpu(Engine& eng, const std::vector<Item>& all, const std::string& name,
                     const std::vector<ItemRecord>& gpu) {
    const auto cpu =
        eng.run(all, RunConfig::fromJson({{"batch_size", 8}, {"kernels", "batch_invariant"}}),
                Capture::None);
    std::size_t same = 0;
    double worst = 0;
    for (std::size_t i = 0; i < gpu.size() && i < cpu.size(); ++i) {
        same += gpu[i].head.probs == cpu[i].head.probs;
        for (std::size_t c = 0; c < gpu[i].head.probs.size(); ++c) {
            worst = std::max(worst, std::abs(double(gpu[i].head.probs[c]) - cpu[i].head.probs[c]));
        }
    }
    std::printf(
        "  %s batch_invariant, cuda:0 vs cpu: %zu of %zu items bit-identical, max |dp| %.3g\n",
        name.c_str(), same, gpu.size(), worst);
}
} // namespace

GPU_CASE(invariantKernelsMatchTheReference) {
    const auto heads = readJson(kSrc + "/tests/golden/heads.json");
    for (const auto& name : models()) {
        if (!heads.contains(name)) {
            continue;
        }
        Engine eng(modelPath(name), headFor(name));
        const auto all = items();
        for (const char* kernels : {"default", "batch_invariant"}) {
            const auto recs =
                eng.run(all,
                        RunConfig::fromJson(
                            {{"device", "cuda:0"}, {"batch_size", 8}, {"kernels", kernels}}),
                        Capture::None);
            double worst = 0;
            for (std::size_t i = 0; i < recs.size(); ++i) {
                const auto& p = heads.at(name).at("probs").at(i);
                for (std::size_t c = 0; c < p.size(); ++c) {
                    worst = std::max(
                        worst, std::abs(double(recs[i].head.probs[c]) - p.at(c).get<double>()));
                }
            }
            std::printf("  %s %s on cuda:0: max |dp| vs reference %.3g\n", name.c_str(), kernels,
                        worst);
            if (std::strcmp(kernels, "batch_invariant") == 0) {
                printAgainstCpu(eng, all, name, recs);
            }
            // The default GPU path may use TF32-free cuBLAS but another summation order: same
            // tolerance.
            GPU_CHECK(worst <= 1e-5, "%s %s: max |dp| %g", name.c_str(), kernels, worst);
        }
    }
}

// Capture computes hashes (on the GPU) and vectors from the hidden states; it must not change
// what the run computes: the same probabilities and logits with capture none, hashes, vectors.
GPU_CASE(captureDoesNotChangeNumericsOnTheGpu) {
    for (const char* kernels : {"default", "batch_invariant"}) {
        Engine eng(modelPath("tiny-llama"), headFor("tiny-llama"));
        const auto all = items();
        const RunConfig c = RunConfig::fromJson(
            {{"device", "cuda:0"}, {"dtype", "bfloat16"}, {"batch_size", 8}, {"kernels", kernels}});
        const auto none = eng.run(all, c, Capture::None);
        const auto hashes = eng.run(all, c, Capture::Hashes);
        const auto vectors = eng.run(all, c, Capture::Vectors);
        int differing = 0;
        for (std::size_t i = 0; i < none.size(); ++i) {
            for (const auto* other : {&hashes[i], &vectors[i]}) {
                differing += (std::memcmp(none[i].head.probs.data(), other->head.probs.data(),
                                          none[i].head.probs.size() * 4) != 0 ||
                              std::memcmp(none[i].head.logits.data(), other->head.logits.data(),
                                          none[i].head.logits.size() * 4) != 0)
                                 ? 1
                                 : 0;
            }
            GPU_CHECK(hashes[i].layer_hashes == vectors[i].layer_hashes,
                      "%s: item %zu: hashes differ between capture levels", kernels, i);
            GPU_CHECK(!hashes[i].layer_hashes.empty(), "%s: no hashes captured", kernels);
        }
        GPU_CHECK(differing == 0, "%s: capture changed %d results", kernels, differing);
    }
}

// The kernel trace on CUDA names the device kernels that ran: switching the attention
// implementation changes them, and the batch-invariant run shows ProbAudit's own kernels.
GPU_CASE(traceRecordsDeviceKernels) {
    Engine eng(modelPath("tiny-llama"), headFor("tiny-llama"));
    const auto all = items();
    std::map<std::string, std::map<std::string, std::int64_t>> seen;
    for (const char* attention : {"math", "sdpa", "batch_invariant"}) {
        eng.run(all,
                RunConfig::fromJson(
                    {{"device", "cuda:0"}, {"batch_size", 8}, {"attention", attention}}),
                Capture::None);
        const nlohmann::json j = eng.lastTrace().toJson();
        GPU_CHECK(!j.contains("device_kernels_unavailable"), "%s: %s", attention,
                  j.value("device_kernels_unavailable", std::string()).c_str());
        seen[attention] = eng.lastTrace().deviceKernels();
        std::printf("  attention %s: %zu distinct device kernels, e.g.\n", attention,
                    seen[attention].size());
        int shown = 0;
        for (const auto& [name, n] : seen[attention]) {
            if (shown++ < 6) {
                std::printf("    %6ld  %.110s\n", long(n), name.c_str());
            }
        }
        GPU_CHECK(!seen[attention].empty(), "%s: no device kernels recorded", attention);
    }
    auto names = [&](const char* attention) {
        std::set<std::string> out;
        for (const auto& [name, n] : seen[attention]) {
            out.insert(name);
        }
        return out;
    };
    GPU_CHECK(names("math") != names("sdpa"),
              "math and sdpa attention ran the same set of device kernels");
    bool own = false;
    for (const auto& [name, n] : seen["batch_invariant"]) {
        own = own || name.find("attentionKernel") != std::string::npos;
    }
    GPU_CHECK(own, "the batch-invariant attention kernel is not in the device trace");
}

int main(int argc, char** argv) {
    return gpu_test::runAll(argc, argv);
}
