#include "core/ledger/trust.h"

#include "core/common/error.h"

namespace probaudit::ledger {

namespace {

std::string shortHead(const ChainHead& h) {
    return std::to_string(h.seq) + ":" + h.sha256.substr(0, 12) + "…";
}

// A stored signature that does not verify with its own key, or covers a head this chain does
// not have: "" when it is sound.
std::string signatureProblem(const Signature& s, const Ledger& led, const VerifyResult& chain) {
    std::string who;
    try {
        who = keyFingerprint(s.public_pem, led.path());
    } catch (const Error&) {
        return "signature " + std::to_string(s.id) + " carries no valid public key";
    }
    if (!headSignatureValid(s.public_pem, s.head, s.signature)) {
        return "signature " + std::to_string(s.id) + " by " + who +
               " does not verify (the signature row was edited)";
    }
    if (!chain.contains(s.head)) {
        return "the signature by " + who + " covers head " + s.head.text() +
               ", which this chain does not contain (the ledger was rewritten after it was "
               "signed)";
    }
    return "";
}

} // namespace

const char* Trust::stateName() const {
    switch (state) {
    case State::Tampered:
        return "tampered";
    case State::Unsigned:
        return "unsigned";
    case State::Signed:
        return "signed";
    }
    return "?";
}

std::string Trust::line() const {
    if (state == State::Tampered) {
        return "TAMPERED: " + problem;
    }
    const std::string head = verify.head ? " (head " + shortHead(*verify.head) + ")" : "";
    if (state == State::Signed) {
        return "verified, signed by " + fingerprint + head;
    }
    return "verified, UNSIGNED" + head +
           (signed_head ? ": the last signature (" + signed_by + ") covers head " +
                              shortHead(*signed_head) + " only"
                        : ": nobody has signed its chain head (probaudit sign)");
}

Trust assessTrust(const Ledger& led, const std::string& trustedPublicPem,
                  const std::optional<ChainHead>& expectedHead) {
    Trust t;
    t.verify = led.verify(expectedHead);
    if (!t.verify.ok) {
        t.state = Trust::State::Tampered;
        t.problem = t.verify.problem;
        return t;
    }
    const auto sigs = led.signatures();
    for (const Signature& s : sigs) {
        if (const std::string p = signatureProblem(s, led, t.verify); !p.empty()) {
            t.state = Trust::State::Tampered;
            t.problem = p;
            return t;
        }
    }
    // The newest signature of the current head decides; an older head's signature still says
    // who signed what came before.
    for (auto it = sigs.rbegin(); it != sigs.rend(); ++it) {
        const std::string who = keyFingerprint(it->public_pem, led.path());
        const bool current = t.verify.head && it->head == *t.verify.head;
        if (current && t.state != Trust::State::Signed) {
            t.state = Trust::State::Signed;
            t.fingerprint = who;
        } else if (!current && !t.signed_head) {
            t.signed_head = it->head;
            t.signed_by = who;
        }
        if (current && !trustedPublicPem.empty() &&
            headSignatureValid(trustedPublicPem, *t.verify.head, it->signature)) {
            t.trusted = true;
            t.fingerprint = who;
        }
    }
    if (!trustedPublicPem.empty() && !t.trusted) {
        const std::string key = keyFingerprint(trustedPublicPem, "the trusted key");
        t.problem = "its chain head is not signed by the trusted key " + key +
                    (t.state == Trust::State::Signed ? " (it is signed by " + t.fingerprint + ")"
                                                     : " (it is unsigned)");
    }
    return t;
}

} // namespace probaudit::ledger
