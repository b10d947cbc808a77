#include "engine/kernel_trace.h"

#include "common/error.h"

#include <ATen/record_function.h>

#include <mutex>
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

} // namespace

void KernelTrace::start() {
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
}

void KernelTrace::stop() {
    if (!m_active) {
        return;
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

KernelTrace::~KernelTrace() { stop(); }

nlohmann::json KernelTrace::toJson() const {
    return nlohmann::json{{"ops", m_ops}, {"device_kernels", nlohmann::json::object()}};
}

} // namespace probaudit::engine
