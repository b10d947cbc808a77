#pragma once
// The study reader's model part (study.cpp): $.model or $.models, and each config's variant.
#include "core/study/study.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace probaudit::study {

// $.model (one checkpoint or a server) or $.models (variants, servers among them).
void readModel(const nlohmann::ordered_json& j, const std::string& baseDir, Study& s,
               std::vector<std::string>& errors);
// A config's "model" names one of $.models; without one it runs the first variant, named in
// the config so that two configs that differ only in the variant differ in their hash.
void checkVariant(const Study& s, RunConfig& c, const std::string& path,
                  std::vector<std::string>& errors);
// After the heads, configs and reference are read: what a study with a server variant keeps to.
void checkServerVariants(const Study& s, std::vector<std::string>& errors);

} // namespace probaudit::study
