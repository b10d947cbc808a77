#pragma once
// SHA-256 (OpenSSL's libcrypto): file digests, record digests, the ledger's hash chain.
#include <cstddef>
#include <string>

namespace probaudit {

// Lower-case hex digest of a byte range.
std::string sha256Hex(const void* data, std::size_t bytes);

} // namespace probaudit
