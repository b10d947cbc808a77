#pragma once
// Standard base64 (RFC 4648, with padding), through OpenSSL's EVP block coder: runner replies
// carry float32 bytes in it, DSSE envelopes their payload and signatures.
#include <optional>
#include <string>
#include <string_view>

namespace probaudit {

std::string base64Encode(std::string_view bytes);
// The bytes, or nullopt unless `text` is whole base64: a multiple of four characters of the
// alphabet, at most two '=' at the end.
std::optional<std::string> base64Decode(std::string_view text);

} // namespace probaudit
