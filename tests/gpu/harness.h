#pragma once
// A minimal test harness for the `gpu` suites: they must build where there is no Qt (the GPU
// machine of scripts/gpu-check.sh has a Python torch and nvcc, nothing else). A suite is a list
// of named cases; GPU_CHECK records a failure and goes on; main() returns 77 (CTest's skip code)
// when no CUDA device is usable, 1 on any failure. scripts/gpu-check.sh sets
// PROBAUDIT_REQUIRE_GPU on a GPU machine: there a suite that finds no device fails instead of
// passing as skipped. A CUDA error left by a case (a faulting kernel) fails that case.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gpu_test {

inline int& failures() {
    static int n = 0;
    return n;
}

inline std::vector<std::pair<std::string, std::function<void()>>>& cases() {
    static std::vector<std::pair<std::string, std::function<void()>>> c;
    return c;
}

struct Register {
    Register(const char* name, std::function<void()> fn) {
        cases().emplace_back(name, std::move(fn));
    }
};

inline int runAll(int argc, char** argv) {
    int devices = 0;
    const cudaError_t found = cudaGetDeviceCount(&devices);
    if (found != cudaSuccess || devices == 0) {
        std::printf("SKIP: no CUDA device (%s)\n",
                    found != cudaSuccess ? cudaGetErrorString(found) : "none found");
        return std::getenv("PROBAUDIT_REQUIRE_GPU") != nullptr ? 1 : 77;
    }
    for (const auto& [name, fn] : cases()) {
        if (argc > 1 && name.find(argv[1]) == std::string::npos) {
            continue;
        }
        const int before = failures();
        try {
            fn();
        } catch (const std::exception& e) {
            std::printf("  exception: %s\n", e.what());
            ++failures();
        }
        if (const cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) {
            std::printf("  CUDA error after the case: %s\n", cudaGetErrorString(err));
            ++failures();
        }
        std::printf("%s: %s\n", failures() == before ? "PASS" : "FAIL", name.c_str());
        std::fflush(stdout);
    }
    std::printf("%s (%d failed checks)\n", failures() == 0 ? "ALL PASSED" : "FAILED", failures());
    return failures() == 0 ? 0 : 1;
}

} // namespace gpu_test

#define GPU_CASE(name)                                                                             \
    static void name();                                                                            \
    static const gpu_test::Register name##_reg(#name, name);                                       \
    static void name()

#define GPU_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::printf("  check failed at %s:%d: %s ", __FILE__, __LINE__, #cond);                \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
            ++gpu_test::failures();                                                                \
        }                                                                                          \
    } while (0)
