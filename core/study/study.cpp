#include "core/study/study.h"

#include "core/common/axes.h"
#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/study/study_fields.h"
#include "core/study/study_models.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace probaudit::study {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

using detail::mustExist;
using detail::resolve;
using detail::stringField;
using detail::unknownFields;

// A study generates or decides, not both: its configs mean different things to each (the
// serving simulation's concurrency and arrival order exist only for generation, the padding and
// order axes only for decisions).
void checkGeneration(const Study& s, std::vector<std::string>& errors) {
    const auto gen = std::count_if(s.heads.begin(), s.heads.end(),
                                   [](const HeadSpec& h) { return h.generation(); });
    if (gen > 0 && gen < static_cast<std::ptrdiff_t>(s.heads.size())) {
        errors.push_back("$.heads: generation heads and decision heads cannot share a study");
        return;
    }
    const RunConfig defaults;
    for (const auto& nc : s.configs) {
        const std::string p = "$.configs." + nc.name;
        const RunConfig& c = nc.config;
        if (s.onServer(c)) {
            continue; // checkAxesScope: the serving axes are the requests' own
        }
        if (gen == 0) {
            if (c.concurrency != 1 || c.arrival_seed != defaults.arrival_seed) {
                errors.push_back(p + ": concurrency and arrival_seed apply to generation heads "
                                     "(the serving simulation)");
            }
            continue;
        }
        if (c.concurrency > 1 && c.batch_size > 1) {
            errors.push_back(p + ": batch_size and concurrency cannot both be above 1 (static "
                                 "batches or the serving simulation)");
        }
        if (c.padding_side != defaults.padding_side || c.pad_to != defaults.pad_to ||
            c.order != defaults.order || c.max_length != defaults.max_length) {
            errors.push_back(p + ": a generation pads on the left to the longest prompt, in "
                                 "arrival order, untruncated: padding_side, pad_to, order and "
                                 "max_length do not apply");
        }
    }
}

// Which axes a study's configs may set: an endpoint study sets what its requests are (how many
// in flight, in what order, a warm prefix cache, the seed field, a repeat); the server's own
// settings are declared in $.model.labels. An engine study sets no endpoint-only axis.
void checkAxesScope(const Study& s, std::vector<std::string>& errors) {
    const nlohmann::json defaults = RunConfig().allAxesJson();
    for (const auto& nc : s.configs) {
        const nlohmann::json values = nc.config.allAxesJson();
        const bool server = s.onServer(nc.config);
        for (const Axis& axis : configAxes()) {
            const std::string key(axis.name);
            if (axisApplies(axis, server) || values[key] == defaults[key] ||
                (key == "model" && s.hasVariants())) {
                continue;
            }
            const std::string labels =
                s.isEndpoint() ? "$.model.labels" : "$.models." + nc.config.model + ".labels";
            errors.push_back("$.configs." + nc.name + "." + key +
                             (server
                                  ? ": a setting of the server, not of the requests ProbAudit "
                                    "sends; declare the server's settings in " +
                                        labels
                                  : std::string(": applies to a server's configs only (an endpoint "
                                                "study's, or a server variant's)")));
        }
        if (server && nc.config.concurrency > kMaxEndpointConcurrency) {
            errors.push_back("$.configs." + nc.name + ".concurrency: at most " +
                             std::to_string(kMaxEndpointConcurrency) + " requests in flight");
        }
    }
}

// A server gives tokens and their log-probabilities, no hidden states: an endpoint study's
// heads are label tokens or generation, and it captures nothing.
void checkEndpoint(const ordered_json& j, Study& s, std::vector<std::string>& errors) {
    if (!s.isEndpoint()) {
        return;
    }
    for (const auto& h : s.heads) {
        if (h.kind != HeadKind::LabelTokens && h.kind != HeadKind::Generation) {
            errors.push_back("$.heads." + h.name +
                             ": an endpoint study's heads are label_tokens "
                             "or generation (a server returns tokens and "
                             "their log-probabilities, not hidden states)");
        }
        if (h.top_logprobs > 0) {
            errors.push_back("$.heads." + h.name +
                             ".top_logprobs: the server is asked for them in "
                             "$.model.top_logprobs");
        }
        if (h.vocabulary) {
            errors.push_back("$.heads." + h.name +
                             ".vocabulary: a server returns at most its top_logprobs, not the "
                             "whole vocabulary's");
        }
    }
    if (j.contains("capture") && j["capture"] != "none") {
        errors.push_back("$.capture: an endpoint study captures none (a server returns no hidden "
                         "states)");
    }
    s.capture = "none";
}

} // namespace

std::string probauditHome() {
    const char* own = std::getenv("PROBAUDIT_HOME");
    if (own != nullptr && *own != '\0') {
        return own;
    }
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && *xdg == '/') {
        return (fs::path(xdg) / "probaudit").string();
    }
    const char* home = std::getenv("HOME");
    return (fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".cache" / "probaudit")
        .string();
}

namespace {

// $.heads: an object of variant name -> head.
void readHeads(const ordered_json& j, const std::string& baseDir, Study& s,
               std::vector<std::string>& errors) {
    if (!j.contains("heads") || !j["heads"].is_object() || j["heads"].empty()) {
        errors.push_back("$.heads: missing (an object: variant name -> head)");
    } else {
        for (const auto& [name, h] : j["heads"].items()) {
            const std::string path = "$.heads." + name;
            HeadSpec spec = HeadSpec::fromJson(json::parse(h.dump()), path, errors);
            if (h.contains("sha256")) { // recorded by ProbAudit from the file, never declared
                errors.push_back(path + ".sha256: unknown field");
            }
            spec.name = name;
            if (!spec.adapter_path.empty()) {
                spec.adapter_path = resolve(spec.adapter_path, baseDir);
                mustExist(spec.adapter_path, path + ".path", errors);
            }
            s.heads.push_back(std::move(spec));
        }
    }
}

// $.dataset: one file or several, fields, labels, limit and seed.
void readDataset(const ordered_json& j, const std::string& baseDir, Study& s,
                 std::vector<std::string>& errors) {
    if (!j.contains("dataset") || !j["dataset"].is_object()) {
        errors.push_back("$.dataset: missing (an object with \"path\")");
    } else {
        const auto& d = j["dataset"];
        const std::string p = "$.dataset";
        unknownFields(
            d,
            {"path", "format", "text_field", "label_field", "id_field", "labels", "limit", "seed"},
            p, errors);
        // "path": one file, or an array of files read in order.
        if (!d.contains("path")) {
            errors.push_back(p + ".path: missing");
        } else if (d["path"].is_string() && !d["path"].get<std::string>().empty()) {
            s.dataset.paths.push_back(resolve(d["path"].get<std::string>(), baseDir));
            mustExist(s.dataset.paths.back(), p + ".path", errors);
        } else if (d["path"].is_array() && !d["path"].empty()) {
            for (std::size_t i = 0; i < d["path"].size(); ++i) {
                const std::string where = p + ".path[" + std::to_string(i) + "]";
                if (!d["path"][i].is_string() || d["path"][i].get<std::string>().empty()) {
                    errors.push_back(where + ": must be a non-empty string");
                    continue;
                }
                s.dataset.paths.push_back(resolve(d["path"][i].get<std::string>(), baseDir));
                mustExist(s.dataset.paths.back(), where, errors);
            }
        } else {
            errors.push_back(p + ".path: must be a file name or an array of file names");
        }
        if (stringField(d, "format", s.dataset.format, p, errors, false) &&
            s.dataset.format != "jsonl" && s.dataset.format != "csv") {
            errors.push_back(p + ".format: unknown value \"" + s.dataset.format +
                             "\" (one of: jsonl, csv)");
        }
        stringField(d, "text_field", s.dataset.text_field, p, errors, false);
        if (d.contains("label_field") && d["label_field"].is_string()) {
            s.dataset.label_field = d["label_field"].get<std::string>(); // "" = no labels
        } else {
            stringField(d, "label_field", s.dataset.label_field, p, errors, false);
        }
        stringField(d, "id_field", s.dataset.id_field, p, errors, false);
        if (d.contains("labels")) {
            if (!d["labels"].is_array() ||
                !std::all_of(d["labels"].begin(), d["labels"].end(),
                             [](const ordered_json& e) { return e.is_string(); })) {
                errors.push_back(p + ".labels: must be an array of strings");
            } else {
                s.dataset.labels = d["labels"].get<std::vector<std::string>>();
            }
        }
        if (d.contains("limit")) {
            if (!d["limit"].is_number_unsigned() || d["limit"].get<std::uint64_t>() == 0) {
                errors.push_back(p + ".limit: must be an integer >= 1");
            } else {
                s.dataset.limit = d["limit"].get<std::size_t>();
            }
        }
        if (d.contains("seed")) {
            if (!d["seed"].is_number_unsigned()) {
                errors.push_back(p + ".seed: must be an integer >= 0");
            } else {
                s.dataset.seed = d["seed"].get<std::uint64_t>();
            }
        }
    }
}

// $.configs: an object of name -> config (every axis optional, defaults from RunConfig);
// two names for the same configuration are refused.
void readEnvironments(const ordered_json& j, const std::string& baseDir, Study& s,
                      std::vector<std::string>& errors) {
    if (!j.contains("environments")) {
        return;
    }
    if (!j["environments"].is_object()) {
        errors.push_back("$.environments: must be an object of environments by name");
        return;
    }
    for (const auto& [name, e] : j["environments"].items()) {
        const std::string path = "$.environments." + name;
        if (!e.is_object()) {
            errors.push_back(path + ": must be an object with \"python\"");
            continue;
        }
        unknownFields(e, {"$comment", "python", "env", "timeout"}, path, errors);
        Environment env{name, "", {}};
        if (e.contains("timeout")) {
            if (!e["timeout"].is_number() || !(e["timeout"].get<double>() > 0) ||
                e["timeout"].get<double>() > 604800) {
                errors.push_back(path +
                                 ".timeout: must be seconds, more than 0 and at most a week");
            } else {
                env.timeout_seconds = e["timeout"].get<double>();
            }
        }
        if (stringField(e, "python", env.python, path, errors, true) &&
            env.python.find('/') != std::string::npos) {
            env.python = resolve(env.python, baseDir); // a bare name is looked up on PATH
        }
        if (e.contains("env")) {
            if (!e["env"].is_object()) {
                errors.push_back(path + ".env: must be an object of variables and their values");
            } else {
                for (const auto& [var, value] : e["env"].items()) {
                    if (!value.is_string() || var.empty() || var.find('=') != std::string::npos) {
                        errors.push_back(path + ".env." + var + ": must be a string value");
                    } else {
                        env.vars.push_back(var + "=" + value.get<std::string>());
                    }
                }
            }
        }
        s.environments.push_back(std::move(env));
    }
}

// Which runner computes each config: an environment is the transformers runner's (a config of
// a study with one environment runs there unless it names another); the engine's batch-invariant
// kernels exist only in the engine, flash_attention_2 only in transformers.
void checkRunners(Study& s, std::vector<std::string>& errors) {
    for (auto& nc : s.configs) {
        RunConfig& c = nc.config;
        const std::string p = "$.configs." + nc.name;
        if (c.runner == Runner::Engine) {
            if (!c.env.empty()) {
                errors.push_back(p + ".env: an environment is the transformers runner's (runner: "
                                     "transformers), the engine has none");
            }
            if (c.attention == Attention::FlashAttention2) {
                errors.push_back(p + ".attention: flash_attention_2 is the transformers runner's "
                                     "(runner: transformers); the engine has math, sdpa and "
                                     "batch_invariant");
            }
            continue;
        }
        if (s.onServer(c)) {
            continue; // checkAxesScope names runner as not a server's axis
        }
        if (c.env.empty() && s.environments.size() == 1) {
            c.env = s.environments.front().name;
        }
        if (c.env.empty()) {
            errors.push_back(p + ".env: the transformers runner runs in an environment; name one "
                                 "of $.environments");
        } else if (s.environment(c.env) == nullptr) {
            errors.push_back(p + ".env: \"" + c.env + "\" is not one of $.environments");
        }
        if (c.attention == Attention::BatchInvariant || c.kernels == Kernels::BatchInvariant) {
            errors.push_back(p + ": the batch-invariant kernels are the engine's; the transformers "
                                 "runner has attention math, sdpa or flash_attention_2 and the "
                                 "default kernels");
        }
        if (c.gemm != Gemm::Aten) {
            errors.push_back(p + ".gemm: " + nameString(c.gemm) +
                             " is the engine's; the transformers runner's "
                             "linear layers are its torch build's own");
        }
        if (c.concurrency > 1) {
            errors.push_back(p + ".concurrency: the serving simulation is the engine's; the "
                                 "transformers runner generates in static batches (batch_size)");
        }
        for (const auto& h : s.heads) {
            if (h.vocabulary) {
                errors.push_back(p + ": head \"" + h.name +
                                 "\" records the whole vocabulary's log-probabilities, which "
                                 "the engine does; the transformers runner records the label "
                                 "logits only");
            }
        }
    }
}

void readConfigs(const ordered_json& j, Study& s, std::vector<std::string>& errors) {
    if (!j.contains("configs") || !j["configs"].is_object() || j["configs"].empty()) {
        errors.push_back("$.configs: missing (an object: config name -> runtime configuration)");
    } else {
        std::map<std::string, std::string> byHash;
        for (const auto& [name, c] : j["configs"].items()) {
            const std::string path = "$.configs." + name;
            NamedConfig nc{name, RunConfig::fromJson(json::parse(c.dump()), path, errors)};
            checkVariant(s, nc.config, path, errors);
            const auto [it, fresh] = byHash.emplace(nc.config.hash(), name);
            if (!fresh) {
                errors.push_back(path + ": the same configuration as \"" + it->second + "\"");
            }
            s.configs.push_back(std::move(nc));
        }
    }
}

// $.policy: acceptance rules over the configs and heads read above.
void readPolicy(const ordered_json& j, Study& s, std::vector<std::string>& errors) {
    if (!j.contains("policy")) {
        return;
    }
    s.policy = Policy::fromJson(json::parse(j["policy"].dump()), "$.policy", errors);
    std::vector<std::string> configs;
    for (const auto& c : s.configs) {
        configs.push_back(c.name);
    }
    std::vector<std::pair<std::string, bool>> heads;
    for (const auto& h : s.heads) {
        heads.emplace_back(h.name, h.kind == HeadKind::Generation);
    }
    s.policy.checkAgainstStudy(configs, heads, "$.policy", errors);
}

} // namespace

Study Study::fromJson(const ordered_json& j, const std::string& baseDir,
                      std::vector<std::string>& errors) {
    Study s;
    if (!j.is_object()) {
        errors.push_back("$: a study must be a JSON object");
        return s;
    }
    s.source = json::parse(j.dump());
    unknownFields(j,
                  {"$comment", "name", "model", "models", "heads", "dataset", "capture",
                   "environments", "configs", "reference", "policy"},
                  "$", errors);
    stringField(j, "name", s.name, "$", errors, true);

    readModel(j, baseDir, s, errors);
    readHeads(j, baseDir, s, errors);
    readDataset(j, baseDir, s, errors);
    // capture
    if (j.contains("capture")) {
        static const std::set<std::string> levels{"none", "hashes", "vectors", "full"};
        if (!j["capture"].is_string() || !levels.count(j["capture"].get<std::string>())) {
            errors.push_back("$.capture: must be one of: none, hashes, vectors, full");
        } else {
            s.capture = j["capture"].get<std::string>();
        }
    }

    readEnvironments(j, baseDir, s, errors);
    readConfigs(j, s, errors);
    checkRunners(s, errors);
    checkGeneration(s, errors);
    checkAxesScope(s, errors);
    checkEndpoint(j, s, errors);
    if (stringField(j, "reference", s.reference, "$", errors, true) &&
        s.config(s.reference) == nullptr) {
        errors.push_back("$.reference: \"" + s.reference + "\" is not one of the configs");
    }
    checkServerVariants(s, errors);
    readPolicy(j, s, errors);
    return s;
}

Study Study::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open the study file");
    }
    ordered_json j;
    try {
        j = parseCommentedJson(std::string((std::istreambuf_iterator<char>(in)), {}));
    } catch (const JsonError& e) {
        throw Error(path, e.what());
    }
    const std::string abs = fs::absolute(path).lexically_normal().string();
    std::vector<std::string> errors;
    Study s = fromJson(j, fs::path(abs).parent_path().string(), errors);
    if (!errors.empty()) {
        std::string all = std::to_string(errors.size()) + " problem" +
                          (errors.size() == 1 ? "" : "s") + " in the study:";
        for (const auto& e : errors) {
            all += "\n  " + e;
        }
        throw Error(path, all);
    }
    s.file = abs;
    return s;
}

const NamedConfig* Study::config(const std::string& name) const {
    for (const auto& c : configs) {
        if (c.name == name) {
            return &c;
        }
    }
    return nullptr;
}

const Environment* Study::environment(const std::string& name) const {
    for (const auto& e : environments) {
        if (e.name == name) {
            return &e;
        }
    }
    return nullptr;
}

const HeadSpec* Study::head(const std::string& name) const {
    for (const auto& h : heads) {
        if (h.name == name) {
            return &h;
        }
    }
    return nullptr;
}

const ModelVariant* Study::variant(const std::string& name) const {
    if (name.empty()) {
        return models.empty() ? nullptr : &models.front();
    }
    for (const auto& v : models) {
        if (v.name == name) {
            return &v;
        }
    }
    return nullptr;
}

json Study::resolvedJson() const {
    json heads = json::object();
    for (const auto& h : this->heads) {
        heads[h.name] = h.toJson();
    }
    json configs = json::object();
    for (const auto& c : this->configs) {
        configs[c.name] = c.config.toJson();
    }
    json d{{"path", dataset.paths},
           {"format", dataset.format},
           {"text_field", dataset.text_field},
           {"label_field", dataset.label_field},
           {"id_field", dataset.id_field},
           {"labels", dataset.labels},
           {"limit", dataset.limit}};
    if (dataset.seed) {
        d["seed"] = *dataset.seed;
    }
    json model{{"path", model_path}, {"format", model_format}};
    if (isEndpoint()) {
        model = endpoint.toJson();
        model["format"] = model_format;
    }
    json out{{"name", name},       {"model", model},     {"heads", heads},        {"dataset", d},
             {"capture", capture}, {"configs", configs}, {"reference", reference}};
    if (hasVariants()) { // absent without: earlier ledgers keep their study
        // What a reader of one model shows: the reference config's variant.
        const NamedConfig* ref = config(reference);
        const ModelVariant* rv = variant(ref != nullptr ? ref->config.model : std::string());
        rv = rv != nullptr ? rv : &models.front();
        out["model"] = {{"path", rv->path}, {"format", rv->format}, {"variant", rv->name}};
        json variants = json::object();
        for (const auto& v : models) {
            variants[v.name] = {{"path", v.path}, {"format", v.format}};
            if (v.isEndpoint()) {
                variants[v.name] = {
                    {"format", v.format}, {"serves", v.serves}, {"server", v.endpoint.toJson()}};
            }
        }
        out["models"] = variants;
    }
    if (!environments.empty()) { // absent without: earlier ledgers keep their study
        json envs = json::object();
        for (const auto& e : environments) {
            envs[e.name] = {{"python", e.python}, {"env", e.vars}};
        }
        out["environments"] = envs;
    }
    if (!policy.empty()) { // absent without: earlier ledgers keep their study
        out["policy"] = policy.toJson();
    }
    return out;
}

} // namespace probaudit::study
