// The transformers runner's operator counts (trace.py): a RecordFunction callback on every ATen
// operator call, as the engine's kernel trace observes them (core/engine/kernel_trace.cpp),
// compiled on first use against the torch of the runner's own environment (its headers and
// libraries, so its ABI is that torch's) and loaded with ctypes. A C ABI, nothing else.
//
//   probaudit_optrace_start()            0, or 1 when already counting
//   probaudit_optrace_stop()             stops counting; the counts stay
//   probaudit_optrace_read(out, cap)     "name\tcount\n" lines of the counts so far into out,
//                                        NUL-terminated, and clears them; returns the length,
//                                        or -(bytes needed) when cap is too small (nothing
//                                        cleared)
#include <ATen/record_function.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {

std::mutex g_mutex;
std::unordered_map<std::string, std::int64_t> g_counts;
std::uint64_t g_handle = 0;
bool g_counting = false;

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    ++g_counts[fn.name()];
    return nullptr;
}

} // namespace

extern "C" {

int probaudit_optrace_start() {
    if (g_counting) {
        return 1;
    }
    g_handle = at::addGlobalCallback(
        at::RecordFunctionCallback(&onStart).scopes({at::RecordScope::FUNCTION}));
    g_counting = true;
    return 0;
}

void probaudit_optrace_stop() {
    if (g_counting) {
        at::removeCallback(g_handle);
        g_counting = false;
    }
}

long long probaudit_optrace_read(char* out, long long cap) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    std::string text;
    for (const auto& [name, n] : g_counts) {
        text += name + '\t' + std::to_string(n) + '\n';
    }
    const auto needed = static_cast<long long>(text.size() + 1);
    if (needed > cap) {
        return -needed;
    }
    std::memcpy(out, text.c_str(), text.size() + 1);
    g_counts.clear();
    return needed - 1;
}
}
