#pragma once
// The kernel trace (DESIGN.md): which ATen operators actually ran during a run, with call
// counts, observed through libtorch's RecordFunction callbacks, and, for a run on a CUDA device,
// which device kernels (and copies and fills) the GPU executed, read from libtorch's profiler
// (Kineto over CUPTI). It is evidence of the computation path (e.g. scaled_dot_product_attention's
// flash kernel vs bmm + softmax, cuBLAS's kernel choice) that no log line can replace.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace probaudit::engine {

class KernelTrace {
public:
    // Starts observing (one trace at a time in a process; a second start throws). With
    // deviceKernels the profiler also records what ran on the GPU.
    void start(bool deviceKernels = false);
    // Between batches: hands the device kernels seen so far over to the counts every few calls,
    // so that a long run does not hold every kernel event in memory.
    void checkpoint();
    // Stops observing; counts stay available.
    void stop();
    ~KernelTrace();

    const std::map<std::string, std::int64_t>& ops() const { return m_ops; }
    const std::map<std::string, std::int64_t>& deviceKernels() const { return m_kernels; }
    // {"ops": {"aten::mm": 12, ...}, "device_kernels": {"sm90_xmma_gemm_...": 12, ...}}, plus
    // "device_kernels_unavailable": reason when the profiler could not start on a CUDA run.
    nlohmann::json toJson() const;

private:
    void collectDeviceKernels();

    std::map<std::string, std::int64_t> m_ops;
    std::map<std::string, std::int64_t> m_kernels;
    std::uint64_t m_handle = 0;
    bool m_active = false;
    bool m_device = false;
    std::string m_deviceUnavailable; // why the profiler could not record device kernels
    int m_sinceCollect = 0;
};

// Wall time spent inside the matrix multiplies (aten::mm, addmm, bmm, baddbmm, mv, addmv: what
// linear layers and eager attention run; their threads work inside these calls) while it is
// running, on every thread that calls them. For benchmarks: the share of a pass that is GEMM,
// the floor that the engine and transformers share. One at a time in a process.
class GemmClock {
public:
    GemmClock();
    ~GemmClock();
    GemmClock(const GemmClock&) = delete;
    GemmClock& operator=(const GemmClock&) = delete;
    double seconds() const;
    std::int64_t calls() const;

private:
    std::uint64_t m_handle = 0;
};

} // namespace probaudit::engine
