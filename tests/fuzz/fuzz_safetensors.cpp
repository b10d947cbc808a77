// libFuzzer: any byte image is either parsed into a consistent header or refused with
// probaudit::Error; never a crash, an out-of-bounds read or undefined behaviour.
#include "core/common/error.h"
#include "core/model/safetensors.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto h = probaudit::model::parseSafetensors({data, size}, "fuzz.safetensors");
        for (const auto& t : h.tensors) {
            // Every accepted tensor lies inside the image.
            if (h.data_start + t.begin + t.nbytes > size) {
                std::abort();
            }
        }
    } catch (const probaudit::Error&) {
    }
    return 0;
}
