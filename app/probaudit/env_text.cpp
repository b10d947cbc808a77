#include "env_text.h"

#include <sstream>

namespace probaudit::app {
namespace {

std::string orNone(const std::string& s) {
    return s.empty() ? "none" : s;
}

std::string joined(const nlohmann::json& array, const char* sep = " ") {
    std::string out;
    for (const auto& v : array) {
        if (!out.empty()) {
            out += sep;
        }
        out += v.get<std::string>();
    }
    return out.empty() ? "none" : out;
}

} // namespace

std::string formatEnvironment(const nlohmann::json& env) {
    std::ostringstream o;
    const auto& engine = env.at("engine");
    const auto& torch = env.at("torch");
    const auto& cuda = env.at("cuda");
    const auto& cpu = env.at("cpu");
    o << "ProbAudit engine " << engine.at("version").get<std::string>() << " (commit "
      << engine.at("commit").get<std::string>().substr(0, 12)
      << (engine.at("dirty").get<bool>() ? ", modified" : "") << ")\n";
    o << "libtorch        " << torch.at("version").get<std::string>() << ", CUDA build "
      << orNone(torch.at("cuda_build")) << ", cuDNN build " << orNone(torch.at("cudnn_build"))
      << "\n";
    o << "CPU math        BLAS " << orNone(torch.at("blas")) << ", oneDNN "
      << orNone(torch.at("onednn_version")) << "\n";
    o << "CUDA available  " << (cuda.at("available").get<bool>() ? "yes" : "no") << "; runtime "
      << orNone(cuda.at("runtime_version")) << ", cuBLAS " << orNone(cuda.at("cublas_version"))
      << ", cuDNN " << orNone(cuda.at("cudnn_version")) << ", driver "
      << orNone(cuda.at("driver_version")) << "\n";
    if (cuda.at("gpus").empty()) {
        o << "GPUs            none\n";
    }
    for (const auto& g : cuda.at("gpus")) {
        o << "GPU " << g.at("index").get<int>() << "           " << g.value("name", "?") << " (sm "
          << g.value("compute_capability", "?") << ")\n";
    }
    o << "CPU             " << cpu.at("model").get<std::string>() << ", "
      << cpu.at("logical_cores").get<long>() << " logical cores\n";
    o << "CPU ISA         " << joined(cpu.at("isa")) << "\n";
    o << "ATen CPU kernels " << cpu.at("aten_capability").get<std::string>() << "\n";
    o << "Threads         intra-op " << env.at("threads").at("intra_op").get<int>() << ", inter-op "
      << env.at("threads").at("inter_op").get<int>() << "\n";
    const auto& vars = env.at("env_vars");
    o << "Numerics env    ";
    if (vars.empty()) {
        o << "none set";
    }
    bool first = true;
    for (const auto& [k, v] : vars.items()) {
        o << (first ? "" : ", ") << k << "=" << v.get<std::string>();
        first = false;
    }
    o << "\n";
    const auto& kernels = env.at("kernels");
    o << "CUDA kernels    "
      << (kernels.at("cuda_compiled").get<bool>()
              ? joined(kernels.at("cuda_kernels"), ", ") + " for " +
                    joined(kernels.at("cuda_architectures"), ", ")
              : std::string("not compiled in"))
      << "\n";
    o << "Invariant CPU   " << kernels.value("invariant_cpu_isa", std::string("-"))
      << " (batch-invariant kernels; every instruction set gives the same bits)\n";
    o << "Libraries       ";
    first = true;
    for (const auto& lib : env.at("libraries")) {
        o << (first ? "" : "\n                ") << lib.at("path").get<std::string>();
        first = false;
    }
    o << "\n";
    return o.str();
}

} // namespace probaudit::app
