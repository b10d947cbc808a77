// CUDA version of kernels/row_hash.h. One block per row; each thread sums the mixed terms of a
// strided subset of the row's words, then the block adds the partial sums. Integer addition
// is associative, so the result is the CPU reference's bits whatever the thread count.
#include "kernels/row_hash.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace probaudit::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void rowHashKernel(RowHashParams p) {
    const std::int64_t row = blockIdx.x;
    const unsigned char* base = p.data + row * p.row_stride_bytes;
    const std::int64_t fullWords = p.row_bytes / 4;
    const std::int64_t tail = p.row_bytes % 4;
    const std::int64_t words = fullWords + (tail != 0 ? 1 : 0);

    std::uint64_t acc = 0;
    for (std::int64_t i = threadIdx.x; i < words; i += blockDim.x) {
        std::uint32_t w = 0;
        const std::int64_t n = (i < fullWords) ? 4 : tail;
        for (std::int64_t k = 0; k < n; ++k) {
            w |= std::uint32_t(base[4 * i + k]) << (8 * k);
        }
        acc += mix64((std::uint64_t(i) << 32) | w);
    }

    __shared__ std::uint64_t partial[kThreads];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            partial[threadIdx.x] += partial[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        p.out[row] = mix64(partial[0] ^ (std::uint64_t(p.row_bytes) * kGolden));
    }
}

} // namespace

void rowHashCuda(const RowHashParams& p, void* stream) {
    if (p.rows < 0 || p.row_bytes < 0 || p.row_stride_bytes < p.row_bytes) {
        throw std::invalid_argument("rowHashCuda: negative size or stride shorter than a row");
    }
    if (p.rows == 0) {
        return;
    }
    rowHashKernel<<<static_cast<unsigned>(p.rows), kThreads, 0,
                    static_cast<cudaStream_t>(stream)>>>(p);
    if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
        throw std::runtime_error(std::string("rowHashCuda: launch failed: ") +
                                 cudaGetErrorString(err));
    }
}

} // namespace probaudit::kernels
