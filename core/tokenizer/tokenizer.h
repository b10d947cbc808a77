#pragma once
// A tokenizer that gives exactly the token ids of the reference implementation (Hugging Face
// tokenizers, as transformers drives it): tokenizer.json (byte-level BPE, WordPiece) or the
// tokenizer stored in a GGUF file's metadata. A token that differs is a different input.
#include "core/tokenizer/components.h"
#include "core/tokenizer/gguf_metadata.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit::tokenizer {

// The largest token id a tokenizer may use (the largest vocabularies in use have ~262k
// entries): the id table is as long as the largest id, so a crafted file must not size it.
inline constexpr std::int64_t kMaxTokenId = (std::int64_t(1) << 22) - 1;

// A token id as a tokenizer file writes it: an integer (not a float, not a string) in
// [0, kMaxTokenId]. Throws probaudit::Error naming `where` and `what` otherwise.
std::int32_t tokenIdOf(const nlohmann::json& v, const std::string& where, const std::string& what);

struct AddedToken {
    std::int32_t id = 0;
    std::string content;
    bool single_word = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = false;
    bool special = false;
};

struct Encoding {
    std::vector<std::int32_t> ids;
    bool truncated = false;      // ids were cut to max_length
    std::size_t full_length = 0; // length before truncation
};

class Tokenizer {
public:
    static Tokenizer fromFile(const std::string& path);
    static Tokenizer fromJson(const std::string& text, const std::string& where);
    static Tokenizer fromGguf(const GgufMetadata& file);

    // Token ids for `text` (UTF-8; invalid UTF-8 throws probaudit::Error). With
    // addSpecialTokens, the post-processor's template applies ([CLS] … [SEP], BOS). With
    // maxLength > 0 the sequence is cut to maxLength tokens, special tokens included, and
    // Encoding::truncated says so.
    Encoding encode(std::string_view text, bool addSpecialTokens = true,
                    std::size_t maxLength = 0) const;

    std::string kind() const { return m_model->kind(); }
    // One more than the largest id the tokenizer can produce (vocabulary, added tokens and the
    // template's special tokens): a model needs at least this many embeddings.
    std::size_t vocabSize() const;
    // The vocabulary entry of an id (byte-level tokens shown as stored), or "" if unknown.
    std::string token(std::int32_t id) const;
    std::optional<std::int32_t> tokenId(const std::string& token) const;
    // Text of ids (byte-level BPE back to bytes; WordPiece joined with its prefix removed).
    std::string decode(const std::vector<std::int32_t>& ids) const;
    const std::vector<AddedToken>& addedTokens() const { return m_added; }
    // Number of special tokens the template adds around one sequence.
    std::size_t specialTokenCount() const { return m_prefix.size() + m_suffix.size(); }

private:
    Tokenizer() = default;
    void finish(const std::string& where);
    void splitAdded(const std::string& text, bool normalizedPass,
                    std::vector<std::pair<std::string, std::int32_t>>& out) const;

    std::unique_ptr<Normalizer> m_normalizer;
    std::unique_ptr<PreTokenizer> m_preTokenizer;
    std::unique_ptr<Model> m_model;
    std::vector<AddedToken> m_added;
    std::vector<std::int32_t> m_prefix; // template ids before the sequence
    std::vector<std::int32_t> m_suffix; // after it
    std::vector<std::string> m_idToToken;
    bool m_byteLevel = false;
    std::string m_wordpiecePrefix;
};

} // namespace probaudit::tokenizer
