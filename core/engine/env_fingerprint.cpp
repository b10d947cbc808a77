#include "core/engine/env_fingerprint.h"

#include "core/common/build_info.h"
#include "kernels/registry.h"

#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <link.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

extern char** environ;

namespace probaudit::engine {
namespace {

using nlohmann::json;

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

// "model name" and the flags line of /proc/cpuinfo (what the CPU advertises to the OS).
json cpuInfo() {
    std::string model = "unknown";
    std::set<std::string> flags;
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) {
            continue;
        }
        const std::string key = trim(line.substr(0, colon));
        if (key == "model name" && model == "unknown") {
            model = trim(line.substr(colon + 1));
        } else if (key == "flags" && flags.empty()) {
            std::istringstream f(line.substr(colon + 1));
            for (std::string flag; f >> flag;) {
                flags.insert(flag);
            }
        }
    }
    // The ISA extensions ATen's CPU kernels and its BLAS/oneDNN dispatch on.
    static const char* const kIsa[] = {
        "sse4_1",   "sse4_2",   "avx",      "avx2",     "fma",         "f16c",        "avx512f",
        "avx512dq", "avx512cd", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16",
        "avx_vnni", "amx_tile", "amx_bf16", "amx_int8", "asimd",       "sve"};
    json isa = json::array();
    for (const char* f : kIsa) {
        if (flags.count(f) != 0) {
            isa.push_back(f);
        }
    }
    return json{{"model", model},
                {"logical_cores", static_cast<long>(sysconf(_SC_NPROCESSORS_ONLN))},
                {"isa", isa},
                // The CPU kernel set ATen actually dispatches to (ATEN_CPU_CAPABILITY caps it).
                {"aten_capability", at::get_cpu_capability()}};
}

json envVars() {
    json vars = json::object();
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string kv(*e);
        const auto eq = kv.find('=');
        if (eq == std::string::npos) {
            continue;
        }
        const std::string name = kv.substr(0, eq);
        for (const std::string& prefix : watchedEnvPrefixes()) {
            if (name.rfind(prefix, 0) == 0) {
                vars[name] = kv.substr(eq + 1);
                break;
            }
        }
    }
    return vars;
}

// Shared libraries in this process that carry numerics (which file was really loaded: the
// wheel's cuBLAS or another one, MKL or OpenBLAS, which OpenMP runtime).
json loadedNumericsLibraries() {
    static const char* const kNames[] = {"libtorch",  "libc10",       "libcublas", "libcudnn",
                                         "libcudart", "libnccl",      "libmkl",    "libgomp",
                                         "libiomp",   "libopenblas",  "libdnnl",   "libcusparse",
                                         "libnvrtc",  "libnvJitLink", "libcuda.so"};
    std::vector<std::pair<std::string, std::string>> found;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* user) -> int {
            auto* out = static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
            if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') {
                return 0;
            }
            std::error_code ec;
            const auto canonical = std::filesystem::weakly_canonical(info->dlpi_name, ec);
            const std::string path = ec ? std::string(info->dlpi_name) : canonical.string();
            const std::string base = path.substr(path.find_last_of('/') + 1);
            for (const char* n : kNames) {
                if (base.rfind(n, 0) == 0) {
                    out->emplace_back(base, path);
                    break;
                }
            }
            return 0;
        },
        &found);
    std::sort(found.begin(), found.end());
    json libs = json::array();
    for (const auto& [name, path] : found) {
        libs.push_back(json{{"name", name}, {"path", path}});
    }
    return libs;
}

std::string readNvidiaDriverVersion() {
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (!std::getline(in, line)) {
        return {};
    }
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."
    std::istringstream words(line);
    for (std::string w; words >> w;) {
        if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) &&
            w.find('.') != std::string::npos) {
            return w;
        }
    }
    return {};
}

std::string versionString(long v, long major_div, long minor_div) {
    if (v <= 0) {
        return {};
    }
    std::ostringstream s;
    s << v / major_div << '.' << (v % major_div) / minor_div << '.' << v % minor_div;
    return s.str();
}

// GPUs through the CUDA driver API, looked up at run time: no link-time dependency, and a
// machine without a driver simply has no GPUs.
json gpuList(std::string& driverApi) {
    json gpus = json::array();
    void* cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (cuda == nullptr) {
        return gpus;
    }
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int*);
    using GetFn = int (*)(int*, int);
    using NameFn = int (*)(char*, int, int);
    using AttrFn = int (*)(int*, int, int);
    using MemFn = int (*)(size_t*, int);
    using DrvFn = int (*)(int*);
    auto init = reinterpret_cast<InitFn>(dlsym(cuda, "cuInit"));
    auto count = reinterpret_cast<CountFn>(dlsym(cuda, "cuDeviceGetCount"));
    auto get = reinterpret_cast<GetFn>(dlsym(cuda, "cuDeviceGet"));
    auto name = reinterpret_cast<NameFn>(dlsym(cuda, "cuDeviceGetName"));
    auto attr = reinterpret_cast<AttrFn>(dlsym(cuda, "cuDeviceGetAttribute"));
    auto mem = reinterpret_cast<MemFn>(dlsym(cuda, "cuDeviceTotalMem_v2"));
    auto drv = reinterpret_cast<DrvFn>(dlsym(cuda, "cuDriverGetVersion"));
    int n = 0;
    if (init != nullptr && count != nullptr && init(0) == 0 && count(&n) == 0) {
        if (int v = 0; drv != nullptr && drv(&v) == 0) {
            driverApi = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
        }
        for (int i = 0; i < n; ++i) {
            int dev = 0;
            if (get == nullptr || get(&dev, i) != 0) {
                continue;
            }
            char buf[256] = {};
            int ccMajor = 0;
            int ccMinor = 0;
            size_t bytes = 0;
            json g{{"index", i}};
            if (name != nullptr && name(buf, sizeof buf, dev) == 0) {
                g["name"] = buf;
            }
            // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76
            if (attr != nullptr && attr(&ccMajor, 75, dev) == 0 && attr(&ccMinor, 76, dev) == 0) {
                g["compute_capability"] = std::to_string(ccMajor) + "." + std::to_string(ccMinor);
            }
            if (mem != nullptr && mem(&bytes, dev) == 0) {
                g["memory_bytes"] = bytes;
            }
            gpus.push_back(g);
        }
    }
    // The handle stays open: torch may use the driver later in this process.
    return gpus;
}

json cudaInfo() {
    json cuda{{"available", false}};
    const auto& hooks = at::detail::getCUDAHooks();
    std::string driverApi;
    json gpus = gpuList(driverApi);
    cuda["gpus"] = gpus;
    cuda["driver_version"] = readNvidiaDriverVersion();
    cuda["driver_api_version"] = driverApi;
    // Versions of the CUDA libraries this torch build uses. cudnn: 91900 -> "9.19.0".
    const long cudart = hooks.versionCUDART();
    cuda["runtime_version"] =
        cudart > 0 ? std::to_string(cudart / 1000) + "." + std::to_string((cudart % 1000) / 10)
                   : std::string();
    cuda["cudnn_version"] = versionString(hooks.versionCuDNN(), 10000, 100);
    // cuBLAS: the library torch loaded, asked directly (cublasGetProperty needs no device).
    using PropFn = int (*)(int, int*);
    if (auto prop = reinterpret_cast<PropFn>(dlsym(RTLD_DEFAULT, "cublasGetProperty"))) {
        int major = 0;
        int minor = 0;
        int patch = 0;
        if (prop(0, &major) == 0 && prop(1, &minor) == 0 && prop(2, &patch) == 0) {
            cuda["cublas_version"] =
                std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
        }
    }
    if (!cuda.contains("cublas_version")) {
        cuda["cublas_version"] = "";
    }
    cuda["available"] = !gpus.empty() && hooks.hasCUDA();
    return cuda;
}

} // namespace

const std::vector<std::string>& watchedEnvPrefixes() {
    static const std::vector<std::string> prefixes = {"ATEN_",
                                                      "CUBLAS",
                                                      "CUDNN",
                                                      "CUDA_LAUNCH_BLOCKING",
                                                      "CUDA_VISIBLE_DEVICES",
                                                      "CUDA_MODULE_LOADING",
                                                      "CUDA_DEVICE_ORDER",
                                                      "NVIDIA_TF32",
                                                      "OMP_",
                                                      "GOMP_",
                                                      "KMP_",
                                                      "MKL_",
                                                      "OPENBLAS_",
                                                      "DNNL_",
                                                      "ONEDNN_",
                                                      "TORCH_",
                                                      "PYTORCH_",
                                                      "NCCL_ALGO",
                                                      "NCCL_PROTO"};
    return prefixes;
}

json parseTorchBuildSettings(const std::string& showConfig) {
    json settings = json::object();
    const std::string marker = "Build settings:";
    const auto at = showConfig.find(marker);
    if (at == std::string::npos) {
        return settings;
    }
    std::string rest = showConfig.substr(at + marker.size());
    rest = rest.substr(0, rest.find('\n'));
    // Keys are upper-case identifiers; values run until ", KEY=".
    size_t pos = 0;
    while (pos < rest.size()) {
        const auto eq = rest.find('=', pos);
        if (eq == std::string::npos) {
            break;
        }
        const std::string key = trim(rest.substr(pos, eq - pos));
        size_t next = eq + 1;
        size_t end = rest.size();
        while (true) {
            const auto comma = rest.find(", ", next);
            if (comma == std::string::npos) {
                break;
            }
            const auto nextEq = rest.find('=', comma);
            const std::string candidate =
                nextEq == std::string::npos ? "" : rest.substr(comma + 2, nextEq - comma - 2);
            const bool isKey =
                !candidate.empty() && std::all_of(candidate.begin(), candidate.end(), [](char c) {
                    return std::isupper(static_cast<unsigned char>(c)) ||
                           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
                });
            if (isKey) {
                end = comma;
                break;
            }
            next = comma + 2;
        }
        if (!key.empty()) {
            settings[key] = trim(rest.substr(eq + 1, end - eq - 1));
        }
        pos = end == rest.size() ? end : end + 2;
    }
    return settings;
}

json collectEnvironment() {
    const std::string config = at::show_config();
    const json build = parseTorchBuildSettings(config);
    const auto kernelInfo = kernels::kernelBuildInfo();

    utsname uts{};
    uname(&uts);

    json env;
    env["schema"] = kFingerprintSchema;
    env["engine"] = {{"name", "probaudit"},
                     {"version", engineVersion()},
                     {"commit", gitCommit()},
                     {"dirty", gitDirty()}};
    const std::string cudaBuild = build.value("CUDA_VERSION", "");
    env["torch"] = {{"version", TORCH_VERSION},
                    {"cuda_build", cudaBuild},
                    {"cudnn_build", build.value("CUDNN_VERSION", "")},
                    {"blas", build.value("BLAS_INFO", "")},
                    {"mkl_version", at::get_mkl_version()},
                    {"onednn_version", at::get_mkldnn_version()},
                    {"openmp_version", at::get_openmp_version()},
                    {"build_settings", build}};
    env["cuda"] = cudaInfo();
    env["cpu"] = cpuInfo();
    env["threads"] = {{"intra_op", at::get_num_threads()},
                      {"inter_op", at::get_num_interop_threads()}};
    env["env_vars"] = envVars();
    env["env_vars_watched"] = watchedEnvPrefixes();
    const auto& k = kernelInfo;
    env["kernels"] = {{"cuda_compiled", k.cuda_compiled},
                      {"cuda_architectures", k.cuda_archs},
                      {"cuda_kernels", k.cuda_kernels},
                      {"cpu_references", k.cpu_references},
                      {"invariant_cpu_isa", k.invariant_cpu_isa}};
    env["libraries"] = loadedNumericsLibraries();
    env["os"] = {{"system", uts.sysname}, {"release", uts.release}, {"machine", uts.machine}};
    return env;
}

} // namespace probaudit::engine
