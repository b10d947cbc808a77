// libFuzzer: GGUF images are parsed or refused with probaudit::Error; accepted tensors of a
// dequantizable type are dequantized (reads stay inside the image, checked by ASan).
#include "core/common/error.h"
#include "core/model/gguf.h"
#include "core/model/gguf_llama.h"

#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto h = probaudit::model::parseGguf({data, size}, "fuzz.gguf");
        for (const auto& t : h.tensors) {
            if (probaudit::model::ggmlCanDequantize(t.type) && t.numel() <= (1 << 16)) {
                std::vector<float> out(static_cast<std::size_t>(t.numel()));
                probaudit::model::dequantizeRow(t.type, data + h.data_start + t.offset, out.data(),
                                                t.numel());
            }
        }
    } catch (const probaudit::Error&) {
    }
    return 0;
}
