#include "kernels/registry.h"

#include <sstream>

namespace probaudit::kernels {

KernelBuildInfo kernelBuildInfo() {
    KernelBuildInfo info;
    info.cpu_references = {"row_hash"};
#if defined(PROBAUDIT_WITH_CUDA)
    info.cuda_compiled = true;
    info.cuda_kernels = {"row_hash"};
    std::istringstream archs(PROBAUDIT_CUDA_ARCHS);
    for (std::string a; std::getline(archs, a, ',');) {
        info.cuda_archs.push_back("sm_" + a);
    }
#endif
    return info;
}

} // namespace probaudit::kernels
