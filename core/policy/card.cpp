#include "core/policy/card.h"

#include "core/analysis/review.h"
#include "core/common/env_facts.h"
#include "core/common/error.h"
#include "core/common/file_digest.h"
#include "core/common/runtime_lock.h"
#include "core/ledger/ledger.h"
#include "core/ledger/trust.h"
#include "core/policy/gate.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace probaudit::policy {

using nlohmann::json;

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// The runtime as a reader of a model card names it.
json runtimeOf(const json& fingerprint) {
    const EnvFingerprint f = EnvFingerprint::read(fingerprint);
    json r = json::object();
    const auto put = [&](const char* key, const std::optional<std::string>& v) {
        if (v && !v->empty()) {
            r[key] = *v;
        }
    };
    put("engine", f.engine.version);
    put("engine_commit", f.engine.commit);
    put("python", f.python);
    put("transformers", f.transformers);
    put("torch", f.torch.version);
    put("torch_cuda", f.torch.cuda_build);
    put("cudnn", f.cuda.cudnn_version ? f.cuda.cudnn_version : f.torch.cudnn_build);
    put("cublas", f.cuda.cublas_version);
    put("blas", f.torch.blas);
    put("onednn", f.torch.onednn_version);
    put("cpu", f.cpu.model);
    put("cpu_capability", f.cpu.aten_capability);
    put("gpu_driver", f.cuda.driver_version);
    json gpus = json::array();
    for (const auto& g : f.cuda.gpus) {
        if (g.name) {
            gpus.push_back(*g.name);
        }
    }
    if (!gpus.empty()) {
        r["gpus"] = gpus;
    }
    if (!f.env_vars.empty()) {
        json vars = json::object();
        for (const auto& [k, v] : f.env_vars) {
            vars[k] = v;
        }
        r["variables"] = vars;
    }
    return r;
}

json rowOf(const analysis::ReviewRow& row) {
    json j{
        {"config", row.config}, {"differs_in", row.differs_in}, {"config_json", row.config_json}};
    if (!row.cmp) {
        j["recorded"] = false;
        return j;
    }
    const auto& c = *row.cmp;
    const auto rate = analysis::wilson(c.flips, c.items);
    j["recorded"] = true;
    j["items"] = c.items;
    j["max_dp_points"] = c.max_dp;
    j["flips"] = c.flips;
    j["flip_rate_interval"] = {rate.low, rate.high};
    j["agreement"] = c.agreement;
    j["bit_identical_share"] = c.bit_identical_share;
    j["first_divergent"] = analysis::firstLayers(c);
    if (c.accuracy_diff) {
        j["accuracy_diff_points"] = {100 * c.accuracy_diff->estimate, 100 * c.accuracy_diff->low,
                                     100 * c.accuracy_diff->high};
        j["detectable_accuracy_diff_points"] =
            100 * analysis::pairedMinimumDetectableDifference(c.only_a_correct + c.only_b_correct,
                                                              c.labelled);
    }
    return j;
}

json verdictOf(const std::string& ledgerPath, const json& study) {
    if (!study.contains("policy")) {
        return nullptr;
    }
    const GateResult g = gate(ledgerPath);
    return {{"result", g.failed > 0    ? "FAIL"
                       : g.unknown > 0 ? "INCOMPLETE"
                                       : "PASS"},
            {"passed", g.passed},
            {"failed", g.failed},
            {"unknown", g.unknown},
            {"registration", g.registration},
            {"policy_sha256", g.policy_sha256}};
}

// A lock names the runtime on the card only when it pins a run of this ledger: one whose records
// and environment are the lock's.
void requireLockOf(const RuntimeLock& lock, const std::string& lockPath,
                   const std::string& ledgerPath) {
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    for (const ledger::Run& run : led.runs()) {
        if (run.records_sha256 == lock.records_sha256 && run.env_hash == lock.environment_hash) {
            return;
        }
    }
    throw Error(lockPath, "pins run " + std::to_string(lock.run) + " of \"" + lock.study +
                              "\", which is not in " + ledgerPath +
                              " (no run here has its records and environment)");
}

} // namespace

json cardData(const std::string& ledgerPath, const std::string& head, const std::string& lockPath) {
    const analysis::Review rv = analysis::loadReview(ledgerPath, head);
    if (rv.trust.state == ledger::Trust::State::Tampered) {
        throw Error(ledgerPath, "was changed after it was sealed (" + rv.trust.problem +
                                    "); no card is made from it");
    }
    if (rv.generation) {
        throw Error(ledgerPath, "its head \"" + rv.head +
                                    "\" generates text; the card covers decision heads (choose one "
                                    "with --head)");
    }
    const analysis::ReviewRow* ref = rv.row(rv.reference_name);
    if (ref == nullptr || !ref->run) {
        throw Error(ledgerPath, "has no finished run of the reference config \"" +
                                    rv.reference_name + "\" to name the verified runtime");
    }
    const auto env = rv.environments.find(ref->run->env_hash);
    json verified = env == rv.environments.end() ? json::object() : runtimeOf(env->second);
    json pinnedBy = nullptr;
    if (!lockPath.empty()) {
        const RuntimeLock lock = RuntimeLock::load(lockPath);
        requireLockOf(lock, lockPath, ledgerPath);
        verified = runtimeOf(lock.environment);
        pinnedBy = {{"lock", std::filesystem::path(lockPath).filename().string()},
                    {"run", lock.run},
                    {"config", lock.config_name},
                    {"created", lock.created}};
    }
    json others = json::array();
    for (const auto& row : rv.rows) {
        if (!row.reference) {
            others.push_back(rowOf(row));
        }
    }
    const auto chainHead = rv.trust.verify.head;
    const auto labelled = std::count_if(rv.items.begin(), rv.items.end(),
                                        [](const ledger::Item& i) { return i.label.has_value(); });
    return {{"model", rv.facts.model.served
                          ? rv.facts.model.name
                          : std::filesystem::path(rv.facts.model.path).filename().string()},
            {"model_sha256", rv.facts.model.sha256},
            {"study", rv.facts.name},
            {"head", rv.head},
            {"items", rv.items.size()},
            {"labelled_items", labelled},
            {"reference", {{"config", rv.reference_name}, {"config_json", ref->config_json}}},
            {"verified_runtime", verified},
            {"pinned_by", pinnedBy},
            {"other_runtimes", others},
            {"verdict", verdictOf(ledgerPath, rv.study)},
            {"ledger",
             {{"file", std::filesystem::path(ledgerPath).filename().string()},
              {"sha256", fileSha256(ledgerPath)},
              {"chain_head", chainHead ? chainHead->text() : ""},
              {"trust", rv.trust.line()}}}};
}

namespace {

std::string runtimeLine(const json& r) {
    std::string s;
    const auto add = [&](const std::string& label, const char* key) {
        if (r.contains(key)) {
            s += (s.empty() ? "" : "; ") + label + " " +
                 (r[key].is_string() ? r[key].get<std::string>() : r[key].dump());
        }
    };
    add("torch", "torch");
    add("CUDA build", "torch_cuda");
    add("cuDNN", "cudnn");
    add("cuBLAS", "cublas");
    add("BLAS", "blas");
    add("oneDNN", "onednn");
    add("CPU", "cpu");
    add("ATen capability", "cpu_capability");
    add("GPUs", "gpus");
    add("driver", "gpu_driver");
    add("Python", "python");
    add("transformers", "transformers");
    add("ProbAudit engine", "engine");
    add("numerics variables", "variables");
    return s.empty() ? "not recorded" : s;
}

std::string points(double v) {
    if (v == 0) {
        return "0";
    }
    if (v < 0.001) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1e", v);
        return buf;
    }
    return fixed(v, 3);
}

// The config's settings a reader needs: every axis not at its off value.
std::string settings(const json& config) {
    std::string s;
    for (const auto& [axis, v] : config.items()) {
        if (v == false || v == "" || v == 0) {
            continue;
        }
        s += (s.empty() ? "" : ", ") + axis + " " +
             (v.is_string() ? v.get<std::string>() : v.dump());
    }
    return s;
}

std::string flipsText(const json& row) {
    const auto flips = row["flips"].get<std::int64_t>();
    const auto items = row["items"].get<std::int64_t>();
    const double high = row["flip_rate_interval"][1].get<double>();
    return std::to_string(flips) + " of " + std::to_string(items) + " (rate ≤ " +
           fixed(100 * high, 1) + "%)";
}

} // namespace

std::string cardMarkdown(const json& card) {
    std::string md = "## Reproducibility\n\n";
    md += "Decisions of **" + card["model"].get<std::string>() + "** (head `" +
          card["head"].get<std::string>() + "`) on " + std::to_string(card["items"].get<int>()) +
          " items of the study *" + card["study"].get<std::string>() +
          "*, audited with ProbAudit.\n\n";
    const json& pin = card["pinned_by"];
    md += "**Verified runtime** (" +
          (pin.is_object()
               ? "pinned in `" + pin["lock"].get<std::string>() + "` from run " +
                     std::to_string(pin["run"].get<std::int64_t>()) + ", config `" +
                     pin["config"].get<std::string>() + "`"
               : "the reference config `" + card["reference"]["config"].get<std::string>() + "`") +
          "): " + runtimeLine(card["verified_runtime"]) + ".\n\n";
    md += "**Supported path**: this runtime with " + settings(card["reference"]["config_json"]) +
          ". Other runtimes give other probabilities, as measured below.\n\n";
    md += "| Runtime (differs in) | Largest Δp (points) | Flips (95% bound) | Agreement | "
          "Bit-identical | First divergence | Smallest detectable ΔAcc |\n"
          "|---|---|---|---|---|---|---|\n";
    for (const json& row : card["other_runtimes"]) {
        std::string differs;
        for (const auto& d : row["differs_in"]) {
            differs += (differs.empty() ? "" : ", ") + d.get<std::string>();
        }
        md += "| `" + row["config"].get<std::string>() + "` (" + differs + ") | ";
        if (!row["recorded"].get<bool>()) {
            md += "not recorded | | | | | |\n";
            continue;
        }
        md +=
            points(row["max_dp_points"].get<double>()) + " | " + flipsText(row) + " | " +
            fixed(row["agreement"].get<double>(), 4) + " | " +
            fixed(100 * row["bit_identical_share"].get<double>(), 1) + "% | " +
            row["first_divergent"].get<std::string>() + " | " +
            (row.contains("detectable_accuracy_diff_points")
                 ? "±" + fixed(row["detectable_accuracy_diff_points"].get<double>(), 1) + " points"
                 : std::string("no labels")) +
            " |\n";
    }
    const auto items = card["items"].get<std::int64_t>();
    md += "\n**What this sample does not show**: " + std::to_string(items) +
          " items; a runtime with no flip among them may still flip up to " +
          fixed(100 * analysis::wilson(0, items).high, 1) +
          "% of decisions (Wilson 95% upper bound), so \"no flips\" here is not \"no flips\". "
          "An accuracy difference smaller than a runtime's smallest detectable ΔAcc (80% power, "
          "5% two-sided, from its observed disagreement with the reference; with none observed, "
          "from the disagreement's 95% bound) could go unseen at this sample size.\n\n";
    if (card["verdict"].is_object()) {
        const json& v = card["verdict"];
        md += "**Policy verdict**: " + v["result"].get<std::string>() + " (" +
              std::to_string(v["passed"].get<int>()) + " checks passed, " +
              std::to_string(v["failed"].get<int>()) + " failed, " +
              std::to_string(v["unknown"].get<int>()) + " could not be evaluated); policy " +
              v["registration"].get<std::string>() + ".\n\n";
    }
    md += "**Check it**: ledger `" + card["ledger"]["file"].get<std::string>() + "`, SHA-256 `" +
          card["ledger"]["sha256"].get<std::string>() + "`, chain head `" +
          card["ledger"]["chain_head"].get<std::string>() + "` (" +
          card["ledger"]["trust"].get<std::string>() + "): `probaudit verify " +
          card["ledger"]["file"].get<std::string>() + " --head " +
          card["ledger"]["chain_head"].get<std::string>() + "`.\n";
    return md;
}

std::string cardModelIndexYaml(const json& card) {
    // Strings as JSON strings: valid YAML double-quoted scalars, whatever a name holds.
    const auto q = [](const std::string& s) { return json(s).dump(); };
    std::string y = "model-index:\n- name: " + q(card["model"].get<std::string>()) +
                    "\n  results:\n  - task:\n      type: text-classification\n    dataset:\n"
                    "      name: " +
                    q(card["study"].get<std::string>()) +
                    "\n      type: " + q(card["study"].get<std::string>()) + "\n    metrics:\n";
    const std::string ref = card["reference"]["config"].get<std::string>();
    for (const json& row : card["other_runtimes"]) {
        if (!row["recorded"].get<bool>()) {
            continue;
        }
        const std::string c = row["config"].get<std::string>();
        y += "    - type: decision_agreement\n      value: " +
             fixed(row["agreement"].get<double>(), 6) +
             "\n      name: " + q("decision agreement, " + c + " vs " + ref) + "\n";
        y += "    - type: max_delta_p_points\n      value: " +
             fixed(row["max_dp_points"].get<double>(), 6) +
             "\n      name: " + q("largest probability difference (points), " + c + " vs " + ref) +
             "\n";
    }
    return y;
}

} // namespace probaudit::policy
