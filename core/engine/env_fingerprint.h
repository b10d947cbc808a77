#pragma once
// The environment fingerprint (DESIGN.md glossary): what the runtime is. Everything in it can
// move numerics or explains why they moved: libtorch version and build, CUDA runtime, cuDNN
// and cuBLAS versions, GPUs and driver, CPU model and ISA, the kernel path ATen picked, thread
// counts, numerics-relevant environment variables, the numerics libraries actually loaded,
// the kernels compiled into this engine, and the engine's version and commit.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::engine {

inline constexpr int kFingerprintSchema = 1;

// Collects the fingerprint of the running process. Never throws for a missing GPU or driver:
// those are facts to record ("available": false), not errors.
nlohmann::json collectEnvironment();

// Environment variable prefixes whose values can change numerics (recorded when set).
const std::vector<std::string>& watchedEnvPrefixes();

// Parses the "Build settings: K=V, K=V" part of at::show_config() into key/value pairs.
nlohmann::json parseTorchBuildSettings(const std::string& showConfig);

} // namespace probaudit::engine
