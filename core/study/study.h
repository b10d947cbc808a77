#pragma once
// A study (DESIGN.md): one model, one or more decision-head variants, one dataset, named
// runtime configurations, one of them the reference, and the capture level. The file format
// is documented with a commented example in docs/study-file.md.
#include "core/common/endpoint_spec.h"
#include "core/common/head_spec.h"
#include "core/common/policy_spec.h"
#include "core/common/run_config.h"
#include "core/study/dataset.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::study {

// Where installed demo studies find what is fetched or made on first use (the demo models, the
// demo adapter): $PROBAUDIT_HOME, else $XDG_CACHE_HOME/probaudit, else ~/.cache/probaudit. A
// study path that starts with "${PROBAUDIT_HOME}" is resolved against it (docs/study-file.md).
std::string probauditHome();

struct NamedConfig {
    std::string name;
    RunConfig config;
};

// A Python environment the transformers runner runs in ($.environments.NAME): the interpreter
// and the variables set for it. Configs name it (`"env": NAME`), so the environment (its torch
// and CUDA build, its kernel libraries) is an axis like any other.
struct Environment {
    std::string name;
    std::string python;            // absolute when the study gave a path; else looked up on PATH
    std::vector<std::string> vars; // "NAME=VALUE", set for the runner process
    // The longest the runner may take to start or to answer one request (load a model, compute
    // a batch) before it is taken for hung and stopped.
    double timeout_seconds = 1800;
};

// One model variant of $.models (or the study's one $.model, named ""): a checkpoint the
// engine or the transformers runner loads, or a server (an endpoint) that claims to serve one of
// the study's checkpoints, `serves` ("Is the provider serving my model?").
struct ModelVariant {
    std::string name;
    std::string path;      // absolute; "" for a server
    std::string format;    // hf | gguf | endpoint
    EndpointSpec endpoint; // format "endpoint": the server
    std::string serves;    // format "endpoint": the local variant it claims to serve

    bool isEndpoint() const { return format == "endpoint"; }
};

struct Study {
    std::string file; // the study file (absolute)
    std::string name;
    std::string model_path;   // absolute; "" for an endpoint
    std::string model_format; // hf | gguf | endpoint
    EndpointSpec endpoint;    // model_format "endpoint": the server
    // $.models in file order, or $.model as the one variant named "" (not for an endpoint).
    // model_path/model_format are the first variant's; a config without "model" runs it.
    std::vector<ModelVariant> models;
    std::vector<HeadSpec> heads;           // variants, in file order; names are unique
    DatasetSpec dataset;                   // path absolute
    std::string capture = "hashes";        // none | hashes | vectors | full
    std::vector<Environment> environments; // in file order; names are unique
    std::vector<NamedConfig> configs;      // in file order
    std::string reference;                 // a config name
    Policy policy;                         // $.policy: empty when the study has none
    nlohmann::json source;                 // the file as written

    // Loads and validates everything up front; throws probaudit::Error whose message lists
    // every problem found, one per line, each with its JSON path ("$.configs.bs8.dtype: ...").
    static Study load(const std::string& path);
    // Validation without throwing: problems are appended to `errors`.
    static Study fromJson(const nlohmann::ordered_json& j, const std::string& baseDir,
                          std::vector<std::string>& errors);

    // The model is a server (an OpenAI-compatible endpoint), not a checkpoint the engine loads.
    bool isEndpoint() const { return model_format == "endpoint"; }
    const NamedConfig* config(const std::string& name) const;
    const Environment* environment(const std::string& name) const;
    const HeadSpec* head(const std::string& name) const;
    // Whether the study declares $.models (variants as an axis) rather than one $.model.
    bool hasVariants() const { return !models.empty() && !models.front().name.empty(); }
    // The variant a config's "model" names ("": the first); nullptr for an unknown name.
    const ModelVariant* variant(const std::string& name) const;
    // Whether a config's requests go to a server: every config of an endpoint study, and the
    // configs of a server variant in $.models.
    bool onServer(const RunConfig& c) const;
    // The server a config's requests go to (onServer(c) only).
    const EndpointSpec& serverOf(const RunConfig& c) const;
    // What a config's runs capture: the study's capture, none on a server.
    std::string captureOf(const RunConfig& c) const { return onServer(c) ? "none" : capture; }
    // Whether $.models has a server variant.
    bool hasServerVariant() const;
    // The study as stored in a ledger: resolved paths, every default written out.
    nlohmann::json resolvedJson() const;
};

} // namespace probaudit::study
