#pragma once
// GGUF (versions 2 and 3): metadata, tensor directory, alignment, and dequantization to
// float32 of F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1 and the K-quants Q2_K to Q6_K
// (gguf_dequant.cpp), bit for bit as gguf-py does it. Torch-free; the engine converts the
// float32 values into tensors. Every read is bounds-checked: a corrupt file is refused with
// one message naming the file and the problem, never read past its end.
#include "core/model/mapped_file.h"
#include "core/tokenizer/gguf_metadata.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace probaudit::model {

// ggml tensor types (ggml.h numbering).
enum class GgmlType : std::uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    MXFP4 = 39
};
const char* ggmlTypeName(GgmlType t);
// Whether dequantize() reads the type (gguf_dequant.cpp), and the list of those types.
bool ggmlCanDequantize(GgmlType t);
const char* ggmlDequantizableTypes();

struct GgufValue;
using GgufArray = std::vector<GgufValue>;
struct GgufValue {
    std::variant<std::uint64_t, std::int64_t, double, bool, std::string, GgufArray> v;
};

struct GgufTensorInfo {
    std::string name;
    GgmlType type = GgmlType::F32;
    std::vector<std::int64_t> shape; // torch order: slowest dimension first (GGUF ne reversed)
    std::uint64_t offset = 0;        // relative to the data section
    std::uint64_t nbytes = 0;
    std::int64_t numel() const;
};

struct GgufHeader {
    std::uint32_t version = 0;
    std::uint64_t alignment = 32;
    std::uint64_t data_start = 0;
    std::map<std::string, GgufValue> metadata;
    std::vector<GgufTensorInfo> tensors; // in file order
};

// Parses and validates a GGUF byte image; `path` only names it in errors.
GgufHeader parseGguf(std::span<const std::uint8_t> bytes, const std::string& path);

class GgufFile : public tokenizer::GgufMetadata {
public:
    explicit GgufFile(const std::string& path);

    const std::string& path() const override { return m_file.path(); }
    const GgufHeader& header() const { return m_header; }
    const GgufTensorInfo* find(const std::string& name) const;
    std::span<const std::uint8_t> bytes(const GgufTensorInfo& t) const;
    void dropPages(const GgufTensorInfo& t) const {
        m_file.dropPages(m_header.data_start + t.offset, t.nbytes);
    }

    // Metadata accessors; throw probaudit::Error naming the file when the key is missing or
    // of another type.
    bool has(const std::string& key) const override { return m_header.metadata.count(key) != 0; }
    std::string getString(const std::string& key) const override;
    std::int64_t getInt(const std::string& key) const override;
    double getFloat(const std::string& key) const;
    bool getBool(const std::string& key) const override;
    std::vector<std::string> getStringArray(const std::string& key) const override;
    std::vector<std::int64_t> getIntArray(const std::string& key) const override;

    // float32 values of a tensor, in torch order; refuses types it cannot dequantize.
    std::vector<float> dequantize(const GgufTensorInfo& t) const;

private:
    const GgufValue& value(const std::string& key) const;

    MappedFile m_file;
    GgufHeader m_header;
    std::map<std::string, std::size_t> m_index;
};

// Dequantizes `count` elements of `type` from `src` into `dst`, bit for bit as the reference
// (gguf-py's dequantize) computes it: each float32 operation rounded on its own, so Q4_1 is
// d*q then +m and Q4_K is (d*sc)*q - dmin*m. `count` is a whole number of blocks.
void dequantizeRow(GgmlType type, const std::uint8_t* src, float* dst, std::int64_t count);

// IEEE half / bfloat16 bits -> float (exact).
float halfToFloat(std::uint16_t h);
float bf16ToFloat(std::uint16_t b);

} // namespace probaudit::model
