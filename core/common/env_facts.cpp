#include "core/common/env_facts.h"

#include "core/common/json_read.h"

namespace probaudit {

using json = nlohmann::json;

namespace {

// The members of an object as (name, text): strings as they are, other values as JSON.
std::vector<NamedText> namedTexts(const json& o) {
    std::vector<NamedText> out;
    for (const auto& [k, v] : o.items()) {
        out.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    }
    return out;
}

void readEngine(const json& j, EnvFingerprint& f) {
    const json& engine = fieldObject(j, "engine");
    f.engine = {fieldString(engine, "version"), fieldString(engine, "commit"),
                fieldBool(engine, "dirty")};
    const json& torch = fieldObject(j, "torch");
    f.torch = {fieldString(torch, "version"), fieldString(torch, "cuda_build"),
               fieldString(torch, "cudnn_build"), fieldString(torch, "blas"),
               fieldString(torch, "onednn_version")};
    const json& cuda = fieldObject(j, "cuda");
    f.cuda.available = fieldBool(cuda, "available");
    f.cuda.runtime_version = fieldString(cuda, "runtime_version");
    f.cuda.cublas_version = fieldString(cuda, "cublas_version");
    f.cuda.cudnn_version = fieldString(cuda, "cudnn_version");
    f.cuda.driver_version = fieldString(cuda, "driver_version");
    if (const auto it = cuda.find("gpus"); it != cuda.end() && it->is_array()) {
        for (const auto& g : *it) {
            if (g.is_object()) {
                f.cuda.gpus.push_back({fieldInt64(g, "index"), fieldString(g, "name"),
                                       fieldString(g, "compute_capability")});
            }
        }
    }
    const json& cpu = fieldObject(j, "cpu");
    f.cpu = {fieldString(cpu, "model"), fieldString(cpu, "aten_capability"),
             fieldInt64(cpu, "logical_cores"), fieldStrings(cpu, "isa")};
    const json& threads = fieldObject(j, "threads");
    f.threads = {fieldInt64(threads, "intra_op"), fieldInt64(threads, "inter_op")};
    f.env_vars = namedTexts(fieldObject(j, "env_vars"));
    const json& kernels = fieldObject(j, "kernels");
    f.kernels = {fieldBool(kernels, "cuda_compiled"), fieldStrings(kernels, "cuda_kernels"),
                 fieldStrings(kernels, "cuda_architectures"),
                 fieldString(kernels, "invariant_cpu_isa")};
    if (const auto it = j.find("libraries"); it != j.end() && it->is_array()) {
        for (const auto& lib : *it) {
            if (lib.is_object()) {
                if (auto path = fieldString(lib, "path")) {
                    f.library_paths.push_back(std::move(*path));
                }
            }
        }
    }
}

// docs/runner-protocol.md, "env": flat fields, the CPU's capability under cpu.capability and the
// GPUs as a list of names.
void readTransformers(const json& j, EnvFingerprint& f) {
    f.python = fieldString(j, "python");
    f.transformers = fieldString(j, "transformers");
    f.torch.version = fieldString(j, "torch");
    f.torch.cuda_build = fieldString(j, "torch_cuda");
    f.cuda.cudnn_version = fieldString(j, "cudnn");
    f.cuda.cublas_version = fieldString(j, "cublas");
    for (auto& name : fieldStrings(j, "gpus")) {
        f.cuda.gpus.push_back({std::nullopt, std::move(name), std::nullopt});
    }
    f.cuda.available = !f.cuda.gpus.empty();
    f.cpu.aten_capability = fieldString(fieldObject(j, "cpu"), "capability");
    f.threads.intra_op = fieldInt64(fieldObject(j, "threads"), "intra_op");
    f.env_vars = namedTexts(fieldObject(j, "env"));
}

void readEndpoint(const json& j, EnvFingerprint& f) {
    const json& endpoint = fieldObject(j, "endpoint");
    f.endpoint = {fieldString(endpoint, "url"), fieldString(endpoint, "api"),
                  fieldString(endpoint, "model")};
    const json& server = fieldObject(j, "server");
    f.server = {fieldString(server, "header"), fieldString(server, "system_fingerprint")};
    f.labels = namedTexts(fieldObject(j, "labels"));
    f.client_probaudit = fieldString(fieldObject(j, "client"), "probaudit");
}

} // namespace

EnvFingerprint EnvFingerprint::read(const json& fingerprint) {
    EnvFingerprint f;
    if (!fingerprint.is_object()) {
        return f;
    }
    f.kind = envKind(fingerprint);
    switch (f.kind) {
    case EnvKind::Engine:
        readEngine(fingerprint, f);
        break;
    case EnvKind::Transformers:
        readTransformers(fingerprint, f);
        break;
    case EnvKind::Endpoint:
        readEndpoint(fingerprint, f);
        break;
    }
    return f;
}

} // namespace probaudit
