#pragma once
// What the kernels/ library was built with: reported in the environment fingerprint.
#include <string>
#include <vector>

namespace probaudit::kernels {

struct KernelBuildInfo {
    bool cuda_compiled = false;              // CUDA sources were compiled in
    std::vector<std::string> cuda_archs;     // e.g. {"sm_80", "sm_90"}
    std::vector<std::string> cuda_kernels;   // CUDA kernels present in this binary
    std::vector<std::string> cpu_references; // CPU reference kernels (always present)
    std::string invariant_cpu_isa;           // instruction set of the batch-invariant CPU kernels
                                   // here (scalar | avx2 | avx512; all give the same bits)
};

KernelBuildInfo kernelBuildInfo();

} // namespace probaudit::kernels
