// The kernels of invariant_cpu_impl.h for one instruction set (flags in kernels/CMakeLists.txt).
#define PA_ISA_NS isa_avx2
#define PA_ISA_LEVEL 1
#include "kernels/invariant_cpu_impl.h"
