#include "core/model/gguf.h"

#include "core/common/error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

namespace probaudit::model {

namespace {

constexpr std::uint32_t kMaxDims = 4;         // GGML_MAX_DIMS
constexpr std::uint64_t kMaxArrayNesting = 2; // arrays of arrays are not used by models
constexpr std::uint64_t kMaxStringBytes = 1u << 30;

struct TypeTraits {
    GgmlType type;
    const char* name;
    std::int64_t block;  // elements per block
    std::uint64_t bytes; // bytes per block
};
constexpr TypeTraits kTraits[] = {
    {GgmlType::F32, "F32", 1, 4},           {GgmlType::F16, "F16", 1, 2},
    {GgmlType::Q4_0, "Q4_0", 32, 18},       {GgmlType::Q4_1, "Q4_1", 32, 20},
    {GgmlType::Q5_0, "Q5_0", 32, 22},       {GgmlType::Q5_1, "Q5_1", 32, 24},
    {GgmlType::Q8_0, "Q8_0", 32, 34},       {GgmlType::Q8_1, "Q8_1", 32, 36},
    {GgmlType::Q2_K, "Q2_K", 256, 84},      {GgmlType::Q3_K, "Q3_K", 256, 110},
    {GgmlType::Q4_K, "Q4_K", 256, 144},     {GgmlType::Q5_K, "Q5_K", 256, 176},
    {GgmlType::Q6_K, "Q6_K", 256, 210},     {GgmlType::Q8_K, "Q8_K", 256, 292},
    {GgmlType::BF16, "BF16", 1, 2},         {GgmlType::IQ2_XXS, "IQ2_XXS", 256, 66},
    {GgmlType::IQ2_XS, "IQ2_XS", 256, 74},  {GgmlType::IQ3_XXS, "IQ3_XXS", 256, 98},
    {GgmlType::IQ1_S, "IQ1_S", 256, 50},    {GgmlType::IQ4_NL, "IQ4_NL", 32, 18},
    {GgmlType::IQ3_S, "IQ3_S", 256, 110},   {GgmlType::IQ2_S, "IQ2_S", 256, 82},
    {GgmlType::IQ4_XS, "IQ4_XS", 256, 136}, {GgmlType::I8, "I8", 1, 1},
    {GgmlType::I16, "I16", 1, 2},           {GgmlType::I32, "I32", 1, 4},
    {GgmlType::I64, "I64", 1, 8},           {GgmlType::F64, "F64", 1, 8},
    {GgmlType::IQ1_M, "IQ1_M", 256, 56},    {GgmlType::TQ1_0, "TQ1_0", 256, 54},
    {GgmlType::TQ2_0, "TQ2_0", 256, 66},    {GgmlType::MXFP4, "MXFP4", 32, 17},
};

const TypeTraits* traits(std::uint32_t raw) {
    for (const auto& t : kTraits) {
        if (static_cast<std::uint32_t>(t.type) == raw) {
            return &t;
        }
    }
    return nullptr;
}

// Bounds-checked little-endian reader over the file image.
class Cursor {
public:
    Cursor(std::span<const std::uint8_t> b, const std::string& path) : m_b(b), m_path(path) {}

    [[noreturn]] void fail(const std::string& problem) const { throw Error(m_path, problem); }
    std::uint64_t pos() const { return m_pos; }
    std::uint64_t remaining() const { return m_b.size() - m_pos; }

    void need(std::uint64_t n, const char* what) const {
        if (n > remaining()) {
            fail(std::string("truncated: ") + what + " runs past the end of the file at byte " +
                 std::to_string(m_pos));
        }
    }
    template <typename T> T read(const char* what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, m_b.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return v;
    }
    std::string string(const char* what) {
        const auto n = read<std::uint64_t>(what);
        if (n > kMaxStringBytes) {
            fail(std::string(what) + " has an implausible length " + std::to_string(n));
        }
        need(n, what);
        std::string s(reinterpret_cast<const char*>(m_b.data() + m_pos), n);
        m_pos += n;
        return s;
    }

private:
    std::span<const std::uint8_t> m_b;
    const std::string& m_path;
    std::uint64_t m_pos = 0;
};

GgufValue readValue(Cursor& c, std::uint32_t type, const std::string& key, std::uint64_t depth) {
    switch (type) {
    case 0:
        return {std::uint64_t(c.read<std::uint8_t>("metadata value"))};
    case 1:
        return {std::int64_t(c.read<std::int8_t>("metadata value"))};
    case 2:
        return {std::uint64_t(c.read<std::uint16_t>("metadata value"))};
    case 3:
        return {std::int64_t(c.read<std::int16_t>("metadata value"))};
    case 4:
        return {std::uint64_t(c.read<std::uint32_t>("metadata value"))};
    case 5:
        return {std::int64_t(c.read<std::int32_t>("metadata value"))};
    case 6:
        return {double(c.read<float>("metadata value"))};
    case 7: {
        const auto b = c.read<std::uint8_t>("metadata value");
        if (b > 1) {
            c.fail("metadata \"" + key + "\": boolean value " + std::to_string(b));
        }
        return {b == 1};
    }
    case 8:
        return {c.string("metadata string")};
    case 9: {
        if (depth >= kMaxArrayNesting) {
            c.fail("metadata \"" + key + "\": arrays nested too deeply");
        }
        const auto elemType = c.read<std::uint32_t>("array type");
        const auto count = c.read<std::uint64_t>("array length");
        // Every element takes at least its type's bytes (a string its 8-byte length, an array
        // its 12-byte header): a count the rest of the file cannot hold is refused before any
        // memory is set aside for it.
        static constexpr std::uint64_t kMinBytes[] = {1, 1, 2, 2, 4, 4, 4, 1, 8, 12, 8, 8, 8};
        const std::uint64_t least = elemType < std::size(kMinBytes) ? kMinBytes[elemType] : 1;
        if (count > c.remaining() / least) {
            c.fail("metadata \"" + key + "\": array length " + std::to_string(count) +
                   " runs past the end of the file");
        }
        GgufArray arr;
        arr.reserve(count);
        for (std::uint64_t i = 0; i < count; ++i) {
            arr.push_back(readValue(c, elemType, key, depth + 1));
        }
        return {std::move(arr)};
    }
    case 10:
        return {c.read<std::uint64_t>("metadata value")};
    case 11:
        return {c.read<std::int64_t>("metadata value")};
    case 12:
        return {c.read<double>("metadata value")};
    default:
        c.fail("metadata \"" + key + "\": unknown value type " + std::to_string(type));
    }
}

} // namespace

const char* ggmlTypeName(GgmlType t) {
    const auto* tr = traits(static_cast<std::uint32_t>(t));
    return tr ? tr->name : "?";
}

std::int64_t GgufTensorInfo::numel() const {
    std::int64_t n = 1;
    for (auto d : shape) {
        n *= d;
    }
    return n;
}

GgufHeader parseGguf(std::span<const std::uint8_t> bytes, const std::string& path) {
    Cursor c(bytes, path);
    GgufHeader h;
    const auto magic = c.read<std::uint32_t>("magic");
    if (magic != 0x46554747u) { // "GGUF"
        c.fail("not a GGUF file (bad magic)");
    }
    h.version = c.read<std::uint32_t>("version");
    if (h.version != 2 && h.version != 3) {
        c.fail("GGUF version " + std::to_string(h.version) + " is not supported (2 or 3)");
    }
    const auto nTensors = c.read<std::uint64_t>("tensor count");
    const auto nKv = c.read<std::uint64_t>("metadata count");
    if (nKv > c.remaining() || nTensors > c.remaining()) {
        c.fail("tensor or metadata count runs past the end of the file");
    }
    for (std::uint64_t i = 0; i < nKv; ++i) {
        std::string key = c.string("metadata key");
        const auto type = c.read<std::uint32_t>("metadata type");
        GgufValue v = readValue(c, type, key, 0);
        if (!h.metadata.emplace(key, std::move(v)).second) {
            c.fail("duplicate metadata key \"" + key + "\"");
        }
    }
    if (auto it = h.metadata.find("general.alignment"); it != h.metadata.end()) {
        const auto* a = std::get_if<std::uint64_t>(&it->second.v);
        if (a == nullptr || *a == 0 || (*a & (*a - 1)) != 0) {
            c.fail("general.alignment must be a power of two");
        }
        h.alignment = *a;
    }
    std::set<std::string> names;
    for (std::uint64_t i = 0; i < nTensors; ++i) {
        GgufTensorInfo t;
        t.name = c.string("tensor name");
        if (!names.insert(t.name).second) {
            c.fail("duplicate tensor name \"" + t.name + "\"");
        }
        const auto nDims = c.read<std::uint32_t>("tensor dimensions");
        if (nDims == 0 || nDims > kMaxDims) {
            c.fail("tensor \"" + t.name + "\": " + std::to_string(nDims) + " dimensions");
        }
        std::vector<std::int64_t> ne(nDims);
        std::uint64_t elements = 1;
        for (auto& d : ne) {
            const auto dim = c.read<std::uint64_t>("tensor shape");
            if (dim == 0 || dim > std::uint64_t(std::numeric_limits<std::int64_t>::max()) ||
                elements > std::uint64_t(std::numeric_limits<std::int64_t>::max()) / dim) {
                c.fail("tensor \"" + t.name + "\": invalid or overflowing shape");
            }
            elements *= dim;
            d = static_cast<std::int64_t>(dim);
        }
        t.shape.assign(ne.rbegin(), ne.rend());
        const auto rawType = c.read<std::uint32_t>("tensor type");
        const TypeTraits* tr = traits(rawType);
        if (tr == nullptr) {
            c.fail("tensor \"" + t.name + "\": unsupported GGUF tensor type " +
                   std::to_string(rawType));
        }
        t.type = tr->type;
        if (ne[0] % tr->block != 0) {
            c.fail("tensor \"" + t.name + "\": row length " + std::to_string(ne[0]) +
                   " is not a multiple of the " + tr->name + " block size");
        }
        t.nbytes = elements / std::uint64_t(tr->block) * tr->bytes;
        t.offset = c.read<std::uint64_t>("tensor offset");
        if (t.offset % h.alignment != 0) {
            c.fail("tensor \"" + t.name + "\": offset " + std::to_string(t.offset) +
                   " is not aligned to " + std::to_string(h.alignment));
        }
        h.tensors.push_back(std::move(t));
    }
    h.data_start = (c.pos() + h.alignment - 1) / h.alignment * h.alignment;
    if (h.data_start > bytes.size()) {
        c.fail("truncated: no data section");
    }
    const std::uint64_t dataSize = bytes.size() - h.data_start;
    std::vector<const GgufTensorInfo*> byOffset;
    for (const auto& t : h.tensors) {
        if (t.offset > dataSize || t.nbytes > dataSize - t.offset) {
            c.fail("tensor \"" + t.name + "\": bytes [" + std::to_string(t.offset) + ", " +
                   std::to_string(t.offset + t.nbytes) + ") run past the end of the data (" +
                   std::to_string(dataSize) + " bytes)");
        }
        byOffset.push_back(&t);
    }
    std::sort(byOffset.begin(), byOffset.end(),
              [](auto* a, auto* b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < byOffset.size(); ++i) {
        if (byOffset[i]->offset < byOffset[i - 1]->offset + byOffset[i - 1]->nbytes) {
            c.fail("tensor \"" + byOffset[i]->name + "\" overlaps tensor \"" +
                   byOffset[i - 1]->name + "\"");
        }
    }
    return h;
}

GgufFile::GgufFile(const std::string& path) : m_file(path) {
    m_header = parseGguf({m_file.data(), m_file.size()}, m_file.path());
    for (std::size_t i = 0; i < m_header.tensors.size(); ++i) {
        m_index.emplace(m_header.tensors[i].name, i);
    }
}

const GgufTensorInfo* GgufFile::find(const std::string& name) const {
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : &m_header.tensors[it->second];
}

std::span<const std::uint8_t> GgufFile::bytes(const GgufTensorInfo& t) const {
    return {m_file.data() + m_header.data_start + t.offset, t.nbytes};
}

const GgufValue& GgufFile::value(const std::string& key) const {
    const auto it = m_header.metadata.find(key);
    if (it == m_header.metadata.end()) {
        throw Error(path(), "missing metadata \"" + key + "\"");
    }
    return it->second;
}

std::string GgufFile::getString(const std::string& key) const {
    if (const auto* s = std::get_if<std::string>(&value(key).v)) {
        return *s;
    }
    throw Error(path(), "metadata \"" + key + "\" is not a string");
}

std::int64_t GgufFile::getInt(const std::string& key) const {
    const auto& v = value(key).v;
    if (const auto* u = std::get_if<std::uint64_t>(&v)) {
        if (*u <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            return std::int64_t(*u);
        }
    } else if (const auto* i = std::get_if<std::int64_t>(&v)) {
        return *i;
    }
    throw Error(path(), "metadata \"" + key + "\" is not an integer");
}

double GgufFile::getFloat(const std::string& key) const {
    const auto& v = value(key).v;
    if (const auto* d = std::get_if<double>(&v)) {
        return *d;
    }
    throw Error(path(), "metadata \"" + key + "\" is not a number");
}

bool GgufFile::getBool(const std::string& key) const {
    if (const auto* b = std::get_if<bool>(&value(key).v)) {
        return *b;
    }
    throw Error(path(), "metadata \"" + key + "\" is not a boolean");
}

std::vector<std::string> GgufFile::getStringArray(const std::string& key) const {
    const auto* arr = std::get_if<GgufArray>(&value(key).v);
    if (arr == nullptr) {
        throw Error(path(), "metadata \"" + key + "\" is not an array");
    }
    std::vector<std::string> out;
    out.reserve(arr->size());
    for (const auto& e : *arr) {
        const auto* s = std::get_if<std::string>(&e.v);
        if (s == nullptr) {
            throw Error(path(), "metadata \"" + key + "\" is not an array of strings");
        }
        out.push_back(*s);
    }
    return out;
}

std::vector<std::int64_t> GgufFile::getIntArray(const std::string& key) const {
    const auto* arr = std::get_if<GgufArray>(&value(key).v);
    if (arr == nullptr) {
        throw Error(path(), "metadata \"" + key + "\" is not an array");
    }
    std::vector<std::int64_t> out;
    out.reserve(arr->size());
    for (const auto& e : *arr) {
        if (const auto* u = std::get_if<std::uint64_t>(&e.v)) {
            out.push_back(std::int64_t(*u));
        } else if (const auto* i = std::get_if<std::int64_t>(&e.v)) {
            out.push_back(*i);
        } else {
            throw Error(path(), "metadata \"" + key + "\" is not an array of integers");
        }
    }
    return out;
}

std::vector<float> GgufFile::dequantize(const GgufTensorInfo& t) const {
    if (!ggmlCanDequantize(t.type)) {
        throw Error(path(), "tensor \"" + t.name + "\" has type " + ggmlTypeName(t.type) +
                                ", which this version cannot dequantize (supported: " +
                                ggmlDequantizableTypes() + ")");
    }
    std::vector<float> out(static_cast<std::size_t>(t.numel()));
    dequantizeRow(t.type, bytes(t).data(), out.data(), t.numel());
    return out;
}

} // namespace probaudit::model
