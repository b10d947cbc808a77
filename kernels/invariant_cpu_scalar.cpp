// The kernels of invariant_cpu_impl.h for one instruction set (flags in kernels/CMakeLists.txt).
#define PA_ISA_NS isa_scalar
#define PA_ISA_LEVEL 0
#include "kernels/invariant_cpu_impl.h"
