#include "inspect.h"

#include "common/error.h"
#include "model/gguf_llama.h"
#include "model/model_spec.h"
#include "model/safetensors.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace probaudit::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json tokenizerSummary(const fs::path& dir) {
    const fs::path p = dir / "tokenizer.json";
    if (!fs::exists(p)) {
        return json{{"kind", "none"}, {"vocab_size", 0}};
    }
    std::ifstream in(p, std::ios::binary);
    json t;
    try {
        t = json::parse(in);
    } catch (const json::exception& e) {
        throw Error(p.string(), std::string("invalid JSON: ") + e.what());
    }
    if (!t.is_object() || !t.contains("model") || !t["model"].is_object()) {
        throw Error(p.string(), "no \"model\" object");
    }
    const json& m = t["model"];
    const std::string kind = m.value("type", "");
    std::size_t vocab = m.contains("vocab") && (m["vocab"].is_object() || m["vocab"].is_array())
                            ? m["vocab"].size()
                            : 0;
    std::size_t added = 0;
    if (t.contains("added_tokens") && t["added_tokens"].is_array()) {
        for (const auto& a : t["added_tokens"]) {
            if (a.is_object() && a.contains("content") && m.contains("vocab") &&
                m["vocab"].is_object() && !m["vocab"].contains(a["content"].get<std::string>())) {
                ++added;
            }
        }
    }
    return json{{"kind", kind}, {"vocab_size", vocab + added}};
}

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

json inspectGguf(const std::string& path) {
    const model::GgufFile f(path);
    const model::ModelSpec spec = model::ggufLlamaSpec(f);
    std::int64_t params = 0;
    std::map<std::string, std::int64_t> types;
    for (const auto& t : f.header().tensors) {
        params += t.numel();
        ++types[model::ggmlTypeName(t.type)];
    }
    json info;
    info["path"] = path;
    info["format"] = "gguf v" + std::to_string(f.header().version);
    info["files"] = 1;
    info["tensors"] = f.header().tensors.size();
    info["parameters"] = params;
    info["dtypes"] = types;
    info["model_type"] = spec.model_type;
    info["architectures"] = spec.architectures;
    info["hyperparameters"] = hyperparameters(spec);
    const std::string kind = f.has("tokenizer.ggml.model") ? f.getString("tokenizer.ggml.model") : "none";
    const std::size_t vocab =
        f.has("tokenizer.ggml.tokens") ? f.getStringArray("tokenizer.ggml.tokens").size() : 0;
    info["tokenizer"] = {{"kind", kind == "gpt2" ? "BPE (byte-level, gguf \"gpt2\")" : kind},
                         {"vocab_size", vocab}};
    info["ignored_config_fields"] = json::array();
    return info;
}

} // namespace

json inspectCheckpoint(const std::string& path) {
    const fs::path p(path);
    if (!fs::exists(p)) {
        throw Error(path, "no such file or directory");
    }
    if (fs::is_regular_file(p) && p.extension() == ".gguf") {
        return inspectGguf(path);
    }
    if (!fs::is_directory(p)) {
        throw Error(path, "not a checkpoint (expected a Hugging Face folder with config.json "
                          "and safetensors files, or a .gguf file)");
    }
    const model::ModelSpec spec = model::loadHfConfig((p / "config.json").string());
    const model::SafetensorsCheckpoint ckpt(path);

    std::int64_t params = 0;
    std::map<std::string, std::int64_t> dtypes; // dtype -> number of tensors
    for (const auto& [name, entry] : ckpt.tensors()) {
        params += entry.info->numel();
        ++dtypes[model::dtypeName(entry.info->dtype)];
    }
    json info;
    info["path"] = path;
    info["format"] = "safetensors";
    info["files"] = ckpt.files().size();
    info["tensors"] = ckpt.tensors().size();
    info["parameters"] = params;
    info["dtypes"] = dtypes;
    info["model_type"] = spec.model_type;
    info["architectures"] = spec.architectures;
    info["hyperparameters"] = hyperparameters(spec);
    info["tokenizer"] = tokenizerSummary(p);
    info["ignored_config_fields"] = spec.ignored_fields;
    return info;
}

std::string formatInspection(const json& info) {
    std::ostringstream o;
    const auto& h = info.at("hyperparameters");
    o << "Path           " << info.at("path").get<std::string>() << "\n";
    o << "Format         " << info.at("format").get<std::string>() << " ("
      << info.at("files").get<std::size_t>() << " file(s), " << info.at("tensors").get<std::size_t>()
      << " tensors)\n";
    o << "Architecture   " << info.at("model_type").get<std::string>();
    for (const auto& a : info.at("architectures")) {
        o << " / " << a.get<std::string>();
    }
    o << "\n";
    o << "Parameters     " << info.at("parameters").get<std::int64_t>() << "\n";
    o << "Dtypes        ";
    for (const auto& [d, n] : info.at("dtypes").items()) {
        o << " " << d << " x" << n.get<std::int64_t>();
    }
    o << "\n";
    o << "Layers         " << h.at("layers").get<std::int64_t>() << ", hidden "
      << h.at("hidden_size").get<std::int64_t>() << ", heads " << h.at("heads").get<std::int64_t>()
      << " (kv " << h.at("kv_heads").get<std::int64_t>() << ", dim "
      << h.at("head_dim").get<std::int64_t>() << "), ffn " << h.at("intermediate_size").get<std::int64_t>()
      << ", " << h.at("activation").get<std::string>() << "\n";
    o << "Tokenizer      " << info.at("tokenizer").at("kind").get<std::string>() << ", vocabulary "
      << info.at("tokenizer").at("vocab_size").get<std::size_t>() << "\n";
    if (!info.at("ignored_config_fields").empty()) {
        o << "Warning        config fields not used by the engine:";
        for (const auto& f : info.at("ignored_config_fields")) {
            o << " " << f.get<std::string>();
        }
        o << "\n";
    }
    return o.str();
}

} // namespace probaudit::app
