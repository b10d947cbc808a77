// The pa64 row hash (row_hash.h) with a C ABI, built as libprobaudit_rowhash.so for the
// transformers runner: runners/python/probaudit_runner/rowhash.py loads it with ctypes, so that
// a runner hashes its hidden states with the engine's own code in one pass instead of a dozen
// numpy passes over 64-bit copies. It depends on nothing but the C++ runtime (no torch: the
// runner's torch is the user's, of any version).
#include "kernels/row_hash.h"

extern "C" {

// The library's version of this interface; the runner checks it before the first call.
__attribute__((visibility("default"))) int probaudit_rowhash_abi();

// Hashes n byte ranges: range k starts at address starts[k] and is lengths[k] bytes long;
// out[k] receives its pa64. Returns 0, or -1 (nothing written) for a null pointer or a negative
// length.
__attribute__((visibility("default"))) int probaudit_pa64_spans(const std::uint64_t* starts,
                                                                const std::int64_t* lengths,
                                                                std::int64_t n, std::uint64_t* out);

int probaudit_rowhash_abi() {
    return 1;
}

int probaudit_pa64_spans(const std::uint64_t* starts, const std::int64_t* lengths, std::int64_t n,
                         std::uint64_t* out) {
    if (n < 0 || (n > 0 && (starts == nullptr || lengths == nullptr || out == nullptr))) {
        return -1;
    }
    for (std::int64_t k = 0; k < n; ++k) {
        if (lengths[k] < 0 || (lengths[k] > 0 && starts[k] == 0)) {
            return -1;
        }
    }
    for (std::int64_t k = 0; k < n; ++k) {
        out[k] = probaudit::kernels::hashBytes(reinterpret_cast<const void*>(starts[k]),
                                               static_cast<std::size_t>(lengths[k]));
    }
    return 0;
}

} // extern "C"
