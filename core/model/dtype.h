#pragma once
// Element types of stored tensors (safetensors and GGUF plain types).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace probaudit::model {

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

std::size_t dtypeSize(DType t);
const char* dtypeName(DType t); // safetensors spelling: "F32", "BF16", ...
std::optional<DType> parseSafetensorsDType(std::string_view name);

} // namespace probaudit::model
