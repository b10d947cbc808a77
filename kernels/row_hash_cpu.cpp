#include "kernels/row_hash.h"

#include <cstring>
#include <stdexcept>

namespace probaudit::kernels {
namespace {

std::uint64_t hashRow(const unsigned char* row, std::int64_t rowBytes) {
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

} // namespace

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

} // namespace probaudit::kernels
