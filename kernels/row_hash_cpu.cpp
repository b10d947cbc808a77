#include "kernels/row_hash.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace probaudit::kernels {
namespace {

inline __attribute__((always_inline)) std::uint64_t hashRowBody(const unsigned char* row,
                                                                std::int64_t rowBytes) {
    std::uint64_t acc = 0;
    const std::int64_t fullWords = rowBytes / 4;
    for (std::int64_t i = 0; i < fullWords; ++i) {
        const unsigned char* b = row + 4 * i;
        const std::uint32_t w = std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 8) |
                                (std::uint32_t(b[2]) << 16) | (std::uint32_t(b[3]) << 24);
        acc += mix64((std::uint64_t(i) << 32) | w);
    }
    if (const std::int64_t tail = rowBytes % 4; tail != 0) {
        std::uint32_t w = 0;
        for (std::int64_t k = 0; k < tail; ++k) {
            w |= std::uint32_t(row[4 * fullWords + k]) << (8 * k);
        }
        acc += mix64((std::uint64_t(fullWords) << 32) | w);
    }
    return mix64(acc ^ (std::uint64_t(rowBytes) * kGolden));
}

// Integer arithmetic only, so every instruction set gives the same bits (tests/test_row_hash
// checks each against the golden values); the wider ones mix 4 (AVX2) or 8 (AVX-512DQ's 64-bit
// multiply) words at a time: bench/micro_bench's BM_RowHash. Capture `hashes` hashes every
// layer of every batch.
std::uint64_t hashRowPlain(const unsigned char* row, std::int64_t rowBytes) {
    return hashRowBody(row, rowBytes);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) std::uint64_t hashRowAvx2(const unsigned char* row,
                                                          std::int64_t rowBytes) {
    return hashRowBody(row, rowBytes);
}

__attribute__((target("avx512f,avx512dq"))) std::uint64_t hashRowAvx512(const unsigned char* row,
                                                                        std::int64_t rowBytes) {
    return hashRowBody(row, rowBytes);
}
#endif

using HashRowFn = std::uint64_t (*)(const unsigned char*, std::int64_t);

HashRowFn hashRowFor(HashIsa isa) {
    if (!hashIsaSupported(isa)) {
        throw std::invalid_argument(std::string("row hash: this CPU does not run ") +
                                    hashIsaName(isa));
    }
    switch (isa) {
#if defined(__x86_64__)
    case HashIsa::Avx2:
        return hashRowAvx2;
    case HashIsa::Avx512:
        return hashRowAvx512;
#endif
    default:
        return hashRowPlain;
    }
}

std::uint64_t hashRow(const unsigned char* row, std::int64_t rowBytes) {
    static const HashRowFn best = hashRowFor(bestHashIsa());
    return best(row, rowBytes);
}

} // namespace

bool hashIsaSupported(HashIsa isa) {
    switch (isa) {
    case HashIsa::Plain:
        return true;
#if defined(__x86_64__)
    case HashIsa::Avx2:
        return __builtin_cpu_supports("avx2");
    case HashIsa::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    default:
        return false;
#endif
    }
    return false;
}

HashIsa bestHashIsa() {
    return hashIsaSupported(HashIsa::Avx512) ? HashIsa::Avx512
           : hashIsaSupported(HashIsa::Avx2) ? HashIsa::Avx2
                                             : HashIsa::Plain;
}

const char* hashIsaName(HashIsa isa) {
    switch (isa) {
    case HashIsa::Avx2:
        return "avx2";
    case HashIsa::Avx512:
        return "avx512";
    default:
        return "plain";
    }
}

void rowHashCpu(const RowHashParams& p) {
    if (p.rows < 0 || p.row_bytes < 0 || p.row_stride_bytes < p.row_bytes) {
        throw std::invalid_argument("rowHashCpu: negative size or stride shorter than a row");
    }
    if (p.rows > 0 && (p.out == nullptr || (p.data == nullptr && p.row_bytes > 0))) {
        throw std::invalid_argument("rowHashCpu: null data or output pointer");
    }
    for (std::int64_t r = 0; r < p.rows; ++r) {
        p.out[r] = hashRow(p.data + r * p.row_stride_bytes, p.row_bytes);
    }
}

std::uint64_t hashBytes(const void* data, std::size_t bytes) {
    return hashRow(static_cast<const unsigned char*>(data), static_cast<std::int64_t>(bytes));
}

std::uint64_t hashBytesWith(HashIsa isa, const void* data, std::size_t bytes) {
    return hashRowFor(isa)(static_cast<const unsigned char*>(data),
                           static_cast<std::int64_t>(bytes));
}

} // namespace probaudit::kernels
