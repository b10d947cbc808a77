// Kubernetes' part of a sweep (sweep.h): an Indexed Job manifest, nothing that talks to a
// cluster.
#include "core/sweep/sweep.h"

#include "core/common/error.h"

#include <cctype>
#include <filesystem>

namespace fs = std::filesystem;

namespace probaudit::sweep {

namespace {

// A DNS-1123 label from the study's name: lower case, digits and '-', at most 52 characters
// (the Job controller adds the index to its pods' names).
std::string dnsLabel(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool ok = std::isalnum(u) != 0;
        if (ok || (!out.empty() && out.back() != '-')) {
            out += ok ? char(std::tolower(u)) : '-';
        }
    }
    out.resize(std::min<std::size_t>(out.size(), 52));
    while (!out.empty() && out.back() == '-') {
        out.pop_back();
    }
    return out;
}

bool isDnsLabel(const std::string& s) {
    return !s.empty() && s.size() <= 63 && dnsLabel(s) == s;
}

} // namespace

K8sOptions completeK8sOptions(K8sOptions o, const std::string& localStudy) {
    if (o.image.empty()) {
        throw Error("--k8s needs --image IMAGE: the container image the pods run (with probaudit "
                    "in it)");
    }
    if (o.pvc.empty()) {
        throw Error("--k8s needs --pvc NAME: the PersistentVolumeClaim that holds the study and "
                    "the shards' ledgers (they must outlive the pods)");
    }
    if (o.mount.empty() || o.mount[0] != '/') {
        throw Error("--mount " + o.mount + ": must be an absolute path in the pods");
    }
    const std::string stem = fs::path(defaultSweepDir(localStudy)).stem().string();
    const fs::path mount(o.mount);
    if (o.study.empty()) {
        o.study = (mount / fs::path(localStudy).filename()).string();
    }
    if (o.sweepDir.empty()) {
        o.sweepDir = (mount / (stem + ".sweep")).string();
    }
    for (const std::string* p : {&o.study, &o.sweepDir}) {
        if ((*p)[0] != '/') {
            throw Error(*p + ": paths in the pods must be absolute (--pod-study, --dir)");
        }
    }
    if (o.name.empty()) {
        o.name = "probaudit-" + dnsLabel(stem);
    }
    if (!isDnsLabel(o.name)) {
        throw Error("--name " + o.name +
                    ": a Job's name must be a DNS label (lower case letters, "
                    "digits and '-', at most 63 characters)");
    }
    if (o.shards < 1 || o.gpus < 0 || o.retries < 0) {
        throw Error("--k8s needs --shards N (1..4096), --gpu 0 or more, --retries 0 or more");
    }
    return o;
}

nlohmann::json k8sJob(const K8sOptions& o) {
    // Pod I of the Job records shard I+1; a replacement pod resumes its ledger.
    const char* script = "shard=$((JOB_COMPLETION_INDEX + 1)); mkdir -p \"$SWEEP_DIR\"; "
                         "exec \"$PROBAUDIT\" run \"$STUDY\" --all --shard \"$shard/$SHARDS\" "
                         "--ledger \"$SWEEP_DIR/shard-$shard.ledger\"";
    using nlohmann::json;
    json env = json::array();
    for (const auto& [name, value] : {std::pair<std::string, std::string>{"PROBAUDIT", o.probaudit},
                                      {"STUDY", o.study},
                                      {"SHARDS", std::to_string(o.shards)},
                                      {"SWEEP_DIR", o.sweepDir}}) {
        env.push_back({{"name", name}, {"value", value}});
    }
    json container = {{"name", "shard"},
                      {"image", o.image},
                      {"command", json::array({"/bin/sh", "-c", script})},
                      {"workingDir", fs::path(o.study).parent_path().string()},
                      {"env", env}};
    container["volumeMounts"] = json::array({json{{"name", "study"}, {"mountPath", o.mount}}});
    if (o.gpus > 0) {
        container["resources"]["limits"]["nvidia.com/gpu"] = std::to_string(o.gpus);
    }
    const json labels = {{"app.kubernetes.io/name", "probaudit"},
                         {"app.kubernetes.io/instance", o.name}};
    json pod = {{"restartPolicy", "Never"}};
    pod["containers"] = json::array({container});
    pod["volumes"] = json::array(
        {json{{"name", "study"}, {"persistentVolumeClaim", json{{"claimName", o.pvc}}}}});
    json spec = {{"completionMode", "Indexed"},
                 {"completions", o.shards},
                 {"parallelism", o.shards},
                 {"backoffLimitPerIndex", o.retries},
                 {"podReplacementPolicy", "Failed"}};
    spec["template"] = {{"metadata", {{"labels", labels}}}, {"spec", pod}};
    json job = {{"apiVersion", "batch/v1"}, {"kind", "Job"}};
    job["metadata"] = {{"name", o.name}, {"labels", labels}};
    job["spec"] = spec;
    return job;
}

} // namespace probaudit::sweep
