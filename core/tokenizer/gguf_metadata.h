#pragma once
// What a tokenizer reads of a GGUF file's metadata (its "tokenizer.ggml.*" keys). The GGUF
// reader (model/gguf.h) implements it: the tokenizer itself knows no file format, so the
// tokenizer library does not depend on the model library (the model library uses it).
#include <cstdint>
#include <string>
#include <vector>

namespace probaudit::tokenizer {

class GgufMetadata {
public:
    virtual ~GgufMetadata() = default;
    virtual const std::string& path() const = 0;
    // Accessors throw probaudit::Error naming the file when the key is missing or of another
    // type.
    virtual bool has(const std::string& key) const = 0;
    virtual std::string getString(const std::string& key) const = 0;
    virtual std::int64_t getInt(const std::string& key) const = 0;
    virtual bool getBool(const std::string& key) const = 0;
    virtual std::vector<std::string> getStringArray(const std::string& key) const = 0;
    virtual std::vector<std::int64_t> getIntArray(const std::string& key) const = 0;
};

} // namespace probaudit::tokenizer
