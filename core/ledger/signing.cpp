#include "core/ledger/signing.h"

#include "core/common/error.h"
#include "core/common/sha256.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace probaudit::ledger {

namespace {

struct Free {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
    void operator()(BIO* p) const { BIO_free(p); }
    void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Free>;
using Bio = std::unique_ptr<BIO, Free>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, Free>;

// A key file never prompts for a passphrase: an encrypted key is refused.
int noPassphrase(char*, int, int, void*) {
    return -1;
}

Bio memoryOf(const std::string& pem) {
    return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

std::string drain(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

bool isEd25519(const Key& k) {
    return k && EVP_PKEY_get_id(k.get()) == EVP_PKEY_ED25519;
}

Key readPublic(const std::string& pem) {
    Bio in = memoryOf(pem);
    Key k(in ? PEM_read_bio_PUBKEY(in.get(), nullptr, noPassphrase, nullptr) : nullptr);
    return isEd25519(k) ? std::move(k) : Key();
}

Key readPrivate(const std::string& pem, const std::string& where) {
    Bio in = memoryOf(pem);
    Key k(in ? PEM_read_bio_PrivateKey(in.get(), nullptr, noPassphrase, nullptr) : nullptr);
    if (!isEd25519(k)) {
        throw Error(where, "not an unencrypted Ed25519 private key in PEM form (probaudit keygen "
                           "writes one)");
    }
    return k;
}

std::string publicPemOf(EVP_PKEY* k) {
    Bio out(BIO_new(BIO_s_mem()));
    if (!out || PEM_write_bio_PUBKEY(out.get(), k) != 1) {
        throw Error("cannot write a public key");
    }
    return drain(out.get());
}

std::string hex(const std::vector<unsigned char>& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (const unsigned char b : bytes) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

bool unhex(const std::string& s, std::vector<unsigned char>& out) {
    const auto value = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    if (s.size() % 2 != 0) {
        return false;
    }
    out.clear();
    for (std::size_t i = 0; i < s.size(); i += 2) {
        const int hi = value(s[i]), lo = value(s[i + 1]);
        if (hi < 0 || lo < 0) {
            return false;
        }
        out.push_back(static_cast<unsigned char>(hi * 16 + lo));
    }
    return true;
}

} // namespace

std::string ChainHead::text() const {
    return std::to_string(seq) + ":" + sha256;
}

ChainHead ChainHead::parse(const std::string& text) {
    const auto colon = text.find(':');
    std::vector<unsigned char> bytes;
    const std::string seq = colon == std::string::npos ? std::string() : text.substr(0, colon);
    const std::string digest = colon == std::string::npos ? std::string() : text.substr(colon + 1);
    if (seq.empty() || seq.size() > 18 ||
        seq.find_first_not_of("0123456789") != std::string::npos || digest.size() != 64 ||
        !unhex(digest, bytes)) {
        throw Error("\"" + text +
                    "\" is not a chain head (SEQ:DIGEST, as `probaudit head` prints "
                    "it: a number, a colon and 64 lower-case hex digits)");
    }
    return {std::stoll(seq), digest};
}

KeyPair generateSigningKey() {
    Key k(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
    Bio out(BIO_new(BIO_s_mem()));
    if (!k || !out ||
        PEM_write_bio_PrivateKey(out.get(), k.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        throw Error("cannot generate an Ed25519 key (OpenSSL)");
    }
    return {drain(out.get()), publicPemOf(k.get())};
}

std::string publicKeyOf(const std::string& privatePem, const std::string& where) {
    return publicPemOf(readPrivate(privatePem, where).get());
}

namespace {
std::vector<unsigned char> rawPublicKey(const std::string& publicPem, const std::string& where) {
    const Key k = readPublic(publicPem);
    std::vector<unsigned char> raw(32);
    std::size_t n = raw.size();
    if (!k || EVP_PKEY_get_raw_public_key(k.get(), raw.data(), &n) != 1 || n != 32) {
        throw Error(where, "not an Ed25519 public key in PEM form (probaudit keygen writes one "
                           "beside the private key, as KEY.pub)");
    }
    return raw;
}
} // namespace

std::string keyFingerprint(const std::string& publicPem, const std::string& where) {
    const auto raw = rawPublicKey(publicPem, where);
    return "ed25519:" + sha256Hex(raw.data(), raw.size()).substr(0, 16);
}

std::string headStatement(const ChainHead& head) {
    return "probaudit ledger chain head\n" + head.text() + "\n";
}

std::string signHead(const std::string& privatePem, const ChainHead& head,
                     const std::string& where) {
    return hex(signBytes(privatePem, headStatement(head), where));
}

std::vector<unsigned char> signBytes(const std::string& privatePem, std::string_view message,
                                     const std::string& where) {
    const Key k = readPrivate(privatePem, where);
    MdCtx md(EVP_MD_CTX_new());
    std::vector<unsigned char> sig(64);
    std::size_t n = sig.size();
    if (!md || EVP_DigestSignInit(md.get(), nullptr, nullptr, nullptr, k.get()) != 1 ||
        EVP_DigestSign(md.get(), sig.data(), &n,
                       reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) != 1) {
        throw Error(where, "cannot sign with this key (OpenSSL)");
    }
    sig.resize(n);
    return sig;
}

bool signatureValid(const std::string& publicPem, std::string_view message,
                    const std::vector<unsigned char>& signature) {
    const Key k = readPublic(publicPem);
    if (!k || signature.size() != 64) {
        return false;
    }
    MdCtx md(EVP_MD_CTX_new());
    return md && EVP_DigestVerifyInit(md.get(), nullptr, nullptr, nullptr, k.get()) == 1 &&
           EVP_DigestVerify(md.get(), signature.data(), signature.size(),
                            reinterpret_cast<const unsigned char*>(message.data()),
                            message.size()) == 1;
}

bool headSignatureValid(const std::string& publicPem, const ChainHead& head,
                        const std::string& signatureHex) {
    std::vector<unsigned char> sig;
    return unhex(signatureHex, sig) && signatureValid(publicPem, headStatement(head), sig);
}

std::string rawPublicKeyHex(const std::string& publicPem, const std::string& where) {
    return hex(rawPublicKey(publicPem, where));
}

} // namespace probaudit::ledger
