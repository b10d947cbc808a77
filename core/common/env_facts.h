#pragma once
// A typed reading of an environment fingerprint (DESIGN.md glossary). The engine writes its
// fingerprint (engine/env_fingerprint.cpp), the transformers runner and the endpoint client
// theirs; the ledger stores each as JSON, hashed as written. What the product shows of one (the
// `env` command, the runs list, the report's cover and limits, the workbench's dialogs) is read
// here, once, into named fields: this file and env_facts.cpp are the only readers of the
// fingerprint's keys outside its writers and the fingerprint diff (analysis/fingerprint.h, which
// explains a difference by its path).
//
// Reading never throws: a fingerprint is outside input (a ledger, a runner, a server). A field
// that is absent or of another type is left empty (nullopt), so that each place that shows it
// says what it says for "unknown".
#include "core/common/vocabulary.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace probaudit {

struct GpuFacts {
    std::optional<std::int64_t> index;
    std::optional<std::string> name;
    std::optional<std::string> compute_capability;
};

// A text-valued setting: its value as text (a string as it is, anything else as JSON).
using NamedText = std::pair<std::string, std::string>;

struct EnvFingerprint {
    EnvKind kind = EnvKind::Engine;

    // The built-in engine's fingerprint.
    struct Engine {
        std::optional<std::string> version, commit;
        std::optional<bool> dirty;
    } engine;
    struct Torch {
        std::optional<std::string> version, cuda_build, cudnn_build, blas, onednn_version;
    } torch;
    struct Cuda {
        std::optional<bool> available;
        std::optional<std::string> runtime_version, cublas_version, cudnn_version, driver_version;
        std::vector<GpuFacts> gpus;
    } cuda;
    struct Cpu {
        std::optional<std::string> model, aten_capability;
        std::optional<std::int64_t> logical_cores;
        std::vector<std::string> isa;
    } cpu;
    struct Threads {
        std::optional<std::int64_t> intra_op, inter_op;
    } threads;
    std::vector<NamedText> env_vars; // the numerics-relevant variables that were set
    struct Kernels {
        std::optional<bool> cuda_compiled;
        std::vector<std::string> cuda_kernels, cuda_architectures;
        std::optional<std::string> invariant_cpu_isa;
    } kernels;
    std::vector<std::string> library_paths; // the numerics libraries loaded, by path

    // The transformers runner's fingerprint fills the fields above that it has (torch, its CUDA
    // build, cuDNN, cuBLAS, the GPUs' names, the CPU's ATen capability, the variables) and these.
    std::optional<std::string> python, transformers;

    // An endpoint's fingerprint: where the server is, what it says of itself, what the study
    // declares of it, and the client that asked.
    struct Endpoint {
        std::optional<std::string> url, api, model;
    } endpoint;
    struct Server {
        std::optional<std::string> header, system_fingerprint;
    } server;
    std::vector<NamedText> labels;
    std::optional<std::string> client_probaudit;

    static EnvFingerprint read(const nlohmann::json& fingerprint);
};

} // namespace probaudit
