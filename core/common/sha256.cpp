#include "common/sha256.h"

#include "common/error.h"

#include <openssl/evp.h>

namespace probaudit {

std::string sha256Hex(const void* data, std::size_t bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data, bytes, digest, &length, EVP_sha256(), nullptr) != 1) {
        throw Error("SHA-256 computation failed");
    }
    static const char* const kHex = "0123456789abcdef";
    std::string out;
    out.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 15];
    }
    return out;
}

} // namespace probaudit
