#include "inspect.h"

#include "common/error.h"
#include "engine/model_loader.h"
#include "model/checkpoint.h"
#include "tokenizer/unicode.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

namespace probaudit::app {

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

std::string formatInspection(const json& info) {
    std::ostringstream o;
    const auto& h = info.at("hyperparameters");
    o << "Path           " << info.at("path").get<std::string>() << "\n";
    o << "Format         " << info.at("format").get<std::string>() << " ("
      << info.at("files").get<std::size_t>() << " file(s), "
      << info.at("tensors").get<std::size_t>() << " tensors)\n";
    o << "Architecture   " << info.at("model_type").get<std::string>();
    for (const auto& a : info.at("architectures")) {
        o << " / " << a.get<std::string>();
    }
    o << "\n";
    o << "Parameters     " << info.at("parameters").get<std::int64_t>() << "\n";
    o << "Stored types  ";
    for (const auto& [d, n] : info.at("dtypes").items()) {
        o << " " << d << " x" << n.get<std::int64_t>();
    }
    o << "\n";
    o << "Layers         " << h.at("layers").get<std::int64_t>() << ", hidden "
      << h.at("hidden_size").get<std::int64_t>() << ", heads " << h.at("heads").get<std::int64_t>()
      << " (kv " << h.at("kv_heads").get<std::int64_t>() << ", dim "
      << h.at("head_dim").get<std::int64_t>() << "), ffn "
      << h.at("intermediate_size").get<std::int64_t>() << ", "
      << h.at("activation").get<std::string>() << "\n";
    o << "Tokenizer      " << info.at("tokenizer").at("kind").get<std::string>() << ", vocabulary "
      << info.at("tokenizer").at("vocab_size").get<std::size_t>() << ", "
      << info.at("tokenizer").at("special_tokens_added").get<std::size_t>()
      << " special token(s) added per input\n";
    if (!info.at("ignored_config_fields").empty()) {
        o << "Warning        config fields not used by the engine:";
        for (const auto& f : info.at("ignored_config_fields")) {
            o << " " << f.get<std::string>();
        }
        o << "\n";
    }
    if (info.contains("load")) {
        const auto& l = info.at("load");
        char buf[160];
        std::snprintf(
            buf, sizeof buf,
            "Load (float32) %.2f s, weights %.0f MiB; peak memory %.0f MiB, of which "
            "%.0f MiB for the model (%.2fx the weights)\n",
            l.at("seconds").get<double>(), l.at("float32_weight_mib").get<double>(),
            l.at("peak_rss_mib").get<double>(), l.at("peak_rss_increase_mib").get<double>(),
            l.at("peak_rss_increase_mib").get<double>() / l.at("float32_weight_mib").get<double>());
        o << buf;
    }
    return o.str();
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

std::string formatTokens(const json& t) {
    std::ostringstream o;
    o << t.at("count").get<std::size_t>() << " tokens\n";
    const auto& ids = t.at("ids");
    const auto& pieces = t.at("pieces");
    for (std::size_t i = 0; i < ids.size(); ++i) {
        o << ids[i].get<std::int32_t>() << "\t" << json(pieces[i].get<std::string>()).dump()
          << "\n";
    }
    return o.str();
}

} // namespace probaudit::app
