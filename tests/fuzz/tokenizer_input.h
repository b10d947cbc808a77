#pragma once
// What both tokenizer.json fuzzers do with an input: load it as a tokenizer or refuse it with
// probaudit::Error; a loaded tokenizer then encodes a fixed set of texts (empty, ASCII, mixed
// scripts and emoji, whitespace) or refuses each with probaudit::Error.
#include "core/common/error.h"
#include "core/tokenizer/tokenizer.h"

#include <cstdint>
#include <string>

namespace probaudit::fuzz {

inline void loadAndEncode(const std::uint8_t* data, std::size_t size) {
    try {
        const auto tok = tokenizer::Tokenizer::fromJson(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz/tokenizer.json");
        for (const char* text : {"", "Hello, world!", "café 123 안녕 👍🏽", "  \n\t x"}) {
            try {
                tok.encode(text, true, 16);
            } catch (const Error&) {
            }
        }
    } catch (const Error&) {
    }
}

} // namespace probaudit::fuzz
