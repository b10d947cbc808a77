#pragma once
// Ed25519 signatures over a ledger's chain head (OpenSSL's libcrypto), in the manner of
// minisign and Sigstore: what is signed is a short statement naming the head, never the file,
// so a ledger that grows keeps its earlier signatures checkable and a re-sealed one does not.
// Keys are PEM files: PKCS#8 for the private key (written 0600), SubjectPublicKeyInfo for the
// public one.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit::ledger {

// The last link of a ledger's hash chain: what `probaudit head` prints as SEQ:DIGEST.
struct ChainHead {
    std::int64_t seq = 0;
    std::string sha256;
    std::string text() const; // "SEQ:DIGEST"
    // "SEQ:DIGEST" as typed by a person; throws probaudit::Error otherwise.
    static ChainHead parse(const std::string& text);
    bool operator==(const ChainHead&) const = default;
};

struct KeyPair {
    std::string private_pem, public_pem;
};

KeyPair generateSigningKey();
// The public key (PEM) of a private key; throws probaudit::Error naming `where` unless it is an
// Ed25519 private key.
std::string publicKeyOf(const std::string& privatePem, const std::string& where);
// "ed25519:" and the first 16 hex digits of the SHA-256 of the raw 32-byte public key; throws
// probaudit::Error naming `where` unless it is an Ed25519 public key.
std::string keyFingerprint(const std::string& publicPem, const std::string& where);
// The statement a signature covers.
std::string headStatement(const ChainHead& head);
// Hex signature of the head's statement.
std::string signHead(const std::string& privatePem, const ChainHead& head,
                     const std::string& where);
// Whether `signatureHex` is the key's signature of the head's statement (false for a malformed
// key or signature, never an exception).
bool headSignatureValid(const std::string& publicPem, const ChainHead& head,
                        const std::string& signatureHex);

// Ed25519 over any bytes (an attestation's DSSE pre-authentication encoding): the 64-byte
// signature, or whether it is the key's (false for a malformed key or signature, never an
// exception).
std::vector<unsigned char> signBytes(const std::string& privatePem, std::string_view message,
                                     const std::string& where);
bool signatureValid(const std::string& publicPem, std::string_view message,
                    const std::vector<unsigned char>& signature);
// The raw 32-byte public key in lower-case hex; throws probaudit::Error naming `where` unless it
// is an Ed25519 public key.
std::string rawPublicKeyHex(const std::string& publicPem, const std::string& where);

} // namespace probaudit::ledger
