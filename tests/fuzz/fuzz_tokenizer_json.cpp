// libFuzzer: tokenizer.json documents (libFuzzer's byte-level mutations of the fixtures'
// files) are loaded or refused with probaudit::Error; a loaded tokenizer then encodes a fixed
// set of texts without crashing (tokenizer_input.h).
#include "tokenizer_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    probaudit::fuzz::loadAndEncode(data, size);
    return 0;
}
