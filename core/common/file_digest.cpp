#include "core/common/file_digest.h"

#include "core/common/error.h"
#include "core/common/sha256.h"

#include <filesystem>
#include <fstream>

namespace probaudit {

namespace {

void hashFile(Sha256& h, const std::string& path, const char* problem) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, problem);
    }
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        h.update(buf.data(), std::size_t(in.gcount()));
    }
}

} // namespace

std::string fileSha256(const std::string& path) {
    Sha256 h;
    hashFile(h, path, "cannot read");
    return h.hex();
}

std::string modelDigest(const std::vector<std::string>& files) {
    Sha256 h;
    for (const std::string& f : files) {
        h.update(std::filesystem::path(f).filename().string());
        hashFile(h, f, "cannot read the model file");
    }
    return h.hex();
}

} // namespace probaudit
