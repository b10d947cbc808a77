#pragma once
// One entry point for every supported checkpoint: a Hugging Face folder (config.json +
// safetensors, single or sharded, + tokenizer.json) or a llama GGUF file. Torch-free: it
// describes the model and exposes each tensor's float32 or stored bytes; core/engine turns
// them into libtorch tensors.
#include "core/model/gguf.h"
#include "core/model/gguf_llama.h"
#include "core/model/model_spec.h"
#include "core/model/safetensors.h"
#include "core/tokenizer/tokenizer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace probaudit::model {

enum class Format { Safetensors, Gguf };

class Checkpoint {
public:
    // Throws probaudit::Error naming the file and the problem.
    static Checkpoint open(const std::string& path);

    const std::string& path() const { return m_path; }
    Format format() const { return m_format; }
    const ModelSpec& spec() const { return m_spec; }
    // Hugging Face names of every tensor the model has, in a stable order.
    const std::vector<std::string>& tensorNames() const { return m_names; }
    // Stored elements per tensor (parameter count).
    std::int64_t parameterCount() const;

    const SafetensorsCheckpoint* safetensors() const { return m_st.get(); }
    const GgufFile* gguf() const { return m_gguf.get(); }
    // GGUF only: how the Hugging Face name maps into the file.
    const GgufTensorMapping* ggufMapping(const std::string& hfName) const;

    tokenizer::Tokenizer loadTokenizer() const;
    // The files that define the model (for digests in reports and bundles).
    std::vector<std::string> files() const;

private:
    std::string m_path;
    Format m_format = Format::Safetensors;
    ModelSpec m_spec;
    std::vector<std::string> m_names;
    std::shared_ptr<SafetensorsCheckpoint> m_st;
    std::shared_ptr<GgufFile> m_gguf;
    std::vector<GgufTensorMapping> m_mappings;
};

} // namespace probaudit::model
