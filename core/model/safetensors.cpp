#include "core/model/safetensors.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

namespace probaudit::model {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Headers above this are refused (the reference library uses the same 100 MB limit).
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

// Parses JSON refusing duplicate keys in any object (nlohmann would keep the last one
// silently, which would hide a second tensor with the same name).
json parseStrictJson(std::string_view text, const std::string& path, const char* what) {
    std::vector<std::set<std::string>> keys;
    std::string duplicate;
    auto callback = [&](int depth, json::parse_event_t event, json& parsed) {
        if ((event == json::parse_event_t::object_start ||
             event == json::parse_event_t::array_start) &&
            depth >= kMaxJsonDepth) { // the bound of every JSON read (common/json_read.h)
            throw Error(path, std::string(what) + " JSON nested deeper than " +
                                  std::to_string(kMaxJsonDepth) + " levels");
        }
        switch (event) {
        case json::parse_event_t::object_start:
            keys.emplace_back();
            break;
        case json::parse_event_t::object_end:
            if (!keys.empty()) {
                keys.pop_back();
            }
            break;
        case json::parse_event_t::key:
            if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
                duplicate.empty()) {
                duplicate = parsed.get<std::string>();
            }
            break;
        default:
            break;
        }
        return true;
    };
    json j;
    try {
        j = json::parse(text.begin(), text.end(), callback);
    } catch (const json::exception& e) {
        throw Error(path, std::string("invalid ") + what + " JSON: " + e.what());
    }
    if (!duplicate.empty()) {
        throw Error(path, std::string("duplicate key \"") + duplicate + "\" in " + what);
    }
    return j;
}

std::uint64_t readU64LE(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    return v;
}

} // namespace

std::int64_t TensorInfo::numel() const {
    std::int64_t n = 1;
    for (auto d : shape) {
        n *= d;
    }
    return n;
}

SafetensorsHeader parseSafetensors(std::span<const std::uint8_t> bytes, const std::string& path) {
    if (bytes.size() < 8) {
        throw Error(path, "truncated: shorter than the 8-byte header length");
    }
    const std::uint64_t headerLen = readU64LE(bytes.data());
    if (headerLen > kMaxHeaderBytes) {
        throw Error(path, "header length " + std::to_string(headerLen) + " exceeds the limit");
    }
    if (headerLen > bytes.size() - 8) {
        throw Error(path, "header length " + std::to_string(headerLen) +
                              " runs past the end of the file (" + std::to_string(bytes.size()) +
                              " bytes)");
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8), headerLen);
    const json header = parseStrictJson(text, path, "header");
    if (!header.is_object()) {
        throw Error(path, "header is not a JSON object");
    }

    SafetensorsHeader out;
    out.data_start = 8 + headerLen;
    const std::uint64_t dataSize = bytes.size() - out.data_start;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object()) {
                throw Error(path, "__metadata__ is not an object");
            }
            for (const auto& [k, v] : entry.items()) {
                if (!v.is_string()) {
                    throw Error(path, "__metadata__ value of \"" + k + "\" is not a string");
                }
                out.metadata[k] = v.get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor \"" + name + "\": ";
        if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") ||
            !entry.contains("data_offsets")) {
            throw Error(path, where + "entry needs dtype, shape and data_offsets");
        }
        TensorInfo t;
        t.name = name;
        if (!entry["dtype"].is_string()) {
            throw Error(path, where + "dtype is not a string");
        }
        const auto dtype = parseSafetensorsDType(entry["dtype"].get<std::string>());
        if (!dtype) {
            throw Error(path, where + "unsupported dtype " + entry["dtype"].get<std::string>());
        }
        t.dtype = *dtype;
        if (!entry["shape"].is_array()) {
            throw Error(path, where + "shape is not an array");
        }
        std::uint64_t elements = 1;
        for (const auto& d : entry["shape"]) {
            if (!d.is_number_integer() || d.get<std::int64_t>() < 0) {
                throw Error(path, where + "shape has a negative or non-integer dimension");
            }
            const auto dim = d.get<std::uint64_t>();
            if (dim != 0 && elements > std::numeric_limits<std::uint64_t>::max() / dim) {
                throw Error(path, where + "shape overflows");
            }
            elements *= dim;
            t.shape.push_back(static_cast<std::int64_t>(dim));
        }
        const auto& offsets = entry["data_offsets"];
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
            !offsets[1].is_number_unsigned()) {
            throw Error(path, where + "data_offsets must be two non-negative integers");
        }
        const auto begin = offsets[0].get<std::uint64_t>();
        const auto end = offsets[1].get<std::uint64_t>();
        if (begin > end) {
            throw Error(path, where + "data_offsets are reversed");
        }
        if (end > dataSize) {
            throw Error(path, where + "data_offsets [" + std::to_string(begin) + ", " +
                                  std::to_string(end) + ") are out of range (data is " +
                                  std::to_string(dataSize) + " bytes)");
        }
        const std::uint64_t elemSize = dtypeSize(t.dtype);
        if (elements > std::numeric_limits<std::uint64_t>::max() / elemSize ||
            elements * elemSize != end - begin) {
            throw Error(path, where + "shape and dtype need " +
                                  std::to_string(elements * elemSize) +
                                  " bytes but data_offsets "
                                  "give " +
                                  std::to_string(end - begin));
        }
        t.begin = begin;
        t.nbytes = end - begin;
        out.tensors.push_back(std::move(t));
    }
    std::sort(out.tensors.begin(), out.tensors.end(), [](const TensorInfo& a, const TensorInfo& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.nbytes < b.nbytes;
    });
    // Tensors must tile the data buffer: no overlap, no gap (as the reference library checks).
    std::uint64_t cursor = 0;
    for (const auto& t : out.tensors) {
        if (t.begin < cursor) {
            throw Error(path, "tensor \"" + t.name + "\" overlaps the previous tensor's bytes");
        }
        if (t.begin > cursor) {
            throw Error(path, "bytes " + std::to_string(cursor) + " to " + std::to_string(t.begin) +
                                  " belong to no tensor");
        }
        cursor = t.begin + t.nbytes;
    }
    if (cursor != dataSize) {
        throw Error(path, "the last " + std::to_string(dataSize - cursor) +
                              " bytes of the data buffer belong to no tensor");
    }
    return out;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : m_file(path) {
    m_header = parseSafetensors({m_file.data(), m_file.size()}, m_file.path());
    for (std::size_t i = 0; i < m_header.tensors.size(); ++i) {
        m_index.emplace(m_header.tensors[i].name, i);
    }
}

const TensorInfo* SafetensorsFile::find(const std::string& name) const {
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : &m_header.tensors[it->second];
}

std::span<const std::uint8_t> SafetensorsFile::bytes(const TensorInfo& t) const {
    return {m_file.data() + m_header.data_start + t.begin, t.nbytes};
}

void SafetensorsFile::dropPages(const TensorInfo& t) const {
    m_file.dropPages(m_header.data_start + t.begin, t.nbytes);
}

SafetensorsCheckpoint::SafetensorsCheckpoint(const std::string& pathOrDir) : m_location(pathOrDir) {
    const fs::path p(pathOrDir);
    std::error_code ec;
    if (!fs::exists(p, ec)) {
        throw Error(pathOrDir, "no such file or directory");
    }
    const fs::path index = p / "model.safetensors.index.json";
    std::map<std::string, std::string> expected; // tensor -> shard file name (sharded only)
    std::vector<fs::path> shardPaths;
    if (fs::is_directory(p) && fs::exists(index)) {
        std::ifstream in(index, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const json j = parseStrictJson(text, index.string(), "index");
        if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object()) {
            throw Error(index.string(), "no weight_map object");
        }
        std::set<std::string> shards;
        for (const auto& [tensor, file] : j["weight_map"].items()) {
            if (!file.is_string()) {
                throw Error(index.string(),
                            "weight_map entry of \"" + tensor + "\" is not a file name");
            }
            const std::string f = file.get<std::string>();
            if (f.empty() || f.find('/') != std::string::npos || f == "." || f == "..") {
                throw Error(index.string(), "shard name \"" + f + "\" is not a plain file name");
            }
            expected[tensor] = f;
            shards.insert(f);
        }
        for (const auto& s : shards) {
            shardPaths.push_back(p / s);
        }
    } else if (fs::is_directory(p)) {
        if (!fs::exists(p / "model.safetensors")) {
            throw Error(pathOrDir, "no model.safetensors or model.safetensors.index.json");
        }
        shardPaths.push_back(p / "model.safetensors");
    } else {
        shardPaths.push_back(p);
    }

    for (const auto& sp : shardPaths) {
        m_files.push_back(std::make_unique<SafetensorsFile>(sp.string()));
        const SafetensorsFile* f = m_files.back().get();
        for (const auto& t : f->tensors()) {
            if (!m_tensors.emplace(t.name, Entry{f, &t}).second) {
                throw Error(sp.string(), "tensor \"" + t.name + "\" also appears in " +
                                             m_tensors.at(t.name).file->path());
            }
            if (!expected.empty()) {
                const auto it = expected.find(t.name);
                if (it == expected.end() || it->second != sp.filename().string()) {
                    throw Error(sp.string(), "tensor \"" + t.name +
                                                 "\" is not listed for this shard in the index");
                }
            }
        }
    }
    for (const auto& [tensor, file] : expected) {
        if (!m_tensors.count(tensor)) {
            throw Error((p / file).string(),
                        "missing tensor \"" + tensor + "\" named by the index");
        }
    }
}

const SafetensorsCheckpoint::Entry& SafetensorsCheckpoint::at(const std::string& name) const {
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end()) {
        throw Error(m_location, "missing tensor \"" + name + "\"");
    }
    return it->second;
}

std::span<const std::uint8_t> SafetensorsCheckpoint::bytes(const std::string& name) const {
    const Entry& e = at(name);
    return e.file->bytes(*e.info);
}

void writeSafetensorsF32(const std::string& path, const std::map<std::string, F32Tensor>& tensors,
                         const std::map<std::string, std::string>& metadata) {
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty()) {
        header["__metadata__"] = metadata;
    }
    std::size_t offset = 0;
    for (const auto& [name, t] : tensors) {
        std::int64_t n = 1;
        for (auto d : t.shape) {
            n *= d;
        }
        if (n != static_cast<std::int64_t>(t.values.size())) {
            throw Error(path, "tensor " + name + ": shape and value count disagree");
        }
        const std::size_t bytes = t.values.size() * sizeof(float);
        header[name] = {
            {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' '); // the data starts 8-byte aligned
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw Error(path, "cannot write");
    }
    const std::uint64_t len = text.size();
    for (int i = 0; i < 8; ++i) {
        out.put(static_cast<char>((len >> (8 * i)) & 0xff)); // little-endian length
    }
    out.write(text.data(), std::streamsize(text.size()));
    for (const auto& [name, t] : tensors) {
        out.write(reinterpret_cast<const char*>(t.values.data()),
                  std::streamsize(t.values.size() * sizeof(float)));
    }
    if (!out) {
        throw Error(path, "write failed");
    }
}

} // namespace probaudit::model
