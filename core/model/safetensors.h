#pragma once
// safetensors: one file (header JSON + byte buffer) or a sharded checkpoint
// (model.safetensors.index.json naming the file of every tensor). Reading is torch-free:
// tensors are described and their bytes exposed as views into the memory-mapped files;
// core/engine turns them into libtorch tensors with the dtype a run asks for.
//
// Validation follows the format's rules and refuses, with the file named: a header length
// past the end of the file, header JSON that is not an object of tensor entries, duplicate
// tensor names, unknown dtypes, negative shapes, offsets out of range, reversed or overlapping
// ranges, bytes not covered by any tensor, and a byte size that differs from shape × dtype.
#include "core/model/dtype.h"
#include "core/model/mapped_file.h"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace probaudit::model {

struct TensorInfo {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;  // byte offset in the data buffer
    std::uint64_t nbytes = 0; // product(shape) * dtypeSize(dtype)

    std::int64_t numel() const;
};

// Parsed header of one safetensors byte image (what a fuzzer feeds; no file needed).
struct SafetensorsHeader {
    std::vector<TensorInfo> tensors; // in data-offset order
    std::map<std::string, std::string> metadata;
    std::uint64_t data_start = 0; // 8 + header length
};

// Parses and validates `bytes` as a safetensors image; `path` only names it in errors.
SafetensorsHeader parseSafetensors(std::span<const std::uint8_t> bytes, const std::string& path);

class SafetensorsFile {
public:
    explicit SafetensorsFile(const std::string& path);

    const std::string& path() const { return m_file.path(); }
    const std::vector<TensorInfo>& tensors() const { return m_header.tensors; }
    const std::map<std::string, std::string>& metadata() const { return m_header.metadata; }
    const TensorInfo* find(const std::string& name) const;
    std::span<const std::uint8_t> bytes(const TensorInfo& t) const;
    // The tensor's pages leave the resident set (see MappedFile::dropPages).
    void dropPages(const TensorInfo& t) const;

private:
    MappedFile m_file;
    SafetensorsHeader m_header;
    std::map<std::string, std::size_t> m_index;
};

// A checkpoint directory (or a single .safetensors file): one file, or the shards named by
// model.safetensors.index.json. Every tensor the index names must be in its shard, and no
// name may appear in two shards.
class SafetensorsCheckpoint {
public:
    explicit SafetensorsCheckpoint(const std::string& pathOrDir);

    struct Entry {
        const SafetensorsFile* file;
        const TensorInfo* info;
    };
    const std::map<std::string, Entry>& tensors() const { return m_tensors; }
    bool contains(const std::string& name) const { return m_tensors.count(name) != 0; }
    // Throws probaudit::Error "missing tensor NAME" naming the checkpoint.
    const Entry& at(const std::string& name) const;
    std::span<const std::uint8_t> bytes(const std::string& name) const;
    const std::vector<std::unique_ptr<SafetensorsFile>>& files() const { return m_files; }
    const std::string& location() const { return m_location; }

private:
    std::string m_location;
    std::vector<std::unique_ptr<SafetensorsFile>> m_files;
    std::map<std::string, Entry> m_tensors;
};

// Writes float32 tensors (name -> shape and values) and string metadata as a safetensors file
// (adapters, cached features). Tensors are laid out in name order. Throws probaudit::Error.
struct F32Tensor {
    std::vector<std::int64_t> shape;
    std::vector<float> values;
};
void writeSafetensorsF32(const std::string& path, const std::map<std::string, F32Tensor>& tensors,
                         const std::map<std::string, std::string>& metadata);

} // namespace probaudit::model
