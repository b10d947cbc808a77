#pragma once
// The kernel trace (DESIGN.md): which ATen operators actually ran during a run, with call
// counts, observed through libtorch's RecordFunction callbacks. It is evidence of the
// computation path (e.g. scaled_dot_product_attention's CPU flash kernel vs bmm + softmax)
// that no log line can replace. Device kernels (CUDA) need the profiler and are recorded
// only where it is available.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace probaudit::engine {

class KernelTrace {
public:
    // Starts observing (one trace at a time in a process; a second start throws).
    void start();
    // Stops observing; counts stay available.
    void stop();
    ~KernelTrace();

    const std::map<std::string, std::int64_t>& ops() const { return m_ops; }
    nlohmann::json toJson() const; // {"ops": {"aten::mm": 12, ...}, "device_kernels": {}}

private:
    std::map<std::string, std::int64_t> m_ops;
    std::uint64_t m_handle = 0;
    bool m_active = false;
};

} // namespace probaudit::engine
