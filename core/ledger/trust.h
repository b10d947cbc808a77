#pragma once
// How far a ledger can be trusted, as every view says it: TAMPERED (its chain or a signature
// does not verify), UNSIGNED (its chain is intact but nobody signed its head: anyone could have
// edited it and sealed it again), or SIGNED by a key fingerprint (a valid signature covers its
// current head). With a trusted public key, only a signature by that key counts.
#include "core/ledger/ledger.h"

#include <optional>
#include <string>

namespace probaudit::ledger {

struct Trust {
    enum class State { Tampered, Unsigned, Signed };
    State state = State::Unsigned;
    VerifyResult verify;
    std::string fingerprint;              // Signed: the signer of the current head
    std::optional<ChainHead> signed_head; // Unsigned: the latest head a valid signature covers
    std::string signed_by;                // ... and its signer
    std::string problem;                  // Tampered: what; a trusted key that did not sign: why
    bool trusted = false;                 // a trusted key was given and it signed the head

    // One line for a status bar, a report cover or a terminal: "verified, signed by
    // ed25519:… (head 12:3fa4…)", "verified, UNSIGNED (…)", "TAMPERED: …".
    std::string line() const;
    const char* stateName() const; // tampered | unsigned | signed
};

// Verifies the chain (against `expectedHead` when given) and every stored signature. With a
// `trustedPublicPem`, `trusted` says whether that key signed the current head (signatures are
// checked with it, never with the key a ledger carries).
Trust assessTrust(const Ledger& ledger, const std::string& trustedPublicPem = std::string(),
                  const std::optional<ChainHead>& expectedHead = std::nullopt);

} // namespace probaudit::ledger
