#pragma once
// The enumerated values of the runtime configuration's axes (DESIGN.md, "Runtime configuration
// axes"), as enums with their wire names. RunConfig holds these types; its canonical JSON writes
// the same names as before, so config hashes do not change. The axes table (common/axes.cpp)
// lists each axis's allowed values from these tables, in the order given here.
#include "core/common/vocabulary.h"

#include <string_view>
#include <vector>

namespace probaudit {

// The floating-point type the model computes in. float64 (CPU, default kernels) is the exact
// reference: every step in float64, against which "distance to exact" is measured.
enum class Dtype { Float32, BFloat16, Float16, Float64 };
// Where the padding of a shorter row goes.
enum class PaddingSide { Right, Left };
// How long a padded batch is: its longest row, rounded up to a multiple of pad_to_n, or exactly
// pad_to_n.
enum class PadTo { Longest, Multiple, Fixed };
// In which order the items are put into batches.
enum class ItemOrder { AsGiven, Shuffled, ByLength, NeighboursShuffled };
// The attention implementation: the engine's eager math, libtorch's SDPA, the batch-invariant
// kernel, or (transformers runner only) FlashAttention 2.
enum class Attention { Math, Sdpa, BatchInvariant, FlashAttention2 };
// The kernels of the whole forward pass.
enum class Kernels { Default, BatchInvariant };
// ATen's CPU capability for the run's process: Auto leaves ATen's own choice.
enum class CpuCapability { Auto, Default, Avx2, Avx512 };
// The CPU GEMM library of the layers' projections (RunConfig::gemm).
enum class Gemm { Aten, Onednn };
// Endpoint runs: whether each prompt is sent once, unmeasured, before the recorded request.
enum class PrefixCache { Cold, Warm };
// What computes a run's numbers.
enum class Runner { Engine, Transformers };

template <> struct Vocabulary<Dtype> {
    static constexpr std::string_view what = "dtype";
    static constexpr std::array<std::pair<Dtype, std::string_view>, 4> names{{
        {Dtype::Float32, "float32"},
        {Dtype::BFloat16, "bfloat16"},
        {Dtype::Float16, "float16"},
        {Dtype::Float64, "float64"},
    }};
};

template <> struct Vocabulary<PaddingSide> {
    static constexpr std::string_view what = "padding side";
    static constexpr std::array<std::pair<PaddingSide, std::string_view>, 2> names{{
        {PaddingSide::Right, "right"},
        {PaddingSide::Left, "left"},
    }};
};

template <> struct Vocabulary<PadTo> {
    static constexpr std::string_view what = "pad_to";
    static constexpr std::array<std::pair<PadTo, std::string_view>, 3> names{{
        {PadTo::Longest, "longest"},
        {PadTo::Multiple, "multiple"},
        {PadTo::Fixed, "fixed"},
    }};
};

template <> struct Vocabulary<ItemOrder> {
    static constexpr std::string_view what = "order";
    static constexpr std::array<std::pair<ItemOrder, std::string_view>, 4> names{{
        {ItemOrder::AsGiven, "as_given"},
        {ItemOrder::Shuffled, "shuffled"},
        {ItemOrder::ByLength, "by_length"},
        {ItemOrder::NeighboursShuffled, "neighbours_shuffled"},
    }};
};

template <> struct Vocabulary<Attention> {
    static constexpr std::string_view what = "attention";
    static constexpr std::array<std::pair<Attention, std::string_view>, 4> names{{
        {Attention::Math, "math"},
        {Attention::Sdpa, "sdpa"},
        {Attention::BatchInvariant, "batch_invariant"},
        {Attention::FlashAttention2, "flash_attention_2"},
    }};
};

template <> struct Vocabulary<Kernels> {
    static constexpr std::string_view what = "kernels";
    static constexpr std::array<std::pair<Kernels, std::string_view>, 2> names{{
        {Kernels::Default, "default"},
        {Kernels::BatchInvariant, "batch_invariant"},
    }};
};

template <> struct Vocabulary<CpuCapability> {
    static constexpr std::string_view what = "cpu_capability";
    static constexpr std::array<std::pair<CpuCapability, std::string_view>, 4> names{{
        {CpuCapability::Auto, ""},
        {CpuCapability::Default, "default"},
        {CpuCapability::Avx2, "avx2"},
        {CpuCapability::Avx512, "avx512"},
    }};
};

template <> struct Vocabulary<Gemm> {
    static constexpr std::string_view what = "gemm";
    static constexpr std::array<std::pair<Gemm, std::string_view>, 2> names{{
        {Gemm::Aten, "aten"},
        {Gemm::Onednn, "onednn"},
    }};
};

template <> struct Vocabulary<PrefixCache> {
    static constexpr std::string_view what = "prefix_cache";
    static constexpr std::array<std::pair<PrefixCache, std::string_view>, 2> names{{
        {PrefixCache::Cold, "cold"},
        {PrefixCache::Warm, "warm"},
    }};
};

template <> struct Vocabulary<Runner> {
    static constexpr std::string_view what = "runner";
    static constexpr std::array<std::pair<Runner, std::string_view>, 2> names{{
        {Runner::Engine, "engine"},
        {Runner::Transformers, "transformers"},
    }};
};

// Every wire name of a vocabulary, the empty one too, in declaration order.
template <class E> std::vector<std::string_view> namesOf() {
    std::vector<std::string_view> out;
    for (const auto& [v, n] : Vocabulary<E>::names) {
        out.push_back(n);
    }
    return out;
}

// JSON conversions: the wire name; reading an unknown name throws probaudit::Error naming it.
void to_json(nlohmann::json& j, Dtype v);
void from_json(const nlohmann::json& j, Dtype& v);
void to_json(nlohmann::json& j, PaddingSide v);
void from_json(const nlohmann::json& j, PaddingSide& v);
void to_json(nlohmann::json& j, PadTo v);
void from_json(const nlohmann::json& j, PadTo& v);
void to_json(nlohmann::json& j, ItemOrder v);
void from_json(const nlohmann::json& j, ItemOrder& v);
void to_json(nlohmann::json& j, Attention v);
void from_json(const nlohmann::json& j, Attention& v);
void to_json(nlohmann::json& j, Kernels v);
void from_json(const nlohmann::json& j, Kernels& v);
void to_json(nlohmann::json& j, CpuCapability v);
void from_json(const nlohmann::json& j, CpuCapability& v);
void to_json(nlohmann::json& j, Gemm v);
void from_json(const nlohmann::json& j, Gemm& v);
void to_json(nlohmann::json& j, PrefixCache v);
void from_json(const nlohmann::json& j, PrefixCache& v);
void to_json(nlohmann::json& j, Runner v);
void from_json(const nlohmann::json& j, Runner& v);

} // namespace probaudit
