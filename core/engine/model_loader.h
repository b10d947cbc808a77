#pragma once
// Loads a checkpoint's weights into libtorch tensors in the run's dtype, with progress.
#include "core/model/checkpoint.h"

#include <ATen/ATen.h>

#include <functional>
#include <map>
#include <string>

namespace probaudit::engine {

struct LoadedWeights {
    std::map<std::string, at::Tensor> tensors; // Hugging Face names; CPU, `dtype`
    at::ScalarType dtype = at::kFloat;
};

// progress(fraction 0..1) returns false to cancel (then probaudit::Error "cancelled").
LoadedWeights loadWeights(const model::Checkpoint& ckpt, at::ScalarType dtype,
                          const std::function<bool(float)>& progress = {});

} // namespace probaudit::engine
