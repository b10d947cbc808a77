#pragma once
// The pieces of a Hugging Face tokenizer pipeline (tokenizer.json), as the reference
// `tokenizers` library defines them: normalizers, pre-tokenizers, and the BPE / WordPiece
// models. Only what the supported model families use is implemented; anything else in a
// tokenizer.json is refused by name rather than skipped.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace probaudit::tokenizer {

class Normalizer {
public:
    virtual ~Normalizer() = default;
    virtual std::string apply(const std::string& text) const = 0;
};

class PreTokenizer {
public:
    virtual ~PreTokenizer() = default;
    // Splits every piece further (pieces are UTF-8 strings; empty pieces are dropped).
    virtual void apply(std::vector<std::string>& pieces) const = 0;
};

class Model {
public:
    virtual ~Model() = default;
    virtual void tokenize(const std::string& piece, std::vector<std::int32_t>& ids) const = 0;
    virtual const char* kind() const = 0;
    const std::unordered_map<std::string, std::int32_t>& vocab() const { return m_vocab; }

protected:
    std::unordered_map<std::string, std::int32_t> m_vocab;
};

// Build from the JSON sections; `where` names the file in errors.
std::unique_ptr<Normalizer> makeNormalizer(const nlohmann::json& j, const std::string& where);
std::unique_ptr<PreTokenizer> makePreTokenizer(const nlohmann::json& j, const std::string& where);
std::unique_ptr<Model> makeModel(const nlohmann::json& j, const std::string& where);

// Byte-level BPE pieces: the GPT-2 byte <-> printable character mapping.
char32_t byteToChar(std::uint8_t b);
int charToByte(char32_t c); // -1 when c is not a byte-level character

// A byte-level BPE model built directly (GGUF tokenizers).
std::unique_ptr<Model> makeBpe(std::unordered_map<std::string, std::int32_t> vocab,
                               const std::vector<std::pair<std::string, std::string>>& merges,
                               bool ignoreMerges, const std::string& where);

// The pre-tokenizer of a GGUF "gpt2" tokenizer, chosen by tokenizer.ggml.pre the way
// transformers does when it loads the file.
std::unique_ptr<PreTokenizer> makeGgufPreTokenizer(const std::string& pre, bool addPrefixSpace,
                                                   const std::string& where);

} // namespace probaudit::tokenizer
