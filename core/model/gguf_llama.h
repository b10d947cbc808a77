#pragma once
// A llama-architecture GGUF file as a model: hyper-parameters from its metadata and its
// tensors under Hugging Face names, transformed exactly as transformers does when it loads
// the file (the q/k projection rows that llama.cpp's converter interleaved for its RoPE are
// put back in Hugging Face order).
#include "core/model/gguf.h"
#include "core/model/model_spec.h"

#include <string>
#include <vector>

namespace probaudit::model {

struct GgufTensorMapping {
    std::string hf_name;
    std::string gguf_name;
    std::int64_t unpermute_heads = 0; // > 0: undo llama.cpp's q/k row permutation
};

// Refuses (probaudit::Error naming the file) architectures other than llama and metadata the
// engine cannot honour.
ModelSpec ggufLlamaSpec(const GgufFile& file);

// Every tensor of the model, by Hugging Face name (lm_head only when the file has output.weight;
// otherwise the spec says the embeddings are tied).
std::vector<GgufTensorMapping> ggufLlamaTensors(const GgufFile& file, const ModelSpec& spec);

// Dequantized float32 values of one mapped tensor, in Hugging Face layout.
std::vector<float> loadGgufTensor(const GgufFile& file, const GgufTensorMapping& m);

// The row permutation transformers applies (reverse of llama.cpp's convert permute):
// rows viewed as [heads, rows/heads/2, 2] are transposed to [heads, 2, rows/heads/2].
void unpermuteHeads(std::vector<float>& w, std::int64_t rows, std::int64_t cols,
                    std::int64_t heads);

} // namespace probaudit::model
