#include "tokenizer/components.h"

#include "common/error.h"
#include "tokenizer/unicode.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <optional>
#include <queue>

namespace probaudit::tokenizer {

using nlohmann::json;

namespace {

[[noreturn]] void unsupported(const std::string& where, const std::string& what) {
    throw Error(where, what + " is not supported by this tokenizer implementation");
}

// ---- Normalizers ---------------------------------------------------------------------------

class BertNormalizer final : public Normalizer {
public:
    BertNormalizer(bool clean, bool chinese, bool strip, bool lower)
        : m_clean(clean), m_chinese(chinese), m_strip(strip), m_lower(lower) {}
    std::string apply(const std::string& text) const override {
        std::vector<char32_t> cps;
        for (char32_t c : decodeUtf8(text)) {
            if (m_clean) {
                if (c == 0 || c == 0xFFFD ||
                    (c != U'\t' && c != U'\n' && c != U'\r' && isControlOrOther(c))) {
                    continue;
                }
                if (c == U'\t' || c == U'\n' || c == U'\r' || isWhitespace(c)) {
                    c = U' ';
                }
            }
            if (m_chinese && isChineseChar(c)) {
                cps.push_back(U' ');
                cps.push_back(c);
                cps.push_back(U' ');
            } else {
                cps.push_back(c);
            }
        }
        if (m_strip) {
            std::vector<char32_t> kept;
            for (char32_t c : decodeUtf8(normalize(encodeUtf8(cps), Form::NFD))) {
                if (!isNonspacingMark(c)) {
                    kept.push_back(c);
                }
            }
            cps.swap(kept);
        }
        if (m_lower) {
            std::vector<char32_t> lower;
            for (char32_t c : cps) {
                appendLowercase(lower, c);
            }
            cps.swap(lower);
        }
        return encodeUtf8(cps);
    }

private:
    bool m_clean, m_chinese, m_strip, m_lower;
};

class FormNormalizer final : public Normalizer {
public:
    explicit FormNormalizer(Form f) : m_form(f) {}
    std::string apply(const std::string& text) const override { return normalize(text, m_form); }

private:
    Form m_form;
};

class LowercaseNormalizer final : public Normalizer {
public:
    std::string apply(const std::string& text) const override {
        std::vector<char32_t> out;
        for (char32_t c : decodeUtf8(text)) {
            appendLowercase(out, c);
        }
        return encodeUtf8(out);
    }
};

class StripAccentsNormalizer final : public Normalizer {
public:
    std::string apply(const std::string& text) const override {
        std::vector<char32_t> out;
        for (char32_t c : decodeUtf8(text)) {
            if (!isNonspacingMark(c)) {
                out.push_back(c);
            }
        }
        return encodeUtf8(out);
    }
};

class ReplaceNormalizer final : public Normalizer {
public:
    ReplaceNormalizer(std::string from, std::string to)
        : m_from(std::move(from)), m_to(std::move(to)) {}
    std::string apply(const std::string& text) const override {
        if (m_from.empty()) {
            return text;
        }
        std::string out;
        std::size_t pos = 0;
        for (auto hit = text.find(m_from); hit != std::string::npos; hit = text.find(m_from, pos)) {
            out.append(text, pos, hit - pos).append(m_to);
            pos = hit + m_from.size();
        }
        return out.append(text, pos);
    }

private:
    std::string m_from, m_to;
};

class PrependNormalizer final : public Normalizer {
public:
    explicit PrependNormalizer(std::string p) : m_prepend(std::move(p)) {}
    std::string apply(const std::string& text) const override {
        return text.empty() ? text : m_prepend + text;
    }

private:
    std::string m_prepend;
};

class SequenceNormalizer final : public Normalizer {
public:
    explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> parts)
        : m_parts(std::move(parts)) {}
    std::string apply(const std::string& text) const override {
        std::string s = text;
        for (const auto& p : m_parts) {
            s = p->apply(s);
        }
        return s;
    }

private:
    std::vector<std::unique_ptr<Normalizer>> m_parts;
};

// ---- Pre-tokenizers ------------------------------------------------------------------------

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

// ---- Models --------------------------------------------------------------------------------

class Bpe final : public Model {
public:
    Bpe(std::unordered_map<std::string, std::int32_t> vocab,
        const std::vector<std::pair<std::string, std::string>>& merges, bool ignoreMerges,
        std::optional<std::int32_t> unk, bool fuseUnk, bool byteFallback, const std::string& where)
        : m_ignoreMerges(ignoreMerges), m_unk(unk), m_fuseUnk(fuseUnk),
          m_byteFallback(byteFallback) {
        m_vocab = std::move(vocab);
        for (std::size_t rank = 0; rank < merges.size(); ++rank) {
            const auto& [a, b] = merges[rank];
            const auto ia = m_vocab.find(a);
            const auto ib = m_vocab.find(b);
            const auto im = m_vocab.find(a + b);
            if (ia == m_vocab.end() || ib == m_vocab.end() || im == m_vocab.end()) {
                throw Error(where, "merge \"" + a + " " + b +
                                       "\" uses a token missing from the vocabulary");
            }
            m_merges.emplace(key(ia->second, ib->second),
                             std::make_pair(static_cast<std::int32_t>(rank), im->second));
        }
    }
    const char* kind() const override { return "BPE"; }

    void tokenize(const std::string& piece, std::vector<std::int32_t>& ids) const override {
        if (piece.empty()) {
            return;
        }
        if (m_ignoreMerges) {
            if (auto it = m_vocab.find(piece); it != m_vocab.end()) {
                ids.push_back(it->second);
                return;
            }
        }
        std::vector<std::int32_t> symbols;
        bool lastWasUnk = false;
        for (char32_t c : decodeUtf8(piece)) {
            std::string ch;
            appendUtf8(ch, c);
            if (auto it = m_vocab.find(ch); it != m_vocab.end()) {
                symbols.push_back(it->second);
                lastWasUnk = false;
                continue;
            }
            if (m_byteFallback) {
                bool all = true;
                std::vector<std::int32_t> bytes;
                for (unsigned char b : ch) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
                    auto bt = m_vocab.find(buf);
                    if (bt == m_vocab.end()) {
                        all = false;
                        break;
                    }
                    bytes.push_back(bt->second);
                }
                if (all) {
                    symbols.insert(symbols.end(), bytes.begin(), bytes.end());
                    lastWasUnk = false;
                    continue;
                }
            }
            if (!m_unk) {
                throw Error("character U+" + hex(c) +
                            " is not in the BPE vocabulary and the "
                            "tokenizer has no unknown token");
            }
            if (!(m_fuseUnk && lastWasUnk)) {
                symbols.push_back(*m_unk);
            }
            lastWasUnk = true;
        }
        mergeAll(symbols);
        ids.insert(ids.end(), symbols.begin(), symbols.end());
    }

private:
    // Merges the lowest-ranked adjacent pair (leftmost on ties) until none applies: what
    // rescanning the whole word after every merge gives, in O(n log n) with a heap of candidate
    // merges over a linked list of symbols (the rescan is quadratic, and a word can be a
    // megabyte long).
    void mergeAll(std::vector<std::int32_t>& symbols) const {
        const std::size_t n = symbols.size();
        if (n < 2) {
            return;
        }
        constexpr std::size_t kNone = SIZE_MAX;
        struct Candidate {
            std::int32_t rank;
            std::size_t pos; // the left symbol's original position: leftmost wins ties
            std::int32_t left, right, merged;
        };
        const auto later = [](const Candidate& a, const Candidate& b) {
            return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
        };
        std::priority_queue<Candidate, std::vector<Candidate>, decltype(later)> heap(later);
        std::vector<std::size_t> prev(n), next(n);
        std::vector<char> alive(n, 1);
        for (std::size_t i = 0; i < n; ++i) {
            prev[i] = i == 0 ? kNone : i - 1;
            next[i] = i + 1 < n ? i + 1 : kNone;
        }
        const auto consider = [&](std::size_t i) {
            if (i == kNone || next[i] == kNone) {
                return;
            }
            const auto it = m_merges.find(key(symbols[i], symbols[next[i]]));
            if (it != m_merges.end()) {
                heap.push({it->second.first, i, symbols[i], symbols[next[i]], it->second.second});
            }
        };
        for (std::size_t i = 0; i + 1 < n; ++i) {
            consider(i);
        }
        while (!heap.empty()) {
            const Candidate c = heap.top();
            heap.pop();
            const std::size_t j = alive[c.pos] ? next[c.pos] : kNone;
            if (j == kNone || symbols[c.pos] != c.left || symbols[j] != c.right) {
                continue; // a merge next to it changed this pair since it was found
            }
            symbols[c.pos] = c.merged;
            alive[j] = 0;
            next[c.pos] = next[j];
            if (next[j] != kNone) {
                prev[next[j]] = c.pos;
            }
            consider(prev[c.pos]);
            consider(c.pos);
        }
        std::size_t k = 0;
        for (std::size_t i = 0; i != kNone; i = next[i]) {
            symbols[k++] = symbols[i];
        }
        symbols.resize(k);
    }

    static std::uint64_t key(std::int32_t a, std::int32_t b) {
        return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
    }
    static std::string hex(char32_t c) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%04X", unsigned(c));
        return buf;
    }

    std::unordered_map<std::uint64_t, std::pair<std::int32_t, std::int32_t>>
        m_merges; // -> (rank, merged id)
    bool m_ignoreMerges;
    std::optional<std::int32_t> m_unk;
    bool m_fuseUnk;
    bool m_byteFallback;
};

class WordPiece final : public Model {
public:
    WordPiece(std::unordered_map<std::string, std::int32_t> vocab, const std::string& unk,
              std::string prefix, std::size_t maxChars, const std::string& where)
        : m_prefix(std::move(prefix)), m_maxChars(maxChars) {
        m_vocab = std::move(vocab);
        const auto it = m_vocab.find(unk);
        if (it == m_vocab.end()) {
            throw Error(where, "WordPiece unknown token \"" + unk + "\" is not in the vocabulary");
        }
        m_unk = it->second;
        for (const auto& [token, id] : m_vocab) {
            m_longest = std::max(m_longest, decodeUtf8(token).size());
        }
    }
    const char* kind() const override { return "WordPiece"; }

    void tokenize(const std::string& piece, std::vector<std::int32_t>& ids) const override {
        const auto cps = decodeUtf8(piece);
        if (cps.size() > m_maxChars) {
            ids.push_back(m_unk);
            return;
        }
        // Byte offset of every character boundary.
        std::vector<std::size_t> bounds{0};
        for (char32_t c : cps) {
            std::string e;
            appendUtf8(e, c);
            bounds.push_back(bounds.back() + e.size());
        }
        std::vector<std::int32_t> out;
        std::size_t start = 0;
        while (start < cps.size()) {
            // No entry is longer than the longest in the vocabulary: the longest match is
            // found among those lengths only (a word can be as long as any limit allows).
            std::size_t end = std::min(cps.size(), start + m_longest);
            std::int32_t found = -1;
            while (start < end) {
                std::string sub = piece.substr(bounds[start], bounds[end] - bounds[start]);
                if (start > 0) {
                    sub = m_prefix + sub;
                }
                if (auto it = m_vocab.find(sub); it != m_vocab.end()) {
                    found = it->second;
                    break;
                }
                --end;
            }
            if (found < 0) {
                ids.push_back(m_unk);
                return;
            }
            out.push_back(found);
            start = end;
        }
        ids.insert(ids.end(), out.begin(), out.end());
    }

private:
    std::string m_prefix;
    std::size_t m_maxChars;
    std::size_t m_longest = 0; // characters of the longest vocabulary entry
    std::int32_t m_unk = 0;
};

std::unordered_map<std::string, std::int32_t> readVocab(const json& v, const std::string& where) {
    if (!v.is_object()) {
        throw Error(where, "model vocab is not an object");
    }
    std::unordered_map<std::string, std::int32_t> vocab;
    vocab.reserve(v.size());
    for (const auto& [tok, id] : v.items()) {
        if (!id.is_number_integer() || id.get<std::int64_t>() < 0 ||
            id.get<std::int64_t>() > INT32_MAX) {
            throw Error(where, "vocab id of \"" + tok + "\" is not a valid token id");
        }
        vocab.emplace(tok, id.get<std::int32_t>());
    }
    return vocab;
}

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

std::unique_ptr<Normalizer> makeNormalizer(const json& j, const std::string& where) {
    if (j.is_null()) {
        return nullptr;
    }
    const std::string type = j.value("type", "");
    if (type == "BertNormalizer") {
        const bool lower = j.value("lowercase", true);
        const bool strip = j.contains("strip_accents") && !j["strip_accents"].is_null()
                               ? j["strip_accents"].get<bool>()
                               : lower;
        return std::make_unique<BertNormalizer>(
            j.value("clean_text", true), j.value("handle_chinese_chars", true), strip, lower);
    }
    if (type == "NFC")
        return std::make_unique<FormNormalizer>(Form::NFC);
    if (type == "NFD")
        return std::make_unique<FormNormalizer>(Form::NFD);
    if (type == "NFKC")
        return std::make_unique<FormNormalizer>(Form::NFKC);
    if (type == "NFKD")
        return std::make_unique<FormNormalizer>(Form::NFKD);
    if (type == "Lowercase")
        return std::make_unique<LowercaseNormalizer>();
    if (type == "StripAccents")
        return std::make_unique<StripAccentsNormalizer>();
    if (type == "Prepend")
        return std::make_unique<PrependNormalizer>(j.at("prepend").get<std::string>());
    if (type == "Replace") {
        const json& pat = j.at("pattern");
        if (!pat.contains("String")) {
            unsupported(where, "a Replace normalizer with a regex pattern");
        }
        return std::make_unique<ReplaceNormalizer>(pat["String"].get<std::string>(),
                                                   j.at("content").get<std::string>());
    }
    if (type == "Sequence") {
        std::vector<std::unique_ptr<Normalizer>> parts;
        for (const auto& n : j.at("normalizers")) {
            if (auto p = makeNormalizer(n, where)) {
                parts.push_back(std::move(p));
            }
        }
        return std::make_unique<SequenceNormalizer>(std::move(parts));
    }
    unsupported(where, "normalizer \"" + type + "\"");
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

std::unique_ptr<Model> makeModel(const json& j, const std::string& where) {
    const std::string type = j.value("type", "");
    if (type == "BPE") {
        if (j.contains("dropout") && !j["dropout"].is_null()) {
            unsupported(where, "BPE dropout (it makes tokenization random)");
        }
        for (const char* k : {"continuing_subword_prefix", "end_of_word_suffix"}) {
            if (j.contains(k) && j[k].is_string() && !j[k].get<std::string>().empty()) {
                unsupported(where, std::string("BPE ") + k);
            }
        }
        auto vocab = readVocab(j.at("vocab"), where);
        std::vector<std::pair<std::string, std::string>> merges;
        for (const auto& m : j.at("merges")) {
            if (m.is_string()) { // "a b"
                const std::string s = m.get<std::string>();
                const auto space = s.find(' ', 1);
                if (space == std::string::npos) {
                    throw Error(where, "merge \"" + s + "\" is not two tokens");
                }
                merges.emplace_back(s.substr(0, space), s.substr(space + 1));
            } else if (m.is_array() && m.size() == 2) { // ["a", "b"]
                merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
            } else {
                throw Error(where, "malformed BPE merge " + m.dump());
            }
        }
        std::optional<std::int32_t> unk;
        if (j.contains("unk_token") && j["unk_token"].is_string()) {
            const auto it = vocab.find(j["unk_token"].get<std::string>());
            if (it == vocab.end()) {
                throw Error(where, "BPE unknown token is not in the vocabulary");
            }
            unk = it->second;
        }
        return std::make_unique<Bpe>(std::move(vocab), merges, j.value("ignore_merges", false), unk,
                                     j.value("fuse_unk", false), j.value("byte_fallback", false),
                                     where);
    }
    if (type == "WordPiece") {
        return std::make_unique<WordPiece>(
            readVocab(j.at("vocab"), where), j.value("unk_token", std::string("[UNK]")),
            j.value("continuing_subword_prefix", std::string("##")),
            j.value("max_input_chars_per_word", std::size_t(100)), where);
    }
    unsupported(where, "tokenizer model \"" + type + "\"");
}

std::unique_ptr<Model> makeBpe(std::unordered_map<std::string, std::int32_t> vocab,
                               const std::vector<std::pair<std::string, std::string>>& merges,
                               bool ignoreMerges, const std::string& where) {
    return std::make_unique<Bpe>(std::move(vocab), merges, ignoreMerges, std::nullopt, false, false,
                                 where);
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
