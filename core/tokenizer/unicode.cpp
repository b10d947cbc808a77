#include "core/tokenizer/unicode.h"

#include "core/common/error.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

namespace probaudit::tokenizer {

namespace {

// Decodes the code point at byte i; returns its length in bytes, or 0 for invalid UTF-8.
std::size_t nextCodepoint(std::string_view s, std::size_t i, char32_t& cp) {
    utf8proc_int32_t c = 0;
    const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                    static_cast<utf8proc_ssize_t>(s.size() - i), &c);
    cp = static_cast<char32_t>(c);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
}

} // namespace

std::size_t findInvalidUtf8(std::string_view s) {
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = nextCodepoint(s, i, cp);
        if (n == 0) {
            return i;
        }
        i += n;
    }
    return std::string_view::npos;
}

std::vector<char32_t> decodeUtf8(std::string_view s, const char* what) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    char32_t cp = 0;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = nextCodepoint(s, i, cp);
        if (n == 0) {
            throw Error(std::string(what) + " is not valid UTF-8 at byte " + std::to_string(i));
        }
        out.push_back(cp);
        i += n;
    }
    return out;
}

void appendUtf8(std::string& out, char32_t c) {
    utf8proc_uint8_t buf[4];
    const auto n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
    out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

std::string encodeUtf8(const std::vector<char32_t>& cps) {
    std::string out;
    out.reserve(cps.size());
    for (char32_t c : cps) {
        appendUtf8(out, c);
    }
    return out;
}

std::string normalize(std::string_view s, Form form) {
    int options = UTF8PROC_STABLE;
    switch (form) {
    case Form::NFC:
        options |= UTF8PROC_COMPOSE;
        break;
    case Form::NFD:
        options |= UTF8PROC_DECOMPOSE;
        break;
    case Form::NFKC:
        options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
        break;
    case Form::NFKD:
        options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
        break;
    }
    utf8proc_uint8_t* dst = nullptr;
    const auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                static_cast<utf8proc_ssize_t>(s.size()), &dst,
                                static_cast<utf8proc_option_t>(options));
    if (n < 0) {
        throw Error(std::string("Unicode normalization failed: ") + utf8proc_errmsg(n));
    }
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(dst, &std::free);
    return std::string(reinterpret_cast<const char*>(dst), static_cast<std::size_t>(n));
}

bool isWhitespace(char32_t c) {
    // Unicode White_Space (PropList.txt); the set Rust's char::is_whitespace uses.
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

bool isPunctuation(char32_t c) {
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
        return true;
    default:
        return false;
    }
}

bool isAsciiPunctuation(char32_t c) {
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
           (c >= 0x7B && c <= 0x7E);
}

bool isControlOrOther(char32_t c) {
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CS:
        return true;
    default:
        return false;
    }
}

bool isNonspacingMark(char32_t c) {
    return utf8proc_category(static_cast<utf8proc_int32_t>(c)) == UTF8PROC_CATEGORY_MN;
}

bool isNumeric(char32_t c) {
    const auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
           cat == UTF8PROC_CATEGORY_NO;
}

bool isChineseChar(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

void appendLowercase(std::vector<char32_t>& out, char32_t c) {
    if (c == 0x130) { // SpecialCasing: LATIN CAPITAL LETTER I WITH DOT ABOVE -> i + COMBINING DOT
        out.push_back(0x69);
        out.push_back(0x307);
        return;
    }
    out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
}

} // namespace probaudit::tokenizer
