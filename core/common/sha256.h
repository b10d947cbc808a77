#pragma once
// SHA-256 (OpenSSL's libcrypto): file digests, record digests, the ledger's hash chain.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace probaudit {

// Lower-case hex digest of a byte range.
std::string sha256Hex(const void* data, std::size_t bytes);

// Incremental SHA-256 over many pieces (a run's records, in order).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(const void* data, std::size_t bytes);
    void update(std::string_view s) { update(s.data(), s.size()); }
    std::string hex(); // finishes; the object cannot be updated afterwards

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace probaudit
