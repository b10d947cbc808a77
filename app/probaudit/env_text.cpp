#include "app/probaudit/env_text.h"

#include "core/common/env_facts.h"

#include <sstream>

namespace probaudit::app {
namespace {

std::string orNone(const std::optional<std::string>& s) {
    return !s || s->empty() ? "none" : *s;
}

std::string joined(const std::vector<std::string>& items, const char* sep = " ") {
    std::string out;
    for (const auto& v : items) {
        if (!out.empty()) {
            out += sep;
        }
        out += v;
    }
    return out.empty() ? "none" : out;
}

void formatBuild(std::ostringstream& o, const EnvFingerprint& f) {
    o << "ProbAudit engine " << f.engine.version.value_or("?") << " (commit "
      << f.engine.commit.value_or("?").substr(0, 12)
      << (f.engine.dirty.value_or(false) ? ", modified" : "") << ")\n";
    o << "libtorch        " << f.torch.version.value_or("?") << ", CUDA build "
      << orNone(f.torch.cuda_build) << ", cuDNN build " << orNone(f.torch.cudnn_build) << "\n";
    o << "CPU math        BLAS " << orNone(f.torch.blas) << ", oneDNN "
      << orNone(f.torch.onednn_version) << "\n";
    o << "CUDA available  " << (f.cuda.available.value_or(false) ? "yes" : "no") << "; runtime "
      << orNone(f.cuda.runtime_version) << ", cuBLAS " << orNone(f.cuda.cublas_version)
      << ", cuDNN " << orNone(f.cuda.cudnn_version) << ", driver " << orNone(f.cuda.driver_version)
      << "\n";
    if (f.cuda.gpus.empty()) {
        o << "GPUs            none\n";
    }
    for (const auto& g : f.cuda.gpus) {
        o << "GPU " << g.index.value_or(0) << "           " << g.name.value_or("?") << " (sm "
          << g.compute_capability.value_or("?") << ")\n";
    }
}

void formatHost(std::ostringstream& o, const EnvFingerprint& f) {
    o << "CPU             " << f.cpu.model.value_or("?") << ", " << f.cpu.logical_cores.value_or(0)
      << " logical cores\n";
    o << "CPU ISA         " << joined(f.cpu.isa) << "\n";
    o << "ATen CPU kernels " << f.cpu.aten_capability.value_or("?") << "\n";
    o << "Threads         intra-op " << f.threads.intra_op.value_or(0) << ", inter-op "
      << f.threads.inter_op.value_or(0) << "\n";
    o << "Numerics env    ";
    if (f.env_vars.empty()) {
        o << "none set";
    }
    bool first = true;
    for (const auto& [k, v] : f.env_vars) {
        o << (first ? "" : ", ") << k << "=" << v;
        first = false;
    }
    o << "\n";
    o << "CUDA kernels    "
      << (f.kernels.cuda_compiled.value_or(false) ? joined(f.kernels.cuda_kernels, ", ") + " for " +
                                                        joined(f.kernels.cuda_architectures, ", ")
                                                  : std::string("not compiled in"))
      << "\n";
    o << "Invariant CPU   " << f.kernels.invariant_cpu_isa.value_or("-")
      << " (batch-invariant kernels; every instruction set gives the same bits)\n";
    o << "Libraries       ";
    first = true;
    for (const auto& path : f.library_paths) {
        o << (first ? "" : "\n                ") << path;
        first = false;
    }
    o << "\n";
}

} // namespace

std::string formatEnvironment(const nlohmann::json& env) {
    const EnvFingerprint f = EnvFingerprint::read(env);
    std::ostringstream o;
    formatBuild(o, f);
    formatHost(o, f);
    return o.str();
}

} // namespace probaudit::app
