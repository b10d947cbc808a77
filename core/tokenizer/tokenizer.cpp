#include "core/tokenizer/tokenizer.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/tokenizer/unicode.h"

#include <algorithm>
#include <fstream>

namespace probaudit::tokenizer {

using nlohmann::json;

std::int32_t tokenIdOf(const json& v, const std::string& where, const std::string& what) {
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() && v.get<std::uint64_t>() > kMaxTokenId) ||
        v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxTokenId) {
        throw Error(where, what + ": id " + v.dump() + " is not a token id (an integer from 0 to " +
                               std::to_string(kMaxTokenId) + ")");
    }
    return v.get<std::int32_t>();
}

namespace {

bool isWordChar(char32_t c) {
    return c == U'_' || (c < 0x80 && std::isalnum(static_cast<int>(c))) ||
           (c >= 0x80 && !isWhitespace(c) && !isPunctuation(c));
}

// Ids of one template entry list: SpecialToken{id} resolved through special_tokens.
void readTemplate(const json& pp, std::vector<std::int32_t>& prefix,
                  std::vector<std::int32_t>& suffix, const std::string& where) {
    const std::string type = pp.value("type", "");
    if (type == "TemplateProcessing") {
        bool seenSequence = false;
        for (const auto& item : pp.at("single")) {
            if (item.contains("Sequence")) {
                seenSequence = true;
                continue;
            }
            const std::string name = item.at("SpecialToken").at("id").get<std::string>();
            const json& tok = pp.at("special_tokens").at(name);
            for (const auto& id : tok.at("ids")) {
                (seenSequence ? suffix : prefix)
                    .push_back(tokenIdOf(id, where, "special token \"" + name + "\""));
            }
        }
        return;
    }
    if (type == "BertProcessing" || type == "RobertaProcessing") {
        prefix.push_back(tokenIdOf(pp.at("cls").at(1), where, "the post-processor's cls"));
        suffix.push_back(tokenIdOf(pp.at("sep").at(1), where, "the post-processor's sep"));
        return;
    }
    if (type == "ByteLevel") {
        return; // adjusts offsets only
    }
    if (type == "Sequence") {
        for (const auto& p : pp.at("processors")) {
            readTemplate(p, prefix, suffix, where);
        }
        return;
    }
    throw Error(where, "post-processor \"" + type +
                           "\" is not supported by this tokenizer implementation");
}

} // namespace

Tokenizer Tokenizer::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    return fromJson(text, path);
}

Tokenizer Tokenizer::fromJson(const std::string& text, const std::string& where) {
    json j;
    try {
        j = parseJson(text, DuplicateKeys::LastWins); // a model's own file (DuplicateKeys)
    } catch (const JsonError& e) {
        throw Error(where, e.what());
    }
    try {
        if (!j.is_object() || !j.contains("model") || !j["model"].is_object()) {
            throw Error(where, "not a tokenizer.json (no \"model\" object)");
        }
        Tokenizer t;
        t.m_normalizer = makeNormalizer(j.value("normalizer", json()), where);
        t.m_preTokenizer = makePreTokenizer(j.value("pre_tokenizer", json()), where);
        t.m_model = makeModel(j["model"], where);
        if (j.contains("added_tokens") && j["added_tokens"].is_array()) {
            for (const auto& a : j["added_tokens"]) {
                AddedToken at;
                at.content = a.at("content").get<std::string>();
                at.id = tokenIdOf(a.at("id"), where, "added token \"" + at.content + "\"");
                at.single_word = a.value("single_word", false);
                at.lstrip = a.value("lstrip", false);
                at.rstrip = a.value("rstrip", false);
                at.normalized = a.value("normalized", false);
                at.special = a.value("special", false);
                t.m_added.push_back(std::move(at));
            }
        }
        if (j.contains("post_processor") && !j["post_processor"].is_null()) {
            readTemplate(j["post_processor"], t.m_prefix, t.m_suffix, where);
        }
        const json& pre = j.value("pre_tokenizer", json());
        t.m_byteLevel = pre.dump().find("\"ByteLevel\"") != std::string::npos;
        if (std::string(t.m_model->kind()) == "WordPiece") {
            t.m_wordpiecePrefix = j["model"].value("continuing_subword_prefix", std::string("##"));
        }
        t.finish(where);
        return t;
    } catch (const json::exception& e) {
        throw Error(where, std::string("malformed tokenizer: ") + e.what());
    }
}

Tokenizer Tokenizer::fromGguf(const GgufMetadata& f) {
    const std::string ggmlModel = f.getString("tokenizer.ggml.model"); // GGUF's, not ours
    if (ggmlModel != "gpt2") {
        throw Error(f.path(), "GGUF tokenizer \"" + ggmlModel +
                                  "\" is not supported (gpt2 byte-level BPE only)");
    }
    const auto tokens = f.getStringArray("tokenizer.ggml.tokens");
    const auto types = f.has("tokenizer.ggml.token_type")
                           ? f.getIntArray("tokenizer.ggml.token_type")
                           : std::vector<std::int64_t>();
    std::unordered_map<std::string, std::int32_t> vocab;
    vocab.reserve(tokens.size());
    Tokenizer t;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        vocab.emplace(tokens[i], static_cast<std::int32_t>(i));
        // llama.cpp token types: 3 control, 4 user-defined -> added tokens, as transformers reads
        // them.
        const std::int64_t type = i < types.size() ? types[i] : 1;
        if (type == 3 || type == 4) {
            t.m_added.push_back(AddedToken{static_cast<std::int32_t>(i), tokens[i], false, false,
                                           false, false, type == 3});
        }
    }
    std::vector<std::pair<std::string, std::string>> merges;
    for (const auto& m : f.getStringArray("tokenizer.ggml.merges")) {
        const auto space = m.find(' ', 1);
        if (space == std::string::npos) {
            throw Error(f.path(), "merge \"" + m + "\" is not two tokens");
        }
        merges.emplace_back(m.substr(0, space), m.substr(space + 1));
    }
    t.m_model = makeBpe(std::move(vocab), merges, false, f.path());
    const std::string pre = f.has("tokenizer.ggml.pre") ? f.getString("tokenizer.ggml.pre") : "";
    const bool prefixSpace =
        f.has("tokenizer.ggml.add_space_prefix") && f.getBool("tokenizer.ggml.add_space_prefix");
    t.m_preTokenizer = makeGgufPreTokenizer(pre, prefixSpace, f.path());
    t.m_byteLevel = true;
    // BOS and EOS must be tokens of the vocabulary the file carries.
    const auto special = [&](const char* key) {
        const std::int64_t id = f.getInt(key);
        if (id < 0 || id >= static_cast<std::int64_t>(tokens.size())) {
            throw Error(f.path(), std::string("metadata \"") + key + "\": id " +
                                      std::to_string(id) + " is outside the " +
                                      std::to_string(tokens.size()) + " tokens of the vocabulary");
        }
        return static_cast<std::int32_t>(id);
    };
    if (f.has("tokenizer.ggml.add_bos_token") && f.getBool("tokenizer.ggml.add_bos_token")) {
        t.m_prefix.push_back(special("tokenizer.ggml.bos_token_id"));
    }
    if (f.has("tokenizer.ggml.add_eos_token") && f.getBool("tokenizer.ggml.add_eos_token")) {
        t.m_suffix.push_back(special("tokenizer.ggml.eos_token_id"));
    }
    t.finish(f.path());
    return t;
}

void Tokenizer::finish(const std::string& where) {
    std::size_t n = 0;
    const auto grow = [&](std::int32_t id, const std::string& token) {
        if (id < 0 || id > kMaxTokenId) { // the model's vocabulary (readers check the rest)
            throw Error(where, "token \"" + token + "\" has id " + std::to_string(id) +
                                   ", outside 0.." + std::to_string(kMaxTokenId));
        }
        n = std::max(n, static_cast<std::size_t>(id) + 1);
    };
    for (const auto& [tok, id] : m_model->vocab()) {
        grow(id, tok);
    }
    for (const auto& a : m_added) {
        grow(a.id, a.content);
    }
    for (const auto* ids : {&m_prefix, &m_suffix}) {
        for (const std::int32_t id : *ids) {
            grow(id, "(template)");
        }
    }
    m_idToToken.assign(n, std::string());
    for (const auto& [tok, id] : m_model->vocab()) {
        m_idToToken[static_cast<std::size_t>(id)] = tok;
    }
    for (const auto& a : m_added) {
        m_idToToken[static_cast<std::size_t>(a.id)] = a.content;
    }
    // Longest first: at one position the longest added token wins (leftmost-longest).
    std::stable_sort(m_added.begin(), m_added.end(), [](const AddedToken& a, const AddedToken& b) {
        return a.content.size() > b.content.size();
    });
}

std::size_t Tokenizer::vocabSize() const {
    return m_idToToken.size();
}

std::string Tokenizer::token(std::int32_t id) const {
    return id >= 0 && static_cast<std::size_t>(id) < m_idToToken.size()
               ? m_idToToken[std::size_t(id)]
               : std::string();
}

std::optional<std::int32_t> Tokenizer::tokenId(const std::string& tok) const {
    for (const auto& a : m_added) {
        if (a.content == tok) {
            return a.id;
        }
    }
    const auto it = m_model->vocab().find(tok);
    if (it == m_model->vocab().end()) {
        return std::nullopt;
    }
    return it->second;
}

void Tokenizer::splitAdded(const std::string& text, bool normalizedPass,
                           std::vector<std::pair<std::string, std::int32_t>>& out) const {
    std::size_t pos = 0; // start of the pending plain segment
    std::size_t scan = 0;
    while (scan < text.size()) {
        const AddedToken* hit = nullptr;
        for (const auto& a : m_added) {
            if (a.normalized != normalizedPass || a.content.empty()) {
                continue;
            }
            if (text.compare(scan, a.content.size(), a.content) != 0) {
                continue;
            }
            if (a.single_word) {
                auto before =
                    scan == 0 ? std::vector<char32_t>{} : decodeUtf8(text.substr(0, scan));
                auto after = decodeUtf8(text.substr(scan + a.content.size()));
                if ((!before.empty() && isWordChar(before.back())) ||
                    (!after.empty() && isWordChar(after.front()))) {
                    continue;
                }
            }
            hit = &a;
            break;
        }
        if (hit == nullptr) {
            ++scan;
            continue;
        }
        std::size_t begin = scan;
        std::size_t end = scan + hit->content.size();
        if (hit->lstrip) {
            while (begin > pos && std::isspace(static_cast<unsigned char>(text[begin - 1]))) {
                --begin;
            }
        }
        if (hit->rstrip) {
            while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end]))) {
                ++end;
            }
        }
        if (begin > pos) {
            out.emplace_back(text.substr(pos, begin - pos), -1);
        }
        out.emplace_back(std::string(), hit->id);
        pos = scan = end;
    }
    if (pos < text.size()) {
        out.emplace_back(text.substr(pos), -1);
    }
}

Encoding Tokenizer::encode(std::string_view text, bool addSpecialTokens,
                           std::size_t maxLength) const {
    if (const auto bad = findInvalidUtf8(text); bad != std::string_view::npos) {
        throw Error("input text is not valid UTF-8 at byte " + std::to_string(bad));
    }
    // 1. Added tokens matched on the raw text; 2. the rest normalized, then normalized added
    // tokens; 3. pre-tokenized; 4. the model.
    std::vector<std::pair<std::string, std::int32_t>> raw;
    splitAdded(std::string(text), false, raw);
    Encoding enc;
    for (const auto& [segment, id] : raw) {
        if (id >= 0) {
            enc.ids.push_back(id);
            continue;
        }
        const std::string normalized = m_normalizer ? m_normalizer->apply(segment) : segment;
        std::vector<std::pair<std::string, std::int32_t>> parts;
        splitAdded(normalized, true, parts);
        for (const auto& [piece, pid] : parts) {
            if (pid >= 0) {
                enc.ids.push_back(pid);
                continue;
            }
            std::vector<std::string> pieces{piece};
            if (m_preTokenizer) {
                m_preTokenizer->apply(pieces);
            }
            for (const auto& p : pieces) {
                m_model->tokenize(p, enc.ids);
            }
        }
    }
    const std::size_t special = addSpecialTokens ? specialTokenCount() : 0;
    enc.full_length = enc.ids.size() + special;
    if (maxLength > 0 && enc.full_length > maxLength) {
        enc.ids.resize(maxLength > special ? maxLength - special : 0);
        enc.truncated = true;
    }
    if (addSpecialTokens) {
        enc.ids.insert(enc.ids.begin(), m_prefix.begin(), m_prefix.end());
        enc.ids.insert(enc.ids.end(), m_suffix.begin(), m_suffix.end());
    }
    return enc;
}

std::string Tokenizer::decode(const std::vector<std::int32_t>& ids) const {
    std::string out;
    for (std::int32_t id : ids) {
        const std::string tok = token(id);
        if (m_byteLevel) {
            bool added = false;
            for (const auto& a : m_added) {
                if (a.id == id) {
                    out += a.content;
                    added = true;
                    break;
                }
            }
            if (added) {
                continue;
            }
            for (char32_t c : decodeUtf8(tok, "token")) {
                const int b = charToByte(c);
                if (b >= 0) {
                    out.push_back(static_cast<char>(b));
                } else {
                    appendUtf8(out, c);
                }
            }
        } else if (!m_wordpiecePrefix.empty() && tok.rfind(m_wordpiecePrefix, 0) == 0) {
            out += tok.substr(m_wordpiecePrefix.size());
        } else {
            if (!out.empty()) {
                out += ' ';
            }
            out += tok;
        }
    }
    return out;
}

} // namespace probaudit::tokenizer
