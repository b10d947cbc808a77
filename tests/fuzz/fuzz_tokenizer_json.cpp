// libFuzzer: tokenizer.json documents are loaded or refused with probaudit::Error; a loaded
// tokenizer then encodes a fixed set of texts without crashing.
#include "common/error.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto tok = probaudit::tokenizer::Tokenizer::fromJson(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz/tokenizer.json");
        for (const char* text : {"", "Hello, world!", "café 123 안녕 👍🏽", "  \n\t x"}) {
            try {
                tok.encode(text, true, 16);
            } catch (const probaudit::Error&) {
            }
        }
    } catch (const probaudit::Error&) {
    }
    return 0;
}
