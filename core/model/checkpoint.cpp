#include "core/model/checkpoint.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/model/gguf_llama.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace probaudit::model {

namespace fs = std::filesystem;

Checkpoint Checkpoint::open(const std::string& path) {
    const fs::path p(path);
    std::error_code ec;
    if (!fs::exists(p, ec)) {
        throw Error(path, "no such file or directory");
    }
    Checkpoint c;
    c.m_path = path;
    if (fs::is_regular_file(p) && p.extension() == ".gguf") {
        c.m_format = Format::Gguf;
        c.m_gguf = std::make_shared<GgufFile>(path);
        c.m_spec = ggufLlamaSpec(*c.m_gguf);
        c.m_mappings = ggufLlamaTensors(*c.m_gguf, c.m_spec);
        for (const auto& m : c.m_mappings) {
            c.m_names.push_back(m.hf_name);
        }
        return c;
    }
    if (!fs::is_directory(p)) {
        throw Error(path, "not a checkpoint (expected a Hugging Face folder with config.json and "
                          "safetensors files, or a .gguf file)");
    }
    c.m_format = Format::Safetensors;
    c.m_spec = loadHfConfig((p / "config.json").string());
    if (const fs::path gen = p / "generation_config.json"; fs::exists(gen)) {
        // generate() reads its stop tokens from here when the folder has it.
        const nlohmann::json g = readJsonFile(gen.string(), DuplicateKeys::LastWins);
        if (g.is_object() && g.contains("eos_token_id")) {
            c.m_spec.eos_token_ids = eosTokenIds(g);
        }
    }
    c.m_st = std::make_shared<SafetensorsCheckpoint>(path);
    for (const auto& [name, entry] : c.m_st->tensors()) {
        c.m_names.push_back(name);
    }
    return c;
}

std::int64_t Checkpoint::parameterCount() const {
    std::int64_t n = 0;
    if (m_gguf) {
        for (const auto& t : m_gguf->header().tensors) {
            n += t.numel();
        }
    } else {
        for (const auto& [name, entry] : m_st->tensors()) {
            n += entry.info->numel();
        }
    }
    return n;
}

const GgufTensorMapping* Checkpoint::ggufMapping(const std::string& hfName) const {
    for (const auto& m : m_mappings) {
        if (m.hf_name == hfName) {
            return &m;
        }
    }
    return nullptr;
}

namespace {

// Every id the tokenizer and the config can feed the model indexes its embedding table: one
// beyond it would read outside the table (or trip a device assert on CUDA).
void checkIdsFitModel(const ModelSpec& s, const tokenizer::Tokenizer& tok,
                      const std::string& where) {
    const auto outside = [&](const std::string& what, std::int64_t id) {
        throw Error(where, what + " " + std::to_string(id) + " is outside the model's " +
                               std::to_string(s.vocab_size) + " token embeddings");
    };
    if (static_cast<std::int64_t>(tok.vocabSize()) > s.vocab_size) {
        const std::int64_t id = static_cast<std::int64_t>(tok.vocabSize()) - 1;
        outside("tokenizer id", id);
    }
    if (s.pad_token_id >= s.vocab_size || s.pad_token_id < -1) {
        outside("pad_token_id", s.pad_token_id);
    }
    for (const std::int64_t id : s.eos_token_ids) {
        if (id < 0 || id >= s.vocab_size) {
            outside("eos_token_id", id);
        }
    }
}

} // namespace

tokenizer::Tokenizer Checkpoint::loadTokenizer() const {
    if (m_gguf) {
        auto tok = tokenizer::Tokenizer::fromGguf(*m_gguf);
        checkIdsFitModel(m_spec, tok, m_path);
        return tok;
    }
    const fs::path tj = fs::path(m_path) / "tokenizer.json";
    if (!fs::exists(tj)) {
        throw Error(m_path, "no tokenizer.json");
    }
    auto tok = tokenizer::Tokenizer::fromFile(tj.string());
    checkIdsFitModel(m_spec, tok, m_path);
    return tok;
}

std::vector<std::string> Checkpoint::files() const {
    std::vector<std::string> out;
    if (m_gguf) {
        out.push_back(m_path);
        return out;
    }
    out.push_back((fs::path(m_path) / "config.json").string());
    for (const auto& f : m_st->files()) {
        out.push_back(f->path());
    }
    const fs::path idx = fs::path(m_path) / "model.safetensors.index.json";
    if (fs::exists(idx)) {
        out.push_back(idx.string());
    }
    const fs::path tj = fs::path(m_path) / "tokenizer.json";
    if (fs::exists(tj)) {
        out.push_back(tj.string());
    }
    return out;
}

} // namespace probaudit::model
