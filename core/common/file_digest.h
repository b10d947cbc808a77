#pragma once
// Digests of files that decide a result: the model a ledger belongs to, an adapter head.
#include <string>
#include <vector>

namespace probaudit {

// SHA-256 (hex) of one file's bytes. Throws probaudit::Error naming the file when unreadable.
std::string fileSha256(const std::string& path);

// The model digest a ledger records (`model.sha256`): SHA-256 over the model's files in the
// given order, each as its file name followed by its bytes, so renaming or reordering shards
// changes it. Throws probaudit::Error naming an unreadable file.
std::string modelDigest(const std::vector<std::string>& files);

} // namespace probaudit
