#include "core/analysis/fingerprint.h"

#include <map>
#include <set>

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

std::string versionText(const json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// The transformers runner's fingerprint (docs/runner-protocol.md, "env"): its kernel libraries,
// packages and Python; false when the path is not one of them.
bool classifyRunner(EnvDifference& d, const std::string& top) {
    const std::string name = d.path.substr(d.path.find('.') + 1);
    const bool absentA = d.pinned.is_null() || d.pinned == "";
    const bool absentB = d.current.is_null() || d.current == "";
    if (top == "kernel_libraries" || top == "packages") {
        const std::string what = top == "kernel_libraries" ? "a kernel library" : "a package";
        d.why = absentB ? name + " " + versionText(d.pinned) + " present in A, absent in B (" +
                              what + " that can change which kernels run)"
                : absentA ? name + " " + versionText(d.current) + " present in B, absent in A (" +
                                what + " that can change which kernels run)"
                          : name + " " + versionText(d.pinned) + " in A, " +
                                versionText(d.current) + " in B";
        return true;
    }
    if (top == "transformers") {
        d.why = "another transformers: its model code can compute differently";
    } else if (top == "torch_cuda" || top == "cudnn" || top == "cublas" || top == "gpus") {
        d.why = "another CUDA build, cuDNN, cuBLAS or GPU: GPU kernels can differ";
    } else if (top == "python") {
        d.why = "another Python";
    } else if (top == "environment" || top == "executable" || top == "prefix" ||
               top == "packages_sha256") {
        d.moves_numerics = false;
        d.why = "names the environment; what differs in it is listed on its own";
    } else if (top == "env") {
        d.why = "a numerics-relevant environment variable";
    } else {
        return false;
    }
    return true;
}

void classify(EnvDifference& d) {
    const std::string top = d.path.substr(0, d.path.find('.'));
    if (classifyRunner(d, top)) {
        return;
    }
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
        d.why = "another runner (the engine, the transformers runner, a server): another "
                "computation altogether";
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

std::vector<std::string> environmentSentences(const json& a, const json& b, std::size_t limit) {
    std::vector<std::string> first, second, rest;
    std::set<std::string> libraries; // a kernel library is also a package: said once
    const auto diffs = fingerprintDiff(a, b);
    for (const EnvDifference& d : diffs) {
        if (d.moves_numerics && d.path.rfind("kernel_libraries.", 0) == 0) {
            libraries.insert(d.path.substr(17));
        }
    }
    for (const EnvDifference& d : diffs) {
        if (!d.moves_numerics || d.path.rfind("threads.", 0) == 0) {
            continue;
        }
        const std::string top = d.path.substr(0, d.path.find('.'));
        if (top == "kernel_libraries") {
            first.push_back(d.why);
        } else if (top == "packages") {
            if (!libraries.count(d.path.substr(9))) {
                second.push_back(d.why);
            }
        } else {
            const auto text = [](const json& v) {
                return v.is_null() ? std::string("absent") : versionText(v);
            };
            rest.push_back(d.path + ": " + text(d.pinned) + " in A, " + text(d.current) +
                           " in B (" + d.why + ")");
        }
    }
    std::vector<std::string> out = first;
    out.insert(out.end(), second.begin(), second.end());
    out.insert(out.end(), rest.begin(), rest.end());
    if (out.size() > limit) {
        const std::size_t more = out.size() - (limit - 1);
        out.resize(limit - 1);
        out.push_back("and " + std::to_string(more) + " more differences");
    }
    return out;
}

} // namespace probaudit::analysis
