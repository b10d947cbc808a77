#include "app/probaudit/pin.h"

#include "core/common/protocol.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <sstream>

namespace probaudit::app {

using nlohmann::json;

std::string formatPin(const tasks::PinResult& r) {
    std::ostringstream o;
    o << "pinned run " << r.run << " (" << r.head << ", " << r.configName << ") in " << r.output
      << ": environment " << r.envHash << ", records " << r.recordsSha256.substr(0, 16) << "..., "
      << r.sampleItems << "-item sample\n";
    return o.str();
}

std::string formatCheck(const tasks::CheckResult& c, const std::string& lockPath, bool asJson) {
    if (asJson) {
        return c.result.dump(2) + "\n";
    }
    std::ostringstream o;
    const RuntimeLock& lock = c.lock;
    const auto& diffs = c.differences;
    o << "runtime lock " << lockPath << " (run " << lock.run << ", " << lock.config_name
      << ", pinned " << lock.created << ")\n";
    if (diffs.empty()) {
        o << "environment: identical to the pinned one\n";
    } else {
        o << "environment: " << diffs.size() << " difference" << (diffs.size() == 1 ? "" : "s")
          << "\n";
        for (const auto& d : diffs) {
            o << "  " << (d.moves_numerics ? "[can move numbers] " : "[harmless]         ")
              << d.path << ": " << (d.pinned.is_null() ? "(absent)" : d.pinned.dump()) << " -> "
              << (d.current.is_null() ? "(absent)" : d.current.dump()) << "  (" << d.why << ")\n";
        }
    }
    if (c.result.contains("sample")) {
        const auto& sm = c.result.at("sample");
        o << "results: " << sm.at("changed").get<std::int64_t>() << " of "
          << sm.at("items").get<std::size_t>() << " sample items differ from the pinned bits"
          << (sm.at("changed").get<std::int64_t>() == 0 ? " (bit-identical)" : "") << "\n";
    }
    o << (c.exit == 0 ? "OK: this runtime matches the pin\n"
          : c.exit == protocol::kExitEnvironmentDiffers
              ? "WARNING: the runtime differs from the pinned one in ways that can move "
                "numbers (exit 3)\n"
              : "FAILED: results differ from the pinned ones (exit 4)\n");
    return o.str();
}

} // namespace probaudit::app
