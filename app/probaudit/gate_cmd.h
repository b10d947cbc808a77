#pragma once
// `probaudit gate`: the policy's verdict as a table, JSON, JUnit XML or a signed in-toto
// attestation; `probaudit verify-attestation` checks one (core/policy).
#include <string>

namespace probaudit::app {

struct GateOptions {
    std::string ledger, study, junit, attest, key;
    bool json = false;
};

int gate(const GateOptions& o);

// A key or an attestation file, whole (at most 64 MiB); throws probaudit::Error naming it.
std::string readTextFile(const std::string& path);
// Writes a file whole or not at all (a temporary beside it, renamed); throws probaudit::Error.
void writeFile(const std::string& path, const std::string& text);

struct VerifyAttestationOptions {
    std::string attestation, trust, ledger;
    bool json = false;
};

// Exit 0 verified, 2 the signature or the attested ledger does not hold, 1 not an attestation.
int verifyAttestation(const VerifyAttestationOptions& o);

} // namespace probaudit::app
