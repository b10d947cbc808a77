#include "core/common/base64.h"

#include <openssl/evp.h>

namespace probaudit {

std::string base64Encode(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(n > 0 ? std::size_t(n) : 0);
    return out;
}

std::optional<std::string> base64Decode(std::string_view text) {
    if (text.size() % 4 != 0) {
        return std::nullopt;
    }
    std::string bytes(text.size() / 4 * 3 + 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    std::size_t padding = 0;
    for (std::size_t k = text.size(); k > 0 && text[k - 1] == '='; --k) {
        ++padding; // EVP_DecodeBlock counts the padding as zero bytes
    }
    if (n < 0 || padding > 2 || std::size_t(n) < padding) {
        return std::nullopt;
    }
    bytes.resize(std::size_t(n) - padding);
    return bytes;
}

} // namespace probaudit
