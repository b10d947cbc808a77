#include "core/engine/weights.h"

#include "core/common/error.h"

#include <cstring>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace probaudit::engine {

at::ScalarType toScalarType(model::DType t) {
    using model::DType;
    switch (t) {
    case DType::F64:
        return at::kDouble;
    case DType::F32:
        return at::kFloat;
    case DType::F16:
        return at::kHalf;
    case DType::BF16:
        return at::kBFloat16;
    case DType::I64:
        return at::kLong;
    case DType::I32:
        return at::kInt;
    case DType::I16:
        return at::kShort;
    case DType::I8:
        return at::kChar;
    case DType::U8:
        return at::kByte;
    case DType::Bool:
        return at::kBool;
    }
    throw Error("unknown stored dtype");
}

at::Tensor tensorFromBytes(std::span<const std::uint8_t> bytes, model::DType dtype,
                           const std::vector<std::int64_t>& shape,
                           std::optional<at::ScalarType> target) {
    at::Tensor t = at::empty(shape, at::TensorOptions().dtype(toScalarType(dtype)));
    if (static_cast<std::size_t>(t.nbytes()) != bytes.size()) {
        throw Error("tensor byte count " + std::to_string(bytes.size()) +
                    " does not match its shape (" + std::to_string(t.nbytes()) + " bytes)");
    }
    // A copy: the mapped bytes may be unaligned, and the tensor must outlive the map.
    if (!bytes.empty()) {
        std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
    }
    if (target && *target != t.scalar_type()) {
        t = t.to(*target);
    }
    return t;
}

at::Tensor tensorFromFloats(const std::vector<float>& values,
                            const std::vector<std::int64_t>& shape,
                            std::optional<at::ScalarType> target) {
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(values.data()),
                                              values.size() * sizeof(float));
    return tensorFromBytes(bytes, model::DType::F32, shape, target);
}

at::Tensor loadTensor(const model::SafetensorsCheckpoint& ckpt, const std::string& name,
                      std::optional<at::ScalarType> target) {
    const auto& entry = ckpt.at(name);
    return tensorFromBytes(entry.file->bytes(*entry.info), entry.info->dtype, entry.info->shape,
                           target);
}

void releaseFreedHeap() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace probaudit::engine
