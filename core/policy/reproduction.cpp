#include "core/policy/reproduction.h"

#include "core/analysis/compare.h"
#include "core/analysis/fingerprint.h"
#include "core/analysis/review.h"
#include "core/common/file_digest.h"
#include "core/common/protocol.h"
#include "core/ledger/ledger.h"
#include "core/policy/attestation.h"
#include "core/policy/gate.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace probaudit::policy {

using nlohmann::json;

namespace {

bool imported(const ledger::Run& r) {
    return r.label.rfind(ledger::kImportedFrom, 0) == 0;
}

// Whether every check of the policy's rules that select `config` passes on the pair.
bool withinPolicy(const json& study, const std::string& config, const analysis::Comparison& c,
                  std::string& detail) {
    if (!study.contains("policy")) {
        return false;
    }
    std::vector<std::string> errors;
    const Policy p = Policy::fromJson(study["policy"], "$.policy", errors);
    const json configs = study.value("configs", json::object());
    const json ref = configs.value(study.value("reference", ""), json::object());
    const auto classes = classesOf(analysis::differingAxes(ref, configs.value(config, json())));
    int checks = 0;
    for (const PolicyRule& rule : p.rules) {
        const bool selects =
            rule.all_configs ||
            std::find(rule.configs.begin(), rule.configs.end(), config) != rule.configs.end() ||
            std::any_of(rule.classes.begin(), rule.classes.end(), [&](const std::string& k) {
                return std::find(classes.begin(), classes.end(), k) != classes.end();
            });
        for (const PolicyCheck& check : rule.checks) {
            if (!selects || !criterionApplies(check.criterion, false)) {
                continue;
            }
            GateRow row;
            row.criterion = check.criterion;
            row.limit = check.limit;
            judgeRecords(row, c);
            ++checks;
            if (row.outcome != Outcome::Pass) {
                detail = rule.name + " / " + std::string(criterionName(check.criterion)) + ": " +
                         row.detail;
                return false;
            }
        }
    }
    return checks > 0;
}

ReproducedRun classify(const analysis::RunData& original, const analysis::RunData& reproduced,
                       const ledger::Ledger& led, const json& study,
                       const std::vector<ledger::Item>& items) {
    ReproducedRun r;
    r.head = reproduced.run.head;
    r.config = reproduced.run.config_name;
    r.original_run = original.run.id;
    r.reproduced_run = reproduced.run.id;
    r.original_env = original.run.env_hash;
    r.reproduced_env = reproduced.run.env_hash;
    const analysis::Comparison c = analysis::compare(original, reproduced, items);
    r.items = c.items;
    r.flips = c.flips;
    r.max_dp = c.max_dp;
    r.bit_identical_share = c.bit_identical_share;
    if (original.run.numerics_sha256 == reproduced.run.numerics_sha256) {
        r.kind = Reproduction::Exact;
        r.detail = "the same numbers, bit for bit";
        return r;
    }
    if (r.original_env == r.reproduced_env) {
        r.kind = Reproduction::Drift;
        r.detail = "other numbers from the same environment fingerprint: something it does not "
                   "record changed them";
        return r;
    }
    r.env_differences = analysis::environmentSentences(led.environment(r.original_env),
                                                       led.environment(r.reproduced_env));
    std::string why;
    if (withinPolicy(study, r.config, c, why)) {
        r.kind = Reproduction::WithinPolicy;
        r.detail = "another environment; the difference is within the policy's limits";
    } else {
        r.kind = Reproduction::CrossNumerics;
        r.detail = "another environment" + (why.empty() ? std::string() : " (" + why + ")");
    }
    return r;
}

} // namespace

std::string_view reproductionName(Reproduction r) {
    switch (r) {
    case Reproduction::Exact:
        return "exact";
    case Reproduction::WithinPolicy:
        return "within policy";
    case Reproduction::CrossNumerics:
        return "cross-numerics";
    default:
        return "drift";
    }
}

bool ReproductionResult::drift() const {
    return std::any_of(runs.begin(), runs.end(),
                       [](const ReproducedRun& r) { return r.kind == Reproduction::Drift; });
}

int ReproductionResult::exitCode() const {
    return runs.empty() ? protocol::kExitError
           : drift()    ? protocol::kExitResultsDiffer
                        : protocol::kExitOk;
}

std::string ReproductionResult::assurance() const {
    return runs.empty()              ? "not reproduced"
           : drift()                 ? "drift"
           : !not_reproduced.empty() ? "partially reproduced"
                                     : "reproduced";
}

json ReproductionResult::toJson() const {
    json out = json::array();
    for (const ReproducedRun& r : runs) {
        out.push_back({{"head", r.head},
                       {"config", r.config},
                       {"original_run", r.original_run},
                       {"reproduced_run", r.reproduced_run},
                       {"original_environment", r.original_env},
                       {"reproduced_environment", r.reproduced_env},
                       {"classification", reproductionName(r.kind)},
                       {"items", r.items},
                       {"flips", r.flips},
                       {"max_dp_points", r.max_dp},
                       {"bit_identical_share", r.bit_identical_share},
                       {"environment_differences", r.env_differences},
                       {"detail", r.detail}});
    }
    return {{"ledger", ledger},
            {"runs", out},
            {"not_reproduced", not_reproduced},
            {"drift", drift()},
            {"exit", exitCode()}};
}

ReproductionResult classifyReproduction(const std::string& ledgerPath) {
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    const json study = led.study();
    const auto items = led.items();
    ReproductionResult out;
    out.ledger = ledgerPath;
    std::map<std::pair<std::string, std::string>, const ledger::Run*> latest;
    const auto runs = led.runs();
    for (const ledger::Run& r : runs) {
        if (r.kind == RunKind::Study && r.status == ledger::RunStatus::Finished && !imported(r)) {
            latest[{r.head, r.config_name}] = &r; // runs() is in id order: the last wins
        }
    }
    for (const ledger::Run& o : runs) {
        if (!imported(o) || o.kind != RunKind::Study) {
            continue;
        }
        const auto it = latest.find({o.head, o.config_name});
        if (it == latest.end()) {
            out.not_reproduced.push_back(o.head + " / " + o.config_name);
            continue;
        }
        const analysis::RunData a{o, led.records(o.id)};
        const analysis::RunData b{*it->second, led.records(it->second->id)};
        out.runs.push_back(classify(a, b, led, study, items));
    }
    return out;
}

json reproductionStatement(const ReproductionResult& r, const std::string& bundlePath) {
    const ledger::Ledger led(r.ledger, ledger::Ledger::Mode::Read);
    const auto head = led.head();
    json environments = json::object();
    for (const ReproducedRun& run : r.runs) {
        for (const std::string& h : {run.original_env, run.reproduced_env}) {
            environments[h] = led.environment(h);
        }
    }
    const auto name = [](const std::string& p) {
        return std::filesystem::path(p).filename().string();
    };
    return {
        {"_type", kStatementType},
        {"subject",
         {{{"name", "bundle/" + name(bundlePath)},
           {"digest", {{"sha256", fileSha256(bundlePath)}}}},
          {{"name", "ledger/" + name(r.ledger)}, {"digest", {{"sha256", fileSha256(r.ledger)}}}},
          {{"name", "ledger-chain-head/" + std::to_string(head ? head->seq : 0)},
           {"digest", {{"sha256", head ? head->sha256 : std::string()}}}}}},
        {"predicateType", kReproductionType},
        {"predicate",
         {{"assurance", r.assurance()},
          {"drift", r.drift()},
          {"runs", r.toJson()["runs"]},
          {"not_reproduced", r.not_reproduced},
          {"environments", environments}}}};
}

} // namespace probaudit::policy
