// Pre-tokenizers of a tokenizer.json (components.h): regex and literal splits (PCRE2 standing
// in for Oniguruma), byte-level (with GPT-2's byte <-> character mapping), BERT's, whitespace,
// digits and sequences of them, plus the pre-tokenizer of a GGUF "gpt2" tokenizer.
#include "core/common/error.h"
#include "core/tokenizer/components.h"
#include "core/tokenizer/unicode.h"
#include "core/tokenizer/unsupported.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <map>
#include <tuple>

namespace probaudit::tokenizer {

using nlohmann::json;

namespace {

enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

Behavior parseBehavior(const std::string& b, const std::string& where) {
    if (b == "Removed")
        return Behavior::Removed;
    if (b == "Isolated")
        return Behavior::Isolated;
    if (b == "MergedWithPrevious")
        return Behavior::MergedWithPrevious;
    if (b == "MergedWithNext")
        return Behavior::MergedWithNext;
    if (b == "Contiguous")
        return Behavior::Contiguous;
    unsupported(where, "split behavior \"" + b + "\"");
}

// Splits `s` at the byte ranges `matches` (sorted, disjoint) with the given behavior, the way
// tokenizers' NormalizedString::split does.
void splitByMatches(const std::string& s,
                    const std::vector<std::pair<std::size_t, std::size_t>>& matches,
                    Behavior behavior, std::vector<std::string>& out) {
    // (begin, end, is_match) spans covering s
    std::vector<std::tuple<std::size_t, std::size_t, bool>> spans;
    std::size_t pos = 0;
    for (const auto& [b, e] : matches) {
        if (b > pos) {
            spans.emplace_back(pos, b, false);
        }
        spans.emplace_back(b, e, true);
        pos = e;
    }
    if (pos < s.size()) {
        spans.emplace_back(pos, s.size(), false);
    }
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    switch (behavior) {
    case Behavior::Removed:
        for (const auto& [b, e, m] : spans) {
            if (!m)
                pieces.emplace_back(b, e);
        }
        break;
    case Behavior::Isolated:
        for (const auto& [b, e, m] : spans) {
            pieces.emplace_back(b, e);
        }
        break;
    case Behavior::MergedWithPrevious: {
        bool previousMatch = false;
        for (const auto& [b, e, m] : spans) {
            if (m && !pieces.empty() && !previousMatch) {
                pieces.back().second = e;
            } else {
                pieces.emplace_back(b, e);
            }
            previousMatch = m;
        }
        break;
    }
    case Behavior::MergedWithNext: {
        bool previousMatch = false;
        for (const auto& [b, e, m] : spans) {
            if (!m && previousMatch && !pieces.empty()) {
                pieces.back().second = e;
            } else {
                pieces.emplace_back(b, e);
            }
            previousMatch = m;
        }
        break;
    }
    case Behavior::Contiguous: {
        bool previousMatch = false;
        for (const auto& [b, e, m] : spans) {
            if (m && previousMatch && !pieces.empty()) {
                pieces.back().second = e;
            } else {
                pieces.emplace_back(b, e);
            }
            previousMatch = m;
        }
        break;
    }
    }
    for (const auto& [b, e] : pieces) {
        if (e > b) {
            out.push_back(s.substr(b, e - b));
        }
    }
}

// A PCRE2 regex with Unicode properties (UTF + UCP), standing in for tokenizers' Oniguruma.
class Regex {
public:
    Regex(const std::string& pattern, const std::string& where) : m_where(where) {
        int err = 0;
        PCRE2_SIZE offset = 0;
        m_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                               PCRE2_UTF | PCRE2_UCP, &err, &offset, nullptr);
        if (m_code == nullptr) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            throw Error(where, "invalid split regex at " + std::to_string(offset) + ": " +
                                   reinterpret_cast<const char*>(msg));
        }
        pcre2_jit_compile(m_code, PCRE2_JIT_COMPLETE); // an optimisation; failure is harmless
    }
    ~Regex() { pcre2_code_free(m_code); }
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    std::vector<std::pair<std::size_t, std::size_t>> findAll(const std::string& s) const {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        pcre2_match_data* md = pcre2_match_data_create_from_pattern(m_code, nullptr);
        std::size_t start = 0;
        while (start <= s.size()) {
            const int rc = pcre2_match(m_code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(),
                                       start, start == 0 ? 0 : PCRE2_NO_UTF_CHECK, md, nullptr);
            if (rc == PCRE2_ERROR_NOMATCH) {
                break;
            }
            if (rc < 0) { // match or depth limit, bad UTF-8: never "no match", wrong tokens
                PCRE2_UCHAR msg[256];
                pcre2_get_error_message(rc, msg, sizeof msg);
                pcre2_match_data_free(md);
                throw Error(m_where, "the split regex failed on a text of " +
                                         std::to_string(s.size()) + " bytes at byte " +
                                         std::to_string(start) + ": " +
                                         reinterpret_cast<const char*>(msg));
            }
            const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
            std::size_t b = ov[0];
            std::size_t e = ov[1];
            if (e == b) { // empty match: step over one character
                if (b >= s.size()) {
                    break;
                }
                std::size_t n = 1;
                while (b + n < s.size() && (static_cast<unsigned char>(s[b + n]) & 0xC0) == 0x80) {
                    ++n;
                }
                start = b + n;
                continue;
            }
            out.emplace_back(b, e);
            start = e;
        }
        pcre2_match_data_free(md);
        return out;
    }

private:
    std::string m_where;
    pcre2_code* m_code = nullptr;
};

const char* const kGpt2Pattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

class SplitPreTokenizer final : public PreTokenizer {
public:
    SplitPreTokenizer(const std::string& pattern, bool isRegex, Behavior b, bool invert,
                      const std::string& where)
        : m_behavior(b), m_invert(invert) {
        if (isRegex) {
            m_regex = std::make_unique<Regex>(pattern, where);
        } else {
            m_literal = pattern;
        }
    }
    void apply(std::vector<std::string>& pieces) const override {
        std::vector<std::string> out;
        for (const auto& p : pieces) {
            auto matches = m_regex ? m_regex->findAll(p) : literalMatches(p);
            if (m_invert) {
                matches = complement(matches, p.size());
            }
            splitByMatches(p, matches, m_behavior, out);
        }
        pieces.swap(out);
    }

private:
    std::vector<std::pair<std::size_t, std::size_t>> literalMatches(const std::string& s) const {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        if (m_literal.empty()) {
            return out;
        }
        for (auto pos = s.find(m_literal); pos != std::string::npos;
             pos = s.find(m_literal, pos + m_literal.size())) {
            out.emplace_back(pos, pos + m_literal.size());
        }
        return out;
    }
    static std::vector<std::pair<std::size_t, std::size_t>>
    complement(const std::vector<std::pair<std::size_t, std::size_t>>& m, std::size_t n) {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        std::size_t pos = 0;
        for (const auto& [b, e] : m) {
            if (b > pos)
                out.emplace_back(pos, b);
            pos = e;
        }
        if (pos < n)
            out.emplace_back(pos, n);
        return out;
    }

    std::unique_ptr<Regex> m_regex;
    std::string m_literal;
    Behavior m_behavior;
    bool m_invert;
};

class ByteLevelPreTokenizer final : public PreTokenizer {
public:
    ByteLevelPreTokenizer(bool addPrefixSpace, bool useRegex, const std::string& where)
        : m_prefix(addPrefixSpace) {
        if (useRegex) {
            m_split = std::make_unique<SplitPreTokenizer>(kGpt2Pattern, true, Behavior::Isolated,
                                                          false, where);
        }
    }
    void apply(std::vector<std::string>& pieces) const override {
        if (m_prefix) {
            for (auto& p : pieces) {
                if (!p.empty() && p[0] != ' ') {
                    p.insert(p.begin(), ' ');
                }
            }
        }
        if (m_split) {
            m_split->apply(pieces);
        }
        for (auto& p : pieces) {
            std::string mapped;
            for (unsigned char b : p) {
                appendUtf8(mapped, byteToChar(b));
            }
            p.swap(mapped);
        }
    }

private:
    bool m_prefix;
    std::unique_ptr<SplitPreTokenizer> m_split;
};

// Splits by a per-character predicate: matching characters are isolated (each on its own when
// `each` is set, as runs otherwise) or removed.
template <typename Pred>
void splitChars(std::vector<std::string>& pieces, Pred pred, Behavior behavior, bool each) {
    std::vector<std::string> out;
    for (const auto& p : pieces) {
        std::vector<std::pair<std::size_t, std::size_t>> matches;
        std::size_t i = 0;
        const auto cps = decodeUtf8(p);
        for (char32_t c : cps) {
            std::string enc;
            appendUtf8(enc, c);
            if (pred(c)) {
                if (!each && !matches.empty() && matches.back().second == i) {
                    matches.back().second = i + enc.size();
                } else {
                    matches.emplace_back(i, i + enc.size());
                }
            }
            i += enc.size();
        }
        splitByMatches(p, matches, behavior, out);
    }
    pieces.swap(out);
}

class BertPreTokenizer final : public PreTokenizer {
public:
    void apply(std::vector<std::string>& pieces) const override {
        splitChars(pieces, isWhitespace, Behavior::Removed, false);
        splitChars(
            pieces, [](char32_t c) { return isAsciiPunctuation(c) || isPunctuation(c); },
            Behavior::Isolated, true);
    }
};

class WhitespaceSplitPreTokenizer final : public PreTokenizer {
public:
    void apply(std::vector<std::string>& pieces) const override {
        splitChars(pieces, isWhitespace, Behavior::Removed, false);
    }
};

class DigitsPreTokenizer final : public PreTokenizer {
public:
    explicit DigitsPreTokenizer(bool individual) : m_individual(individual) {}
    void apply(std::vector<std::string>& pieces) const override {
        // Rust char::is_numeric: general categories Nd, Nl, No.
        splitChars(pieces, isNumeric, Behavior::Isolated, m_individual);
    }

private:
    bool m_individual;
};

class SequencePreTokenizer final : public PreTokenizer {
public:
    explicit SequencePreTokenizer(std::vector<std::unique_ptr<PreTokenizer>> parts)
        : m_parts(std::move(parts)) {}
    void apply(std::vector<std::string>& pieces) const override {
        for (const auto& p : m_parts) {
            p->apply(pieces);
        }
    }

private:
    std::vector<std::unique_ptr<PreTokenizer>> m_parts;
};

} // namespace

char32_t byteToChar(std::uint8_t b) {
    // GPT-2's bytes_to_unicode: printable bytes stand for themselves, the rest are moved up
    // to 256 + n in byte order.
    if ((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174)) {
        return b;
    }
    int n = 0;
    for (int x = 0; x < b; ++x) {
        if (!((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174))) {
            ++n;
        }
    }
    return static_cast<char32_t>(256 + n);
}

int charToByte(char32_t c) {
    for (int b = 0; b < 256; ++b) {
        if (byteToChar(static_cast<std::uint8_t>(b)) == c) {
            return b;
        }
    }
    return -1;
}

std::unique_ptr<PreTokenizer> makePreTokenizer(const json& j, const std::string& where) {
    if (j.is_null()) {
        return nullptr;
    }
    const std::string type = j.value("type", "");
    if (type == "ByteLevel") {
        return std::make_unique<ByteLevelPreTokenizer>(j.value("add_prefix_space", false),
                                                       j.value("use_regex", true), where);
    }
    if (type == "Split") {
        const json& pat = j.at("pattern");
        const bool isRegex = pat.contains("Regex");
        const std::string pattern =
            isRegex ? pat["Regex"].get<std::string>() : pat.at("String").get<std::string>();
        return std::make_unique<SplitPreTokenizer>(
            pattern, isRegex, parseBehavior(j.at("behavior").get<std::string>(), where),
            j.value("invert", false), where);
    }
    if (type == "BertPreTokenizer")
        return std::make_unique<BertPreTokenizer>();
    if (type == "WhitespaceSplit")
        return std::make_unique<WhitespaceSplitPreTokenizer>();
    if (type == "Whitespace") {
        return std::make_unique<SplitPreTokenizer>("\\w+|[^\\w\\s]+", true, Behavior::Isolated,
                                                   false, where);
    }
    if (type == "Digits")
        return std::make_unique<DigitsPreTokenizer>(j.value("individual_digits", false));
    if (type == "Sequence") {
        std::vector<std::unique_ptr<PreTokenizer>> parts;
        for (const auto& p : j.at("pretokenizers")) {
            if (auto t = makePreTokenizer(p, where)) {
                parts.push_back(std::move(t));
            }
        }
        return std::make_unique<SequencePreTokenizer>(std::move(parts));
    }
    unsupported(where, "pre-tokenizer \"" + type + "\"");
}

std::unique_ptr<PreTokenizer> makeGgufPreTokenizer(const std::string& pre, bool addPrefixSpace,
                                                   const std::string& where) {
    // transformers (integrations/gguf) splits these vocabularies with their own regex first.
    static const std::map<std::string, std::string> kSplits = {
        {"llama3", "llama3"},         {"llama-v3", "llama3"}, {"llama-bpe", "llama3"},
        {"smaug-bpe", "llama3"},      {"dbrx", "llama3"},     {"qwen2", "qwen2"},
        {"deepseek-r1-qwen", "qwen2"}};
    static const char* const kLlama3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
                                       "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
                                       "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
    static const char* const kQwen2 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
                                      "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
                                      "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
    const auto it = kSplits.find(pre);
    if (it == kSplits.end()) {
        return std::make_unique<ByteLevelPreTokenizer>(addPrefixSpace, true, where);
    }
    std::vector<std::unique_ptr<PreTokenizer>> parts;
    parts.push_back(std::make_unique<SplitPreTokenizer>(it->second == "llama3" ? kLlama3 : kQwen2,
                                                        true, Behavior::Isolated, false, where));
    parts.push_back(std::make_unique<ByteLevelPreTokenizer>(false, false, where));
    return std::make_unique<SequencePreTokenizer>(std::move(parts));
}

} // namespace probaudit::tokenizer
