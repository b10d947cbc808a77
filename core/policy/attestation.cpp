#include "core/policy/attestation.h"

#include "core/common/base64.h"
#include "core/common/error.h"
#include "core/common/file_digest.h"
#include "core/common/json_read.h"
#include "core/common/sha256.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "core/ledger/signing.h"
#include "core/model/checkpoint.h"

#include <filesystem>

namespace probaudit::policy {

using nlohmann::json;

namespace {

json subject(const std::string& name, const std::string& sha256) {
    return {{"name", name}, {"digest", {{"sha256", sha256}}}};
}

// The model: its combined digest as the ledger records it (file names and bytes, in order), and,
// when the files are where the study says and are the ones recorded (the combined digest
// matches), each file with its plain SHA-256, which `sha256sum` checks.
// `prefix` names the subjects: "model" for the study's model, "model-variant/NAME" for each of
// its variants.
void addModelSubjects(json& subjects, const json& model, const std::string& prefix = "model") {
    if (!model.is_object() || !model.contains("sha256") || !model["sha256"].is_string()) {
        return;
    }
    const std::string recorded = model["sha256"].get<std::string>();
    const std::string path = model.contains("path") && model["path"].is_string()
                                 ? model["path"].get<std::string>()
                                 : std::string("model");
    subjects.push_back(
        subject(prefix + "-digest/" + std::filesystem::path(path).filename().string(), recorded));
    std::vector<std::string> files;
    try {
        files = model::Checkpoint::open(path).files();
        if (modelDigest(files) != recorded) {
            return; // other files than the runs read: only the recorded digest is attested
        }
    } catch (const std::exception&) {
        return; // not here
    }
    for (const std::string& f : files) {
        subjects.push_back(
            subject(prefix + "/" + std::filesystem::path(f).filename().string(), fileSha256(f)));
    }
}

std::string checkName(const GateRow& r) {
    return r.rule + "/" + std::string(criterionName(r.criterion)) + ": " + r.config + " vs " +
           r.against + " [head " + r.head + "]";
}

json predicate(const GateResult& g, const json& study) {
    json passed = json::array(), warned = json::array(), failed = json::array();
    for (const GateRow& r : g.rows) {
        (r.outcome == Outcome::Pass   ? passed
         : r.outcome == Outcome::Fail ? failed
                                      : warned)
            .push_back(checkName(r));
    }
    const json configs = study.contains("configs") ? study["configs"] : json::object();
    const std::string configsText = configs.dump();
    return {
        {"result", g.failed > 0    ? "FAILED"
                   : g.unknown > 0 ? "WARNED"
                                   : "PASSED"},
        {"configuration",
         {{{"name", "policy"},
           {"digest", {{"sha256", g.policy_sha256}}},
           {"annotations",
            {{"policy", g.policy.toJson()},
             {"from", g.from_ledger ? "ledger" : "study file"},
             {"registration", g.registration},
             {"late_runs", g.late_runs}}}},
          {{"name", "configs"},
           {"digest", {{"sha256", sha256Hex(configsText.data(), configsText.size())}}},
           {"annotations", {{"configs", configs}, {"reference", study.value("reference", "")}}}}}},
        {"passedTests", passed},
        {"warnedTests", warned},
        {"failedTests", failed}};
}

} // namespace

std::string dssePae(const std::string& payloadType, const std::string& payload) {
    return "DSSEv1 " + std::to_string(payloadType.size()) + " " + payloadType + " " +
           std::to_string(payload.size()) + " " + payload;
}

std::string dsseKeyId(const std::string& publicPem, const std::string& keyWhere) {
    const std::string key = R"({"keytype":"ed25519","keyval":{"public":")" +
                            ledger::rawPublicKeyHex(publicPem, keyWhere) +
                            R"("},"scheme":"ed25519"})";
    return sha256Hex(key.data(), key.size());
}

json attestationStatement(const GateResult& g, const std::string& ledgerPath) {
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    const json study = led.study();
    const auto head = led.head();
    if (!head) {
        throw Error(ledgerPath, "has no chain head to attest");
    }
    const std::string file = std::filesystem::path(ledgerPath).filename().string();
    json subjects =
        json::array({subject("ledger/" + file, fileSha256(ledgerPath)),
                     subject("ledger-chain-head/" + std::to_string(head->seq), head->sha256),
                     subject("dataset", led.datasetSha256())});
    addModelSubjects(subjects, study.value("model", json::object()));
    if (const auto v = study.find("models"); v != study.end() && v->is_object()) {
        for (const auto& [name, model] : v->items()) { // every variant the gated runs used
            addModelSubjects(subjects, model, "model-variant/" + name);
        }
    }
    return {{"_type", kStatementType},
            {"subject", subjects},
            {"predicateType", kTestResultType},
            {"predicate", predicate(g, study)}};
}

std::string signAttestation(const json& statement, const std::string& privatePem,
                            const std::string& keyWhere) {
    const std::string payload = statement.dump();
    const auto sig = ledger::signBytes(privatePem, dssePae(kInTotoPayloadType, payload), keyWhere);
    const std::string keyid = dsseKeyId(ledger::publicKeyOf(privatePem, keyWhere), keyWhere);
    const json envelope{
        {"payloadType", kInTotoPayloadType},
        {"payload", base64Encode(payload)},
        {"signatures",
         {{{"keyid", keyid},
           {"sig", base64Encode({reinterpret_cast<const char*>(sig.data()), sig.size()})}}}}};
    return envelope.dump(2) + "\n";
}

namespace {

AttestationCheck malformed(const std::string& why) {
    AttestationCheck c;
    c.problem = why;
    c.malformed = true;
    return c;
}

// The envelope's payload, once its signature with `keyid` verifies; "" with `c.problem` set.
std::string signedPayload(const json& env, const std::string& publicPem, const std::string& keyid,
                          AttestationCheck& c) {
    const auto type = fieldString(env, "payloadType");
    const auto payload64 = fieldString(env, "payload");
    if (!type || !payload64 || !env.contains("signatures") || !env["signatures"].is_array()) {
        c = malformed("it is not a DSSE envelope (payloadType, payload and signatures)");
        return {};
    }
    const auto payload = base64Decode(*payload64);
    if (!payload) {
        c = malformed("its payload is not base64");
        return {};
    }
    for (const json& s : env["signatures"]) {
        if (fieldString(s, "keyid").value_or("") != keyid) {
            continue;
        }
        const auto sig = base64Decode(fieldString(s, "sig").value_or("!"));
        std::vector<unsigned char> bytes;
        if (sig) {
            bytes.assign(sig->begin(), sig->end());
        }
        if (sig && ledger::signatureValid(publicPem, dssePae(*type, *payload), bytes)) {
            if (*type != kInTotoPayloadType) {
                c = malformed("its payloadType is \"" + *type + "\", not " + kInTotoPayloadType);
                return {};
            }
            return *payload;
        }
        c.problem = "its signature by the trusted key does not verify: the attestation was "
                    "changed after it was signed";
        return {};
    }
    c.problem = "it carries no signature by the trusted key (keyid " + keyid + ")";
    return {};
}

// The ledger still is what the statement attests: its file, its chain head, its policy.
std::string ledgerProblem(const json& statement, const std::string& ledgerPath) {
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    const auto head = led.head();
    const std::string file = std::filesystem::path(ledgerPath).filename().string();
    bool fileFound = false, headFound = false;
    for (const json& s : statement["subject"]) {
        const std::string name = fieldString(s, "name").value_or("");
        const std::string digest = fieldString(fieldObject(s, "digest"), "sha256").value_or("");
        if (name.rfind("ledger/", 0) == 0) {
            fileFound = true;
            if (digest != fileSha256(ledgerPath)) {
                return ledgerPath + " is not the ledger attested (its SHA-256 differs)";
            }
        } else if (name.rfind("ledger-chain-head/", 0) == 0) {
            headFound = true;
            if (!head || name != "ledger-chain-head/" + std::to_string(head->seq) ||
                digest != head->sha256) {
                return ledgerPath + "'s chain head is not the one attested";
            }
        }
    }
    if (!fileFound || !headFound) {
        return "the statement names no ledger file or chain head to compare " + ledgerPath +
               " with";
    }
    const json& predicate = fieldObject(statement, "predicate");
    const json config = predicate.contains("configuration") && predicate["configuration"].is_array()
                            ? predicate["configuration"]
                            : json::array();
    for (const json& c : config) {
        if (fieldString(c, "name").value_or("") == "policy" &&
            fieldString(fieldObject(c, "annotations"), "from").value_or("") == "ledger" &&
            fieldString(fieldObject(c, "digest"), "sha256").value_or("") !=
                ledger::studyPolicySha256(led.study())) {
            return ledgerPath + "'s policy is not the one attested";
        }
    }
    return {};
}

} // namespace

AttestationCheck verifyAttestation(const std::string& envelopeText, const std::string& publicPem,
                                   const std::string& keyWhere,
                                   const std::optional<std::string>& ledgerPath) {
    const std::string keyid = dsseKeyId(publicPem, keyWhere); // a bad key throws, naming it
    const auto env = tryParseJson(envelopeText);
    if (!env || !env->is_object()) {
        return malformed("it is not JSON (a DSSE envelope)");
    }
    AttestationCheck c;
    const std::string payload = signedPayload(*env, publicPem, keyid, c);
    if (!c.ok()) {
        return c;
    }
    const auto statement = tryParseJson(payload);
    const std::string type =
        statement ? fieldString(*statement, "predicateType").value_or("") : std::string();
    // A gate's verdict (result) or a reproduction (assurance).
    const char* key = type == kTestResultType     ? "result"
                      : type == kReproductionType ? "assurance"
                                                  : nullptr;
    if (!statement || fieldString(*statement, "_type").value_or("") != kStatementType ||
        !statement->contains("subject") || !(*statement)["subject"].is_array() ||
        (*statement)["subject"].empty() || key == nullptr ||
        !fieldString(fieldObject(*statement, "predicate"), key)) {
        return malformed("its payload is not an in-toto Statement v1 with a Test Result or a "
                         "reproduction predicate");
    }
    c.statement = *statement;
    c.result = fieldString(fieldObject(*statement, "predicate"), key).value_or("");
    if (ledgerPath) {
        c.problem = ledgerProblem(*statement, *ledgerPath);
    }
    return c;
}

} // namespace probaudit::policy
