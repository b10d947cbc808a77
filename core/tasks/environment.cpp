#include "core/tasks/environment.h"

#include "core/engine/env_fingerprint.h"

namespace probaudit::tasks {

nlohmann::json currentEnvironment() {
    return engine::collectEnvironment();
}

} // namespace probaudit::tasks
