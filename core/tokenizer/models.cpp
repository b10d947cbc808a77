// Tokenizer models of a tokenizer.json (components.h): byte-level BPE (merges by rank,
// byte fallback, unknown token) and WordPiece (greedy longest match).
#include "core/common/error.h"
#include "core/tokenizer/components.h"
#include "core/tokenizer/unicode.h"
#include "core/tokenizer/unsupported.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <optional>
#include <queue>

namespace probaudit::tokenizer {

using nlohmann::json;

namespace {

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

} // namespace probaudit::tokenizer
