#include "kernels/registry.h"

#include "kernels/invariant.h"

#include <sstream>

namespace probaudit::kernels {

KernelBuildInfo kernelBuildInfo() {
    KernelBuildInfo info;
    // Batch-invariant kernels (kernels/invariant.h), each with its CPU reference.
    const std::vector<std::string> invariant = {
        "invariant_matmul",     "invariant_norm",      "invariant_attention",    "invariant_rope",
        "invariant_activation", "invariant_mean_pool", "invariant_l2_normalize", "row_divergence"};
    info.cpu_references = {"row_hash"};
    info.cpu_references.insert(info.cpu_references.end(), invariant.begin(), invariant.end());
    info.invariant_cpu_isa = cpuIsaName(bestCpuIsa());
#if defined(PROBAUDIT_WITH_CUDA)
    info.cuda_compiled = true;
    info.cuda_kernels = {"row_hash"};
    info.cuda_kernels.insert(info.cuda_kernels.end(), invariant.begin(), invariant.end());
    std::istringstream archs(PROBAUDIT_CUDA_ARCHS);
    for (std::string a; std::getline(archs, a, ',');) {
        info.cuda_archs.push_back("sm_" + a);
    }
#endif
    return info;
}

} // namespace probaudit::kernels
