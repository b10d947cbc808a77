#pragma once
// Per-row 64-bit fingerprints of hidden states ("pa64", version 1).
//
// A row is `row_bytes` bytes, read as little-endian 32-bit words w_0 .. w_{n-1} (a trailing
// partial word is zero-padded). Each word is mixed with its index through the splitmix64
// finalizer, which is a bijection, so distinct (index, word) pairs give distinct terms:
//   term_i = mix((i << 32) | w_i)
//   hash   = mix((sum_i term_i mod 2^64) ^ (row_bytes * golden))
// The terms are combined with integer addition, which is associative and commutative: any
// reduction order (a CPU loop, a GPU tree) gives the same bits. That is what lets the GPU
// hash rows where they live and still agree exactly with this CPU reference.
#include <cstddef>
#include <cstdint>

namespace probaudit::kernels {

inline constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

// splitmix64 finalizer (Steele, Lea, Flood 2014); a bijection on 64-bit values.
#if defined(__CUDACC__)
__host__ __device__
#endif
    inline std::uint64_t
    mix64(std::uint64_t x) {
    std::uint64_t z = x + kGolden;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct RowHashParams {
    const unsigned char* data = nullptr; // bytes [rows, row_stride_bytes]
    std::int64_t rows = 0;               // number of rows to hash
    std::int64_t row_bytes = 0;          // bytes hashed per row (>= 0)
    std::int64_t row_stride_bytes = 0;   // distance between row starts (>= row_bytes)
    std::uint64_t* out = nullptr;        // U64 [rows]
};

// CPU reference. Throws std::invalid_argument on inconsistent parameters.
void rowHashCpu(const RowHashParams& p);

// Hash of a single contiguous byte range (one row), with the widest instruction set this CPU
// runs (every one gives the same bits).
std::uint64_t hashBytes(const void* data, std::size_t bytes);

// The instruction sets the CPU row hash is built for, to test and time each one.
enum class HashIsa { Plain, Avx2, Avx512 };
bool hashIsaSupported(HashIsa isa);
HashIsa bestHashIsa();
const char* hashIsaName(HashIsa isa); // plain | avx2 | avx512
// hashBytes with one instruction set; throws std::invalid_argument where the CPU lacks it.
std::uint64_t hashBytesWith(HashIsa isa, const void* data, std::size_t bytes);

#if defined(PROBAUDIT_WITH_CUDA)
// CUDA version: `data` and `out` are device pointers; runs on `stream` (a cudaStream_t, may be
// null for the default stream). Same bits as rowHashCpu for the same bytes.
void rowHashCuda(const RowHashParams& p, void* stream);
#endif

} // namespace probaudit::kernels
