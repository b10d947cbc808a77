#pragma once
// The error every tokenizer component gives for a part of tokenizer.json it does not implement:
// refused by name rather than skipped (components.h).
#include "core/common/error.h"

#include <string>

namespace probaudit::tokenizer {

[[noreturn]] inline void unsupported(const std::string& where, const std::string& what) {
    throw Error(where, what + " is not supported by this tokenizer implementation");
}

} // namespace probaudit::tokenizer
