#pragma once
// The Unicode facts the tokenizers need, from utf8proc (Debian's libutf8proc): UTF-8 decoding
// with validation, general categories, normalization forms, case mapping; plus the few
// predicates the reference tokenizers define in terms of them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit::tokenizer {

// Decodes UTF-8; throws probaudit::Error("... is not valid UTF-8 at byte N") otherwise.
std::vector<char32_t> decodeUtf8(std::string_view s, const char* what = "text");
void appendUtf8(std::string& out, char32_t c);
std::string encodeUtf8(const std::vector<char32_t>& cps);
// Byte offset of the first invalid sequence, or npos when `s` is valid UTF-8.
std::size_t findInvalidUtf8(std::string_view s);

enum class Form { NFC, NFD, NFKC, NFKD };
std::string normalize(std::string_view s, Form form);

bool isWhitespace(char32_t c);  // Unicode White_Space (Rust char::is_whitespace)
bool isPunctuation(char32_t c); // general category P*
bool isAsciiPunctuation(char32_t c);
bool isControlOrOther(char32_t c); // Cc, Cf, Cn, Co, Cs (Rust char::is_other)
bool isNonspacingMark(char32_t c); // Mn
bool isNumeric(char32_t c);        // Nd, Nl, No (Rust char::is_numeric)
bool isChineseChar(char32_t c);    // the CJK blocks BERT pads with spaces
// Full lower-case mapping of one code point (U+0130 maps to two code points).
void appendLowercase(std::vector<char32_t>& out, char32_t c);

} // namespace probaudit::tokenizer
