#include "core/engine/kernel_trace.h"

#include "core/common/error.h"

#include <ATen/Context.h>
#include <ATen/record_function.h>
#include <kineto/ActivityType.h>
#include <torch/csrc/autograd/profiler_kineto.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <unordered_map>

namespace probaudit::engine {

namespace {

std::mutex g_mutex;
KernelTrace* g_active = nullptr;
std::unordered_map<std::string, std::int64_t> g_counts;

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (g_active != nullptr) {
        ++g_counts[fn.name()];
    }
    return nullptr;
}

// The profiler's configuration for device kernels: Kineto with CUDA activities only (the
// operators come from the callback above).
const torch::profiler::impl::ProfilerConfig& deviceConfig() {
    static const torch::profiler::impl::ProfilerConfig config(
        torch::profiler::impl::ProfilerState::KINETO);
    return config;
}

const std::set<torch::profiler::impl::ActivityType>& deviceActivities() {
    static const std::set<torch::profiler::impl::ActivityType> acts{
        torch::profiler::impl::ActivityType::CUDA};
    return acts;
}

constexpr int kBatchesPerCollect = 32;

// Each profiling session is prepared, then started, as torch.profiler does.
void enableDeviceProfiler() {
    torch::autograd::profiler::prepareProfiler(deviceConfig(), deviceActivities());
    torch::autograd::profiler::enableProfiler(deviceConfig(), deviceActivities());
}

} // namespace

void KernelTrace::start(bool deviceKernels) {
    {
        const std::lock_guard<std::mutex> lock(g_mutex);
        if (g_active != nullptr) {
            throw Error("a kernel trace is already running in this process");
        }
        g_active = this;
        g_counts.clear();
    }
    m_handle = at::addGlobalCallback(
        at::RecordFunctionCallback(&onStart).scopes({at::RecordScope::FUNCTION}));
    m_active = true;
    if (deviceKernels && !at::hasCUDA()) {
        // Kineto must not be asked for CUDA activities without a device (it crashes).
        m_deviceUnavailable = "no CUDA device in this process";
    } else if (deviceKernels) {
        // A profiler that cannot start (no CUPTI) leaves the run going and says why in the trace.
        try {
            enableDeviceProfiler();
            m_device = true;
            m_sinceCollect = 0;
        } catch (const std::exception& e) {
            m_deviceUnavailable = e.what();
        }
    }
}

void KernelTrace::collectDeviceKernels() {
    const auto result = torch::autograd::profiler::disableProfiler();
    if (!result) {
        return;
    }
    for (const auto& e : result->events()) {
        const auto kind = static_cast<libkineto::ActivityType>(e.activityType());
        if (kind == libkineto::ActivityType::CONCURRENT_KERNEL ||
            kind == libkineto::ActivityType::GPU_MEMCPY ||
            kind == libkineto::ActivityType::GPU_MEMSET) {
            ++m_kernels[e.name()];
        }
    }
}

void KernelTrace::checkpoint() {
    if (!m_device || ++m_sinceCollect < kBatchesPerCollect) {
        return;
    }
    collectDeviceKernels();
    m_sinceCollect = 0;
    try {
        enableDeviceProfiler();
    } catch (const std::exception& e) {
        m_device = false;
        m_deviceUnavailable = std::string("the profiler stopped mid-run: ") + e.what();
    }
}

void KernelTrace::stop() {
    if (!m_active) {
        return;
    }
    if (m_device) {
        collectDeviceKernels();
        m_device = false;
    }
    at::removeCallback(m_handle);
    m_active = false;
    const std::lock_guard<std::mutex> lock(g_mutex);
    for (const auto& [name, n] : g_counts) {
        m_ops[name] += n;
    }
    g_counts.clear();
    g_active = nullptr;
}

KernelTrace::~KernelTrace() {
    stop();
}

nlohmann::json KernelTrace::toJson() const {
    nlohmann::json kernels = nlohmann::json::object();
    for (const auto& [name, n] : m_kernels) {
        kernels[name] = n;
    }
    nlohmann::json out{{"ops", m_ops}, {"device_kernels", kernels}};
    if (!m_deviceUnavailable.empty()) {
        out["device_kernels_unavailable"] = m_deviceUnavailable;
    }
    return out;
}

namespace {

std::atomic<std::int64_t> g_gemmNanos{0}, g_gemmCalls{0};
std::atomic<bool> g_gemmClockRunning{false};

bool isGemm(const char* name) {
    static const std::set<std::string> gemms{"aten::mm",
                                             "aten::addmm",
                                             "aten::bmm",
                                             "aten::baddbmm",
                                             "aten::mv",
                                             "aten::addmv",
                                             "mkldnn::_linear_pointwise"}; // the last: gemm onednn
    return gemms.count(name) != 0;
}

struct GemmStart : at::ObserverContext {
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
};

std::unique_ptr<at::ObserverContext> onGemmStart(const at::RecordFunction& fn) {
    return isGemm(fn.name()) ? std::make_unique<GemmStart>() : nullptr;
}

void onGemmEnd(const at::RecordFunction&, at::ObserverContext* ctx) {
    if (ctx == nullptr) {
        return;
    }
    const auto t0 = static_cast<GemmStart*>(ctx)->t0;
    g_gemmNanos +=
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    ++g_gemmCalls;
}

} // namespace

GemmClock::GemmClock() {
    if (g_gemmClockRunning.exchange(true)) {
        throw Error("a GEMM clock is already running in this process");
    }
    g_gemmNanos = 0;
    g_gemmCalls = 0;
    try {
        m_handle = at::addGlobalCallback(at::RecordFunctionCallback(&onGemmStart, &onGemmEnd)
                                             .scopes({at::RecordScope::FUNCTION}));
    } catch (...) {
        g_gemmClockRunning = false;
        throw;
    }
}

GemmClock::~GemmClock() {
    at::removeCallback(m_handle);
    g_gemmClockRunning = false;
}

double GemmClock::seconds() const {
    return double(g_gemmNanos.load()) * 1e-9;
}

std::int64_t GemmClock::calls() const {
    return g_gemmCalls.load();
}

} // namespace probaudit::engine
