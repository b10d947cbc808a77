// Normalizers of a tokenizer.json (components.h): BERT's, the Unicode forms, lowercase,
// accent stripping, literal replace, prepend, and sequences of them.
#include "core/tokenizer/components.h"
#include "core/tokenizer/unicode.h"
#include "core/tokenizer/unsupported.h"

namespace probaudit::tokenizer {

using nlohmann::json;

namespace {

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

} // namespace

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

} // namespace probaudit::tokenizer
