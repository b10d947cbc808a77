#include "core/ledger/policy_record.h"

#include "core/common/sha256.h"
#include "core/common/utc_now.h"

#include <algorithm>

namespace probaudit::ledger {

using nlohmann::json;

namespace {
constexpr const char* kMetaKey = "policy_registration";
}

json PolicyRegistration::toJson() const {
    return {{"sha256", sha256}, {"after_runs", after_runs}, {"registered", registered}};
}

std::optional<PolicyRegistration> PolicyRegistration::fromJson(const json& j) {
    if (!j.is_object() || !j.contains("sha256") || !j["sha256"].is_string() ||
        !j.contains("after_runs") || !j["after_runs"].is_array()) {
        return std::nullopt;
    }
    PolicyRegistration r;
    r.sha256 = j["sha256"].get<std::string>();
    for (const json& id : j["after_runs"]) {
        if (!id.is_number_integer()) {
            return std::nullopt;
        }
        r.after_runs.push_back(id.get<std::int64_t>());
    }
    if (j.contains("registered") && j["registered"].is_string()) {
        r.registered = j["registered"].get<std::string>();
    }
    return r;
}

std::string studyPolicySha256(const json& study) {
    if (!study.is_object() || !study.contains("policy") || study["policy"].is_null()) {
        return {};
    }
    const std::string text = study["policy"].dump();
    return sha256Hex(text.data(), text.size());
}

std::optional<PolicyRegistration> policyRegistration(const Ledger& led) {
    const std::string text = led.meta(kMetaKey);
    if (text.empty()) {
        return std::nullopt;
    }
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    return PolicyRegistration::fromJson(j);
}

void recordPolicyRegistration(Ledger& led, const PolicyRegistration& r) {
    led.setMeta(kMetaKey, r.toJson().dump());
}

void registerPolicy(Ledger& led, const json& stored, const json& next) {
    const std::string sha = studyPolicySha256(next);
    const auto before = policyRegistration(led);
    if (before && before->sha256 == sha && studyPolicySha256(stored) == sha) {
        return; // the same policy, registered earlier
    }
    if (!before && sha.empty() && studyPolicySha256(stored).empty()) {
        return; // no policy, never had one
    }
    PolicyRegistration r;
    r.sha256 = sha;
    r.registered = utcNow();
    for (const Run& run : led.runs()) {
        r.after_runs.push_back(run.id);
    }
    recordPolicyRegistration(led, r);
}

void carryPolicyRegistration(const Ledger& src, Ledger& dst,
                             const std::map<std::int64_t, std::int64_t>& copied) {
    const std::string sha = studyPolicySha256(dst.study());
    if (sha.empty() || copied.empty()) {
        return;
    }
    const auto from = policyRegistration(src);
    PolicyRegistration r = policyRegistration(dst).value_or(PolicyRegistration{sha, {}, utcNow()});
    for (const auto& [srcRun, dstRun] : copied) {
        const bool before = from && from->sha256 == sha &&
                            std::find(from->after_runs.begin(), from->after_runs.end(), srcRun) ==
                                from->after_runs.end();
        if (!before &&
            std::find(r.after_runs.begin(), r.after_runs.end(), dstRun) == r.after_runs.end()) {
            r.after_runs.push_back(dstRun);
        }
    }
    std::sort(r.after_runs.begin(), r.after_runs.end());
    recordPolicyRegistration(dst, r);
}

} // namespace probaudit::ledger
