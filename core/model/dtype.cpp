#include "core/model/dtype.h"

#include <array>
#include <utility>

namespace probaudit::model {
namespace {
constexpr std::array<std::pair<DType, const char*>, 10> kNames = {{{DType::F64, "F64"},
                                                                   {DType::F32, "F32"},
                                                                   {DType::F16, "F16"},
                                                                   {DType::BF16, "BF16"},
                                                                   {DType::I64, "I64"},
                                                                   {DType::I32, "I32"},
                                                                   {DType::I16, "I16"},
                                                                   {DType::I8, "I8"},
                                                                   {DType::U8, "U8"},
                                                                   {DType::Bool, "BOOL"}}};
} // namespace

std::size_t dtypeSize(DType t) {
    switch (t) {
    case DType::F64:
    case DType::I64:
        return 8;
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::F16:
    case DType::BF16:
    case DType::I16:
        return 2;
    case DType::I8:
    case DType::U8:
    case DType::Bool:
        return 1;
    }
    return 0;
}

const char* dtypeName(DType t) {
    for (const auto& [d, n] : kNames) {
        if (d == t) {
            return n;
        }
    }
    return "?";
}

std::optional<DType> parseSafetensorsDType(std::string_view name) {
    for (const auto& [d, n] : kNames) {
        if (name == n) {
            return d;
        }
    }
    return std::nullopt;
}

} // namespace probaudit::model
