#pragma once
// A runtime configuration (DESIGN.md): every setting that can change the numbers without
// changing the model. It has one canonical JSON form (every field, sorted keys, no spaces) and
// a stable hash of it, so two runs with the same hash ran with the same settings.
// Capture level and head are not part of it: they do not change numerics.
#include "core/common/config_values.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit {

struct RunConfig {
    std::string device = "cpu"; // cpu | cuda:N
    Dtype dtype = Dtype::Float32;
    std::int64_t batch_size = 1;
    PaddingSide padding_side = PaddingSide::Right;
    PadTo pad_to = PadTo::Longest;
    std::int64_t pad_to_n = 0; // N for multiple / fixed
    ItemOrder order = ItemOrder::AsGiven;
    std::uint64_t order_seed = 0; // for shuffled and neighbours_shuffled
    Attention attention = Attention::Math;
    Kernels kernels = Kernels::Default;
    std::int64_t threads = 1;   // CPU intra-op threads
    bool deterministic = false; // torch deterministic algorithms
    bool tf32 = false;          // TF32 matmul on CUDA
    bool cudnn_benchmark = false;
    CpuCapability cpu_capability = CpuCapability::Auto; // Auto: ATen's choice
    std::int64_t max_length = 0; // truncate inputs to this many tokens (0: model max)
    // Generation only (serving simulation, engine/generate.h): the number of co-resident
    // sequences of the continuous-batching scheduler (1: the serial reference) and the seed of
    // the order in which requests arrive.
    // Endpoint runs too: requests in flight and the seed of the order they are sent in.
    std::int64_t concurrency = 1;
    std::uint64_t arrival_seed = 0;
    // The same settings once more (0: the first): a config with repeat 1 records the C-vs-C
    // run that tells a server's own run-to-run variation from a setting's effect.
    std::int64_t repeat = 0;
    // Endpoint runs: "warm" sends each prompt once, unmeasured, before the request that is
    // recorded (a server with a prefix cache then answers from it); "cold" sends nothing before.
    PrefixCache prefix_cache = PrefixCache::Cold;
    std::int64_t seed = -1; // endpoint runs: the requests' "seed" field (-1: none sent)
    // What computes the numbers: "engine" (built in) or "transformers" (the reference runner in
    // the Python environment `env` names, one of the study's $.environments).
    Runner runner = Runner::Engine;
    std::string env;
    // The engine's matrix multiplies of the layers' linear projections on the CPU with the
    // default kernels: "aten" (at::linear, MKL's sgemm: what PyTorch eager and transformers run,
    // bit for bit) or "onednn" (oneDNN's GEMM on weights packed once into its own layout: what
    // PyTorch's inductor and IPEX run on CPUs; faster, other roundings).
    Gemm gemm = Gemm::Aten;
    // The model variant the run computes: a name of the study's $.models ("" in a study with
    // one $.model). Unlike the other axes it changes the weights, not only how they are run.
    std::string model;

    // Every axis, except that axes added after the first release (concurrency, arrival_seed,
    // repeat, prefix_cache, seed, runner, env, gemm, model) appear only when they are not at
    // their default: earlier ledgers keep their config hashes.
    nlohmann::json toJson() const;
    // Every axis, the later ones too (toJson leaves them out at their defaults, so that older
    // configs keep their hashes).
    nlohmann::json allAxesJson() const;
    std::string canonical() const; // compact JSON with sorted keys
    std::string hash() const;      // first 16 hex digits of SHA-256(canonical())

    // Reads a config, starting from the defaults. Every problem found is appended to `errors`
    // as "PATH: problem" (PATH like "$.configs.bs8.batch_size"); returns what could be read.
    static RunConfig fromJson(const nlohmann::json& j, const std::string& path,
                              std::vector<std::string>& errors);
    // Same, throwing probaudit::Error with all problems joined when there is any.
    static RunConfig fromJson(const nlohmann::json& j);

    // Names of the fields whose values differ (for "which axes differ from the reference").
    std::vector<std::string> differences(const RunConfig& other) const;
};

} // namespace probaudit
