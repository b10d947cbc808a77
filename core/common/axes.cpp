#include "core/common/axes.h"

#include "core/common/config_values.h"

#include <algorithm>

namespace probaudit {

const std::vector<Axis>& configAxes() {
    using K = AxisKind;
    using S = Suspect;
    using C = Scope;
    static const std::vector<Axis> axes = [] {
        // name, kind, values, min, suspect, scope, untried_in_report, max
        std::vector<Axis> a{
            {"arrival_seed", K::Integer, {}, 0, S::Kernels, C::Both},
            {"attention", K::Choice, namesOf<Attention>(), 0, S::Kernels, C::Engine, true},
            {"batch_size", K::Integer, {}, 1, S::Shape, C::Engine, false, 65536},
            {"concurrency", K::Integer, {}, 1, S::Kernels, C::Both, false, 4096},
            {"cpu_capability", K::Choice, namesOf<CpuCapability>(), 0, S::Kernels, C::Engine},
            {"cudnn_benchmark", K::Boolean, {}, 0, S::Kernels, C::Engine},
            {"deterministic", K::Boolean, {}, 0, S::Kernels, C::Engine, true},
            {"device", K::Device, {"cpu", "cuda:0"}, 0, S::Kernels, C::Engine, true},
            {"dtype", K::Choice, namesOf<Dtype>(), 0, S::Kernels, C::Engine, true},
            // The transformers runner's environment (study $.environments); "" = the engine.
            {"env", K::Name, {}, 0, S::Environment, C::Engine},
            // The CPU GEMM library of the layers' projections (RunConfig::gemm).
            {"gemm", K::Choice, namesOf<Gemm>(), 0, S::Kernels, C::Engine},
            {"kernels", K::Choice, namesOf<Kernels>(), 0, S::Kernels, C::Engine, true},
            {"max_length", K::Integer, {}, 0, S::Shape, C::Engine, false, 1 << 20},
            // The model variant (study $.models): other weights, not another way to run them.
            {"model", K::Name, {}, 0, S::Model, C::Engine},
            {"order", K::Choice, namesOf<ItemOrder>(), 0, S::Shape, C::Engine},
            {"order_seed", K::Integer, {}, 0, S::Shape, C::Engine},
            {"pad_to", K::Choice, namesOf<PadTo>(), 0, S::Shape, C::Engine},
            {"pad_to_n", K::Integer, {}, 0, S::Shape, C::Engine, false, 1 << 20},
            {"padding_side", K::Choice, namesOf<PaddingSide>(), 0, S::Shape, C::Engine, true},
            {"prefix_cache", K::Choice, namesOf<PrefixCache>(), 0, S::Kernels, C::Endpoint},
            {"repeat", K::Integer, {}, 0, S::Kernels, C::Both, false, 1 << 20},
            // What computes the numbers: the built-in libtorch engine, or Hugging Face
            // transformers in a Python environment (runners/python, docs/runner-protocol.md).
            {"runner", K::Choice, namesOf<Runner>(), 0, S::Environment, C::Engine},
            {"seed", K::Integer, {}, -1, S::Kernels, C::Endpoint},
            {"tf32", K::Boolean, {}, 0, S::Kernels, C::Engine, true},
            {"threads", K::Integer, {}, 1, S::Kernels, C::Engine, false, 1024},
        };
        return a;
    }();
    return axes;
}

std::vector<std::string> axisValues(const Axis& axis) {
    if (axis.kind == AxisKind::Boolean) {
        return {"false", "true"};
    }
    return {axis.values.begin(), axis.values.end()};
}

const Axis* findAxis(std::string_view name) {
    const auto& axes = configAxes();
    const auto it =
        std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == name; });
    return it == axes.end() ? nullptr : &*it;
}

std::string_view suspectName(Suspect s) {
    switch (s) {
    case Suspect::Shape:
        return "shape";
    case Suspect::Kernels:
        return "kernels";
    case Suspect::Environment:
        return "environment";
    case Suspect::Model:
        return "model";
    }
    return "kernels";
}

std::string suspectOf(std::string_view axis) {
    const Axis* a = findAxis(axis);
    return std::string(suspectName(a == nullptr ? Suspect::Kernels : a->suspect));
}

} // namespace probaudit

namespace probaudit {

bool axisApplies(const Axis& axis, bool endpoint) {
    return axis.scope == Scope::Both || (axis.scope == Scope::Endpoint) == endpoint;
}

} // namespace probaudit
