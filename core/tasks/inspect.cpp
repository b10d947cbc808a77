#include "core/tasks/inspect.h"

#include "core/common/error.h"
#include "core/engine/model_loader.h"
#include "core/model/checkpoint.h"
#include "core/tokenizer/unicode.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include <chrono>
#include <fstream>
#include <map>

namespace probaudit::tasks {

using nlohmann::json;

namespace {

json hyperparameters(const model::ModelSpec& spec) {
    return {{"layers", spec.num_layers},
            {"hidden_size", spec.hidden_size},
            {"intermediate_size", spec.intermediate_size},
            {"heads", spec.num_heads},
            {"kv_heads", spec.num_kv_heads},
            {"head_dim", spec.head_dim},
            {"vocab_size", spec.vocab_size},
            {"max_positions", spec.max_positions},
            {"norm_eps", spec.norm_eps},
            {"activation", spec.activation},
            {"rope_theta", spec.rope_theta},
            {"rope_scaling", spec.rope.type},
            {"tied_embeddings", spec.tie_word_embeddings},
            {"attention_bias", spec.attention_bias},
            {"qk_norm", spec.qk_norm}};
}

// Resident memory now (MiB), from /proc/self/statm.
double currentRssMiB() {
    long pages = 0;
    long resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) {
            resident = 0;
        }
        std::fclose(f);
    }
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0; // Linux reports KiB
}

} // namespace

json inspectCheckpoint(const std::string& path, bool load) {
    // What the process (libtorch and its CUDA libraries) holds before the model is touched.
    const double baselineMiB = currentRssMiB();
    const auto t0 = std::chrono::steady_clock::now();
    const model::Checkpoint ckpt = model::Checkpoint::open(path);
    const tokenizer::Tokenizer tok = ckpt.loadTokenizer();
    std::map<std::string, std::int64_t> dtypes; // stored type -> number of tensors
    std::size_t tensors = 0;
    std::size_t files = 1;
    std::string format;
    if (const auto* g = ckpt.gguf()) {
        format = "gguf v" + std::to_string(g->header().version);
        for (const auto& t : g->header().tensors) {
            ++dtypes[model::ggmlTypeName(t.type)];
        }
        tensors = g->header().tensors.size();
    } else {
        format = "safetensors";
        for (const auto& [name, entry] : ckpt.safetensors()->tensors()) {
            ++dtypes[model::dtypeName(entry.info->dtype)];
        }
        tensors = ckpt.safetensors()->tensors().size();
        files = ckpt.safetensors()->files().size();
    }
    const auto& spec = ckpt.spec();
    json info;
    info["path"] = path;
    info["format"] = format;
    info["files"] = files;
    info["tensors"] = tensors;
    info["parameters"] = ckpt.parameterCount();
    info["dtypes"] = dtypes;
    info["model_type"] = spec.model_type;
    info["architectures"] = spec.architectures;
    info["hyperparameters"] = hyperparameters(spec);
    info["tokenizer"] = {{"kind", tok.kind()},
                         {"vocab_size", tok.vocabSize()},
                         {"special_tokens_added", tok.specialTokenCount()}};
    info["ignored_config_fields"] = spec.ignored_fields;
    if (load) {
        const auto weights = engine::loadWeights(ckpt, at::kFloat);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::int64_t bytes = 0;
        for (const auto& [name, t] : weights.tensors) {
            bytes += static_cast<std::int64_t>(t.nbytes());
        }
        info["load"] = {{"seconds", seconds},
                        {"float32_weight_mib", double(bytes) / (1024.0 * 1024.0)},
                        {"peak_rss_mib", peakRssMiB()},
                        {"baseline_rss_mib", baselineMiB},
                        {"peak_rss_increase_mib", peakRssMiB() - baselineMiB}};
    }
    return info;
}

json tokenizeText(const std::string& path, const std::string& text, bool addSpecial,
                  std::size_t maxLength) {
    const model::Checkpoint ckpt = model::Checkpoint::open(path);
    const tokenizer::Tokenizer tok = ckpt.loadTokenizer();
    const auto enc = tok.encode(text, addSpecial, maxLength);
    json pieces = json::array();
    for (auto id : enc.ids) {
        pieces.push_back(tok.token(id));
    }
    return {{"ids", enc.ids},
            {"pieces", pieces},
            {"count", enc.ids.size()},
            {"truncated", enc.truncated},
            {"full_length", enc.full_length}};
}

std::string readUtf8File(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (const auto bad = tokenizer::findInvalidUtf8(text); bad != std::string::npos) {
        throw Error(path, "not valid UTF-8 at byte " + std::to_string(bad));
    }
    return text;
}

} // namespace probaudit::tasks
