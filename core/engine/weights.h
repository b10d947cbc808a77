#pragma once
// Stored tensors (torch-free views from core/model) -> libtorch tensors, in the dtype a run
// asks for. Conversion is torch's own (at::Tensor::to), the same rounding the reference
// implementation applies when it loads a checkpoint into another dtype.
#include "core/model/dtype.h"
#include "core/model/safetensors.h"

#include <ATen/ATen.h>

#include <optional>
#include <string>

namespace probaudit::engine {

at::ScalarType toScalarType(model::DType t);

// The type of the steps the reference implementation widens to float32 (norm statistics,
// softmax, RoPE tables, decision logits): float32, or float64 when the run computes in float64.
// The exact reference keeps every step in float64; transformers' own float64 computes those
// steps in float32 (LlamaRMSNorm, the rotary tables, eager softmax), so it is not exact there.
inline at::ScalarType atLeastFloat32(at::ScalarType t) {
    return t == at::kDouble ? at::kDouble : at::kFloat;
}

// A CPU tensor holding a copy of `bytes` (stored dtype and shape), converted to `target` when
// given. Throws probaudit::Error when the byte count does not match the shape.
at::Tensor tensorFromBytes(std::span<const std::uint8_t> bytes, model::DType dtype,
                           const std::vector<std::int64_t>& shape,
                           std::optional<at::ScalarType> target);

// A CPU tensor from float32 values (e.g. dequantized GGUF), converted to `target` when given.
at::Tensor tensorFromFloats(const std::vector<float>& values,
                            const std::vector<std::int64_t>& shape,
                            std::optional<at::ScalarType> target);

// One tensor of a safetensors checkpoint, as a CPU tensor in `target` (stored dtype if empty).
at::Tensor loadTensor(const model::SafetensorsCheckpoint& ckpt, const std::string& name,
                      std::optional<at::ScalarType> target = std::nullopt);

// Gives the heap's free pages back to the system. The CLI keeps freed memory in the heap for the
// batch loop (app/probaudit/cli.cpp: fixed mmap and trim thresholds), so a model's worth of
// weights freed once (the loader's staging copies, the other layout when `gemm` switches) would
// stay in the process's resident memory for good: SmolLM2 with gemm onednn held 73 MiB more at
// its peak than with aten until the switch gave them back. Called after such one-off frees only;
// a batch's own memory stays in the heap. No-op off glibc.
void releaseFreedHeap();

} // namespace probaudit::engine
