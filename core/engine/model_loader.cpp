#include "core/engine/model_loader.h"

#include "core/common/error.h"
#include "core/engine/weights.h"
#include "core/model/gguf_llama.h"

namespace probaudit::engine {

LoadedWeights loadWeights(const model::Checkpoint& ckpt, at::ScalarType dtype,
                          const std::function<bool(float)>& progress) {
    LoadedWeights out;
    out.dtype = dtype;
    const auto& names = ckpt.tensorNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& name = names[i];
        at::Tensor t;
        if (const auto* st = ckpt.safetensors()) {
            const auto& info = *st->at(name).info;
            // Integer tensors (e.g. a stored position_ids buffer) keep their type.
            const bool floating =
                info.dtype == model::DType::F32 || info.dtype == model::DType::F16 ||
                info.dtype == model::DType::BF16 || info.dtype == model::DType::F64;
            t = loadTensor(*st, name,
                           floating ? std::optional<at::ScalarType>(dtype) : std::nullopt);
            st->at(name).file->dropPages(info);
        } else {
            const auto* m = ckpt.ggufMapping(name);
            const auto* info = ckpt.gguf()->find(m->gguf_name);
            t = tensorFromFloats(model::loadGgufTensor(*ckpt.gguf(), *m), info->shape, dtype);
            ckpt.gguf()->dropPages(*info);
        }
        out.tensors.emplace(name, std::move(t));
        if (progress && !progress(float(i + 1) / float(names.size()))) {
            throw Error(ckpt.path(), "loading cancelled");
        }
    }
    return out;
}

} // namespace probaudit::engine
