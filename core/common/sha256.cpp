#include "core/common/sha256.h"

#include "core/common/error.h"

#include <openssl/evp.h>

namespace probaudit {

namespace {

std::string toHex(const unsigned char* digest, unsigned int length) {
    static const char* const kHex = "0123456789abcdef";
    std::string out;
    out.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 15];
    }
    return out;
}

} // namespace

std::string sha256Hex(const void* data, std::size_t bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data, bytes, digest, &length, EVP_sha256(), nullptr) != 1) {
        throw Error("SHA-256 computation failed");
    }
    return toHex(digest, length);
}

struct Sha256::Impl {
    EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : m(std::make_unique<Impl>()) {
    m->ctx = EVP_MD_CTX_new();
    if (m->ctx == nullptr || EVP_DigestInit_ex(m->ctx, EVP_sha256(), nullptr) != 1) {
        throw Error("SHA-256 initialisation failed");
    }
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(m->ctx);
}

void Sha256::update(const void* data, std::size_t bytes) {
    if (EVP_DigestUpdate(m->ctx, data, bytes) != 1) {
        throw Error("SHA-256 computation failed");
    }
}

std::string Sha256::hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(m->ctx, digest, &length) != 1) {
        throw Error("SHA-256 computation failed");
    }
    return toHex(digest, length);
}

} // namespace probaudit
