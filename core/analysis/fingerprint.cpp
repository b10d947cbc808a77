#include "analysis/fingerprint.h"

#include <map>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

// Leaves of the fingerprint by dotted path. Arrays are compared whole, except the loaded
// libraries, which are keyed by file name.
void flatten(const json& j, const std::string& prefix, std::map<std::string, json>& out) {
    if (prefix == "libraries" && j.is_array()) {
        for (const auto& lib : j) {
            if (lib.is_object() && lib.contains("name")) {
                out["libraries." + lib["name"].get<std::string>()] = lib.value("path", json());
            }
        }
        return;
    }
    if (j.is_object()) {
        for (const auto& [k, v] : j.items()) {
            flatten(v, prefix.empty() ? k : prefix + "." + k, out);
        }
        return;
    }
    out[prefix] = j;
}

void classify(EnvDifference& d) {
    const std::string top = d.path.substr(0, d.path.find('.'));
    if (top == "os" || top == "schema" || top == "env_vars_watched") {
        d.moves_numerics = false;
        d.why = "does not enter the computation";
    } else if (d.path == "cpu.logical_cores") {
        d.moves_numerics = false;
        d.why = "thread counts are recorded on their own";
    } else if (top == "engine") {
        d.why = "another build of the engine: its code can compute differently";
    } else if (top == "torch") {
        d.why = "another libtorch build: kernels and their dispatch can differ";
    } else if (top == "cuda") {
        d.why = "another CUDA, cuDNN, cuBLAS, GPU or driver: GPU kernels can differ";
    } else if (top == "cpu") {
        d.why = "another CPU or instruction set: ATen and BLAS pick other kernels";
    } else if (top == "threads") {
        d.why = "another thread count: reductions can be split differently";
    } else if (top == "env_vars") {
        d.why = "a numerics-relevant environment variable";
    } else if (top == "kernels") {
        d.why = "other compiled kernels";
    } else if (top == "kind") {
        d.why = "one run is the engine's, the other a server's: another computation altogether";
    } else if (top == "endpoint") {
        d.why = "another server address, API or model name: another server can compute "
                "differently";
    } else if (top == "server") {
        d.why = "the server lists other models or reports another build (server header, "
                "system_fingerprint): its kernels can differ";
    } else if (top == "labels") {
        d.why = "a declared setting of the server changed (its dtype, batching, kernels, ...)";
    } else if (top == "client") {
        d.moves_numerics = false;
        d.why = "ProbAudit's own build: the server computes the numbers";
    } else if (top == "libraries") {
        d.why = d.pinned.is_null() ? "a numerics library is loaded that was not"
                : d.current.is_null()
                    ? "a numerics library that was loaded is missing (the first report's fast path)"
                    : "a different copy of a numerics library is loaded";
    } else {
        d.why = "part of the runtime";
    }
}

} // namespace

std::vector<EnvDifference> fingerprintDiff(const json& pinned, const json& current) {
    std::map<std::string, json> a, b;
    flatten(pinned, "", a);
    flatten(current, "", b);
    std::map<std::string, std::pair<json, json>> all;
    for (const auto& [k, v] : a) {
        all[k].first = v;
    }
    for (const auto& [k, v] : b) {
        all[k].second = v;
    }
    std::vector<EnvDifference> out;
    for (const auto& [path, v] : all) {
        if (v.first != v.second) {
            EnvDifference d{path, v.first, v.second, true, ""};
            classify(d);
            out.push_back(d);
        }
    }
    return out;
}

} // namespace probaudit::analysis
