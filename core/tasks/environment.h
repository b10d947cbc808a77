#pragma once
// The environment fingerprint of this process (DESIGN.md: environment fingerprint), for
// `probaudit env` and the engine's "env" request.
#include <nlohmann/json.hpp>

namespace probaudit::tasks {

nlohmann::json currentEnvironment();

} // namespace probaudit::tasks
