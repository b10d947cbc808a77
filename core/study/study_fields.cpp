#include "core/study/study_fields.h"

#include "core/study/study.h"

#include <filesystem>

namespace probaudit::study::detail {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string resolve(const std::string& p, const std::string& baseDir) {
    static const std::string kHome = "${PROBAUDIT_HOME}";
    if (p.rfind(kHome, 0) == 0) {
        return (fs::path(probauditHome()) / fs::path(p.substr(kHome.size())).relative_path())
            .lexically_normal()
            .string();
    }
    const fs::path path(p);
    return (path.is_relative() ? fs::path(baseDir) / path : path).lexically_normal().string();
}

void unknownFields(const ordered_json& j, const std::set<std::string>& known,
                   const std::string& path, std::vector<std::string>& errors) {
    for (const auto& [key, value] : j.items()) {
        if (!known.count(key)) {
            errors.push_back(path + "." + key + ": unknown field");
        }
    }
}

bool stringField(const ordered_json& j, const char* key, std::string& out, const std::string& path,
                 std::vector<std::string>& errors, bool required) {
    if (!j.contains(key)) {
        if (required) {
            errors.push_back(path + "." + key + ": missing");
        }
        return false;
    }
    if (!j[key].is_string() || j[key].get<std::string>().empty()) {
        errors.push_back(path + "." + key + ": must be a non-empty string");
        return false;
    }
    out = j[key].get<std::string>();
    return true;
}

void mustExist(const std::string& file, const std::string& path, std::vector<std::string>& errors) {
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        errors.push_back(path + ": no such file or folder: " + file);
    }
}

} // namespace probaudit::study::detail
