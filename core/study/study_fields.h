#pragma once
// The study reader's field helpers (study.cpp, study_models.cpp): each appends "PATH: problem"
// to `errors` rather than throwing, so one load names every problem in the file.
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace probaudit::study::detail {

// A path of the study file: "${PROBAUDIT_HOME}/..." against probauditHome(), a relative one
// against the study's folder; normalised.
std::string resolve(const std::string& p, const std::string& baseDir);
void unknownFields(const nlohmann::ordered_json& j, const std::set<std::string>& known,
                   const std::string& path, std::vector<std::string>& errors);
// A non-empty string field into `out`; false when absent (an error when `required`) or invalid.
bool stringField(const nlohmann::ordered_json& j, const char* key, std::string& out,
                 const std::string& path, std::vector<std::string>& errors, bool required);
void mustExist(const std::string& file, const std::string& path, std::vector<std::string>& errors);

} // namespace probaudit::study::detail
