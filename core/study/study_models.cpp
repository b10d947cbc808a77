// The study's model ($.model) or its variants ($.models), a config's variant, and what a study
// with a server among its variants must keep to (study.h).
#include "core/study/study_models.h"

#include "core/study/study_fields.h"

#include <algorithm>
#include <filesystem>

namespace probaudit::study {

namespace fs = std::filesystem;
using detail::mustExist;
using detail::resolve;
using detail::stringField;
using detail::unknownFields;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A checkpoint ($.model, or one of $.models): the path (resolved, must exist) and its format.
ModelVariant readCheckpoint(const ordered_json& m, const std::string& where,
                            const std::string& baseDir, std::vector<std::string>& errors) {
    ModelVariant v;
    unknownFields(m, {"path", "format"}, where, errors);
    if (stringField(m, "path", v.path, where, errors, true)) {
        v.path = resolve(v.path, baseDir);
        mustExist(v.path, where + ".path", errors);
    }
    v.format = fs::path(v.path).extension() == ".gguf" ? "gguf" : "hf";
    std::string format;
    if (stringField(m, "format", format, where, errors, false)) {
        if (format != "hf" && format != "gguf") {
            errors.push_back(where + ".format: unknown value \"" + format +
                             "\" (one of: hf, gguf)");
        } else if (format != v.format) {
            errors.push_back(where + ".format: \"" + format + "\" does not match the path (" +
                             v.format + ")");
        }
    }
    return v;
}

// A server as a variant: the endpoint's fields ($.model.endpoint's) and "serves", the local
// variant whose weights the server claims to serve.
ModelVariant readServerVariant(const ordered_json& m, const std::string& where,
                               std::vector<std::string>& errors) {
    ModelVariant v;
    v.format = "endpoint";
    json spec = json::parse(m.dump());
    if (!spec.contains("serves")) {
        errors.push_back(where + ".serves: missing (the local variant of $.models whose weights "
                                 "this server claims to serve)");
    } else if (!spec["serves"].is_string() || spec["serves"].get<std::string>().empty()) {
        errors.push_back(where + ".serves: must name a variant of $.models");
    } else {
        v.serves = spec["serves"].get<std::string>();
    }
    spec.erase("serves");
    v.endpoint = EndpointSpec::fromJson(spec, where, errors);
    return v;
}

// The first variant is what a config without "model" runs and a server is compared against
// the weights it serves: both are local checkpoints.
void checkServedVariants(const Study& s, std::vector<std::string>& errors) {
    if (!s.models.empty() && s.models.front().isEndpoint()) {
        errors.push_back("$.models." + s.models.front().name +
                         ": the first variant is the one configs without \"model\" run; list "
                         "local weights first and the servers after them");
    }
    for (const ModelVariant& v : s.models) {
        if (!v.isEndpoint() || v.serves.empty()) {
            continue;
        }
        const ModelVariant* served = s.variant(v.serves);
        if (served == nullptr || served->isEndpoint()) {
            errors.push_back("$.models." + v.name + ".serves: \"" + v.serves +
                             "\" is not a local variant of $.models (a server is compared "
                             "against the weights it claims to serve)");
        }
    }
}

// $.models: variant name -> checkpoint, in file order; the first is the one a config without
// "model" runs.
void readModels(const ordered_json& j, const std::string& baseDir, Study& s,
                std::vector<std::string>& errors) {
    const auto& ms = j["models"];
    if (!ms.is_object() || ms.empty()) {
        errors.push_back("$.models: must be an object of variant name -> {\"path\": ...}, with "
                         "at least one variant");
        return;
    }
    for (const auto& [name, m] : ms.items()) {
        const std::string where = "$.models." + name;
        static const std::string allowed = "abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
        if (name.empty() || name.size() > 64 || name.find_first_not_of(allowed) != name.npos) {
            errors.push_back(where + ": a variant's name is letters, digits, '.', '_' or '-' (at "
                                     "most 64)");
            continue;
        }
        if (!m.is_object()) {
            errors.push_back(where + ": must be an object with \"path\"");
        } else {
            ModelVariant v = m.contains("endpoint") ? readServerVariant(m, where, errors)
                                                    : readCheckpoint(m, where, baseDir, errors);
            v.name = name;
            s.models.push_back(std::move(v));
        }
    }
    checkServedVariants(s, errors);
    if (!s.models.empty()) {
        s.model_path = s.models.front().path;
        s.model_format = s.models.front().format;
    }
}

} // namespace

// $.model (one checkpoint or a server) or $.models (variants).
void readModel(const ordered_json& j, const std::string& baseDir, Study& s,
               std::vector<std::string>& errors) {
    if (j.contains("models")) {
        if (j.contains("model")) {
            errors.push_back("$.models: a study has one $.model or its $.models, not both");
        }
        readModels(j, baseDir, s, errors);
    } else if (!j.contains("model") || !j["model"].is_object()) {
        errors.push_back("$.model: missing (an object with \"path\", or with \"endpoint\" for a "
                         "server; or $.models for model variants)");
    } else if (j["model"].contains("endpoint")) {
        s.model_format = "endpoint";
        s.endpoint = EndpointSpec::fromJson(json::parse(j["model"].dump()), "$.model", errors);
    } else {
        ModelVariant v = readCheckpoint(j["model"], "$.model", baseDir, errors);
        s.model_path = v.path;
        s.model_format = v.format;
        s.models.push_back(std::move(v));
    }
}

// A config's "model" names one of $.models; without one it runs the first variant, named in
// the config so that two configs that differ only in the variant differ in their hash.
void checkVariant(const Study& s, RunConfig& c, const std::string& path,
                  std::vector<std::string>& errors) {
    if (!s.hasVariants()) {
        if (!c.model.empty() && !s.isEndpoint()) { // an endpoint study: checkAxesScope says it
            errors.push_back(path + ".model: the study has one $.model; declare its variants in "
                                    "$.models to use this axis");
        }
    } else if (c.model.empty()) {
        c.model = s.models.front().name;
    } else if (s.variant(c.model) == nullptr) {
        errors.push_back(path + ".model: \"" + c.model + "\" is not one of $.models");
    }
}

// A study with a server variant compares the server's decisions with local ones: its heads
// are what a server can compute, and its reference runs local weights.
void checkServerVariants(const Study& s, std::vector<std::string>& errors) {
    if (!s.hasServerVariant()) {
        return;
    }
    for (const auto& h : s.heads) {
        if (h.kind != HeadKind::LabelTokens && h.kind != HeadKind::Generation) {
            errors.push_back("$.heads." + h.name +
                             ": a study with a server among its variants has label_tokens or "
                             "generation heads (a server returns tokens and their "
                             "log-probabilities, not hidden states)");
        }
    }
    const NamedConfig* ref = s.config(s.reference);
    if (ref != nullptr && s.onServer(ref->config)) {
        errors.push_back("$.reference: \"" + s.reference +
                         "\" runs a server; the reference runs local weights (a server is "
                         "judged against the weights it serves)");
    }
}

bool Study::onServer(const RunConfig& c) const {
    if (isEndpoint()) {
        return true;
    }
    const ModelVariant* v = variant(c.model);
    return v != nullptr && v->isEndpoint();
}

const EndpointSpec& Study::serverOf(const RunConfig& c) const {
    if (isEndpoint()) {
        return endpoint;
    }
    return variant(c.model)->endpoint;
}

bool Study::hasServerVariant() const {
    return std::any_of(models.begin(), models.end(),
                       [](const ModelVariant& v) { return v.isEndpoint(); });
}

} // namespace probaudit::study
