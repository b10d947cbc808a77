#pragma once
// A gate's verdict as evidence for third parties (DESIGN.md, "policy / verdict"): an in-toto
// Statement v1 whose subjects are the ledger file, its chain head, the model and the dataset
// (SHA-256 each) and whose predicate is the in-toto Test Result predicate (v0.1: the result,
// the policy and the configs as its configuration, the passed, warned and failed checks),
// wrapped in a DSSE envelope signed with the project's Ed25519 keys (`probaudit keygen`). The
// signature's keyid is the one securesystemslib computes for the key, so in-toto's own tools
// check it as they are (tests/verify_attestation.py does, beside `verify-attestation`).
#include "core/policy/gate.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace probaudit::policy {

inline constexpr const char* kStatementType = "https://in-toto.io/Statement/v1";
inline constexpr const char* kTestResultType = "https://in-toto.io/attestation/test-result/v0.1";
inline constexpr const char* kInTotoPayloadType = "application/vnd.in-toto+json";
// The predicate of a signed reproduction (reproduction.h).
inline constexpr const char* kReproductionType = "https://probaudit.dev/reproduction/v0.1";

// The statement for a gate run on `ledgerPath` (not for a tampered ledger).
nlohmann::json attestationStatement(const GateResult& g, const std::string& ledgerPath);
// The DSSE envelope (JSON text) of `statement`, signed with the private key (PEM) read from
// `keyWhere`. Throws probaudit::Error naming it when the key is not an Ed25519 private key.
std::string signAttestation(const nlohmann::json& statement, const std::string& privatePem,
                            const std::string& keyWhere);

struct AttestationCheck {
    std::string problem;      // "" when verified; else one sentence: what does not hold
    bool malformed = false;   // the file is not a DSSE envelope of an in-toto statement at all
    nlohmann::json statement; // when it could be read
    std::string result;       // PASSED | WARNED | FAILED
    bool ok() const { return problem.empty(); }
};

// Checks `envelopeText` against the trusted public key (PEM): the signature with the key's
// keyid over the DSSE pre-authentication encoding, the statement's types and subjects; with a
// ledger, also that the ledger's file, chain head and policy are still the ones attested.
AttestationCheck verifyAttestation(const std::string& envelopeText, const std::string& publicPem,
                                   const std::string& keyWhere,
                                   const std::optional<std::string>& ledgerPath);

// securesystemslib's keyid of an Ed25519 public key: SHA-256 (hex) of its canonical key JSON
// {"keytype":"ed25519","keyval":{"public":HEX},"scheme":"ed25519"}.
std::string dsseKeyId(const std::string& publicPem, const std::string& keyWhere);
// DSSE's pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body.
std::string dssePae(const std::string& payloadType, const std::string& payload);

} // namespace probaudit::policy
