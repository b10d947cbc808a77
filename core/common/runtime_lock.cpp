#include "core/common/runtime_lock.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

namespace probaudit {

using json = nlohmann::json;

namespace {

// The field `key` of `j` as T; Error naming the file and the field when absent or mistyped.
template <class T>
T field(const json& j, const char* key, const std::string& file, const std::string& where = "") {
    const auto it = j.find(key);
    if (it == j.end()) {
        throw Error(file, "not a complete runtime lock: no \"" + where + key + "\"");
    }
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw Error(file, "runtime lock field \"" + where + key + "\" has the wrong type");
    }
}

const json& objectField(const json& j, const char* key, const std::string& file,
                        const std::string& where = "") {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_object()) {
        throw Error(file, "runtime lock field \"" + where + key + "\" must be an object");
    }
    return *it;
}

const json& arrayField(const json& j, const char* key, const std::string& file,
                       const std::string& where = "") {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array()) {
        throw Error(file, "runtime lock field \"" + where + key + "\" must be an array");
    }
    return *it;
}

json resultJson(const LockedResult& r) {
    return {{"id", r.id},
            {"probs", r.probs},
            {"probs_bits", r.probs_bits},
            {"logits_bits", r.logits_bits},
            {"decision", r.decision},
            {"layer_hashes", r.layer_hashes}};
}

LockedResult readResult(const json& r, const std::string& file) {
    if (!r.is_object()) {
        throw Error(file, "runtime lock field \"sample.results\" must hold objects");
    }
    const std::string where = "sample.results[].";
    LockedResult out;
    out.id = field<std::string>(r, "id", file, where);
    out.probs = field<std::vector<float>>(r, "probs", file, where);
    out.probs_bits = field<std::vector<std::string>>(r, "probs_bits", file, where);
    out.logits_bits = field<std::vector<std::string>>(r, "logits_bits", file, where);
    out.decision = field<int>(r, "decision", file, where);
    out.layer_hashes = field<std::vector<std::string>>(r, "layer_hashes", file, where);
    return out;
}

void readSample(const json& j, const std::string& file, RuntimeLock& lock) {
    const json& sample = objectField(j, "sample", file);
    for (const auto& it : arrayField(sample, "items", file, "sample.")) {
        if (!it.is_object()) {
            throw Error(file, "runtime lock field \"sample.items\" must hold objects");
        }
        lock.sample_items.emplace_back(field<std::string>(it, "id", file, "sample.items[]."),
                                       field<std::string>(it, "text", file, "sample.items[]."));
    }
    for (const auto& r : arrayField(sample, "results", file, "sample.")) {
        lock.sample_results.push_back(readResult(r, file));
    }
    if (lock.sample_results.size() != lock.sample_items.size()) {
        throw Error(file, "runtime lock has " + std::to_string(lock.sample_items.size()) +
                              " sample items but " + std::to_string(lock.sample_results.size()) +
                              " results");
    }
}

} // namespace

bool LockedResult::sameBits(const LockedResult& other) const {
    return probs_bits == other.probs_bits && logits_bits == other.logits_bits &&
           layer_hashes == other.layer_hashes;
}

json RuntimeLock::toJson() const {
    json texts = json::array();
    for (const auto& [id, text] : sample_items) {
        texts.push_back({{"id", id}, {"text", text}});
    }
    json results = json::array();
    for (const auto& r : sample_results) {
        results.push_back(resultJson(r));
    }
    json lock{{"probaudit_lock", kSchema},
              {"created", created},
              {"study", study},
              {"ledger", ledger},
              {"run", run},
              {"head", head.toJson()},
              {"config_name", config_name},
              {"config", config.toJson()},
              {"config_hash", config_hash},
              {"environment", environment},
              {"environment_hash", environment_hash},
              {"records_sha256", records_sha256},
              {"items", items},
              {"sample", {{"items", texts}, {"results", results}}}};
    if (runner_environment) {
        const auto& e = *runner_environment;
        lock["runner_environment"] = {{"name", e.name}, {"python", e.python}, {"env", e.env}};
        lock["model"] = model;
    }
    return lock;
}

bool RuntimeLock::isLock(const json& j) {
    return j.is_object() && j.contains("probaudit_lock");
}

RuntimeLock RuntimeLock::fromJson(const json& j, const std::string& file) {
    if (!isLock(j)) {
        throw Error(file, "not a ProbAudit runtime lock");
    }
    if (field<std::int64_t>(j, "probaudit_lock", file) != kSchema) {
        throw Error(file, "a runtime lock of another schema (this ProbAudit reads schema " +
                              std::to_string(kSchema) + ")");
    }
    RuntimeLock lock;
    lock.created = field<std::string>(j, "created", file);
    lock.study = field<std::string>(j, "study", file);
    lock.ledger = field<std::string>(j, "ledger", file);
    lock.run = field<std::int64_t>(j, "run", file);
    lock.head = HeadSpec::fromJson(objectField(j, "head", file), file + ": head");
    lock.config_name = field<std::string>(j, "config_name", file);
    try {
        lock.config = RunConfig::fromJson(objectField(j, "config", file));
    } catch (const Error& e) {
        throw Error(file, std::string("runtime lock config: ") + e.what());
    }
    lock.config_hash = field<std::string>(j, "config_hash", file);
    lock.environment = objectField(j, "environment", file);
    lock.environment_hash = field<std::string>(j, "environment_hash", file);
    lock.records_sha256 = field<std::string>(j, "records_sha256", file);
    lock.items = field<std::int64_t>(j, "items", file);
    readSample(j, file, lock);
    if (j.contains("runner_environment")) {
        const json& e = objectField(j, "runner_environment", file);
        const std::string where = "runner_environment.";
        lock.runner_environment =
            LockedRunnerEnvironment{field<std::string>(e, "name", file, where),
                                    field<std::string>(e, "python", file, where),
                                    field<std::vector<std::string>>(e, "env", file, where)};
        lock.model = field<std::string>(j, "model", file);
    }
    return lock;
}

RuntimeLock RuntimeLock::load(const std::string& path) {
    return fromJson(readJsonFile(path), path);
}

} // namespace probaudit
