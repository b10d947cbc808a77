#pragma once
// The product's enumerated vocabularies (DESIGN.md, "Glossary"): what a run, a head, an event,
// an environment fingerprint and a generation comparison can be. Each has one enum and one
// table of wire names here; this file and vocabulary.cpp are the only places that turn those
// names into values and back. Code elsewhere compares enums, never strings.
//
// Reading a name that is not in the table is bad input from outside (a study file, a ledger, a
// runner's event): `fromName` returns nullopt so that the caller can say which file and field,
// `from_json` throws probaudit::Error naming the value and the allowed ones.
#include "core/common/error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace probaudit {

// A run in a ledger: one of the study's (head × config), or a diagnosis probe.
enum class RunKind { Study, Probe };

// A decision head (DESIGN.md "decision head"); None is a spec with no head (the engine's
// generation-only sessions and a default-constructed HeadSpec).
enum class HeadKind { None, LabelTokens, Adapter, Classifier, Generation };

// A runner event (common/protocol.h lists them and their fields); Unknown for any other name.
enum class EventKind {
    Unknown,
    Ready,
    Started,
    Progress,
    RunFinished,
    Skipped,
    Warning,
    Error,
    Done,
    Result,
    Snapshot,
};

// What computed a run's numbers, as its environment fingerprint says ("kind"): the built-in
// engine (whose fingerprints carry no kind), the transformers runner, or a server.
enum class EnvKind { Engine, Transformers, Endpoint };

// A pair of generation runs compared: the same settings twice, serving concurrency against the
// serial reference, or two configs.
enum class GenerationPairKind { Repeat, Serving, Config };

// A link of a ledger's hash chain that is not a run's seal: "state" seals the tables that are
// neither runs nor records (study, items, configs, environments, diagnoses, meta).
enum class SealKind { State };

// An entry of a kernel trace (DESIGN.md "kernel trace"): an operator, or a device kernel.
enum class TraceEntryKind { Op, DeviceKernel };

// An operator class of a forward pass (DESIGN.md "cause"): what localize computes as
// config A inside config B's pass. Head is the decision head (and BERT's pooler); Norms include
// the embeddings' norm (BERT), the query/key norms (qwen3) and the final norm (llama family).
enum class OpClass {
    Embeddings,
    Norms,
    Projections,     // the attention's query, key and value projections
    Attention,       // RoPE, scores, masking, softmax and the weighted sum of values
    AttentionOutput, // the attention's output projection
    Mlp,
    Residual,
    Head,
};
inline constexpr int kOpClassCount = 8;

// The wire names of each vocabulary, in declaration order.
template <class E> struct Vocabulary;

template <> struct Vocabulary<RunKind> {
    static constexpr std::string_view what = "run kind";
    static constexpr std::array<std::pair<RunKind, std::string_view>, 2> names{{
        {RunKind::Study, "study"},
        {RunKind::Probe, "probe"},
    }};
};

template <> struct Vocabulary<HeadKind> {
    static constexpr std::string_view what = "head kind";
    static constexpr std::array<std::pair<HeadKind, std::string_view>, 5> names{{
        {HeadKind::None, ""},
        {HeadKind::LabelTokens, "label_tokens"},
        {HeadKind::Adapter, "adapter"},
        {HeadKind::Classifier, "classifier"},
        {HeadKind::Generation, "generation"},
    }};
};

template <> struct Vocabulary<EventKind> {
    static constexpr std::string_view what = "event";
    static constexpr std::array<std::pair<EventKind, std::string_view>, 11> names{{
        {EventKind::Unknown, ""},
        {EventKind::Ready, "ready"},
        {EventKind::Started, "started"},
        {EventKind::Progress, "progress"},
        {EventKind::RunFinished, "run-finished"},
        {EventKind::Skipped, "skipped"},
        {EventKind::Warning, "warning"},
        {EventKind::Error, "error"},
        {EventKind::Done, "done"},
        {EventKind::Result, "result"},
        {EventKind::Snapshot, "snapshot"},
    }};
};

template <> struct Vocabulary<EnvKind> {
    static constexpr std::string_view what = "environment kind";
    static constexpr std::array<std::pair<EnvKind, std::string_view>, 3> names{{
        {EnvKind::Engine, ""},
        {EnvKind::Transformers, "transformers"},
        {EnvKind::Endpoint, "endpoint"},
    }};
};

template <> struct Vocabulary<GenerationPairKind> {
    static constexpr std::string_view what = "generation comparison kind";
    static constexpr std::array<std::pair<GenerationPairKind, std::string_view>, 3> names{{
        {GenerationPairKind::Repeat, "repeat"},
        {GenerationPairKind::Serving, "serving"},
        {GenerationPairKind::Config, "config"},
    }};
};

template <> struct Vocabulary<SealKind> {
    static constexpr std::string_view what = "seal kind";
    static constexpr std::array<std::pair<SealKind, std::string_view>, 1> names{{
        {SealKind::State, "state"},
    }};
};

template <> struct Vocabulary<TraceEntryKind> {
    static constexpr std::string_view what = "kernel trace entry kind";
    static constexpr std::array<std::pair<TraceEntryKind, std::string_view>, 2> names{{
        {TraceEntryKind::Op, "op"},
        {TraceEntryKind::DeviceKernel, "device_kernel"},
    }};
};

template <> struct Vocabulary<OpClass> {
    static constexpr std::string_view what = "operator class";
    static constexpr std::array<std::pair<OpClass, std::string_view>, kOpClassCount> names{{
        {OpClass::Embeddings, "embeddings"},
        {OpClass::Norms, "norms"},
        {OpClass::Projections, "projections"},
        {OpClass::Attention, "attention"},
        {OpClass::AttentionOutput, "attention_output"},
        {OpClass::Mlp, "mlp"},
        {OpClass::Residual, "residual"},
        {OpClass::Head, "head"},
    }};
};

// The wire name of a value.
template <class E> constexpr std::string_view toName(E value) {
    for (const auto& [v, n] : Vocabulary<E>::names) {
        if (v == value) {
            return n;
        }
    }
    return {};
}

template <class E> std::string nameString(E value) {
    return std::string(toName(value));
}

// The value a wire name stands for, or nullopt.
template <class E> constexpr std::optional<E> fromName(std::string_view text) {
    for (const auto& [v, n] : Vocabulary<E>::names) {
        if (n == text) {
            return v;
        }
    }
    return std::nullopt;
}

// "a, b, c": the names a vocabulary allows (the empty name left out), for error messages.
template <class E> std::string allowedNames() {
    std::string all;
    for (const auto& [v, n] : Vocabulary<E>::names) {
        if (!n.empty()) {
            all += (all.empty() ? "" : ", ") + std::string(n);
        }
    }
    return all;
}

// The value a wire name stands for; throws probaudit::Error naming it and the allowed names.
template <class E> E fromNameOrThrow(std::string_view text) {
    if (const auto v = fromName<E>(text)) {
        return *v;
    }
    throw Error("unknown " + std::string(Vocabulary<E>::what) + " \"" + std::string(text) +
                "\" (one of: " + allowedNames<E>() + ")");
}

// A runner event's kind: its "event" field (Unknown when absent, not a string or not a name).
EventKind eventKind(const nlohmann::json& event);

// What an environment fingerprint describes: its "kind" field (Engine when absent or not a
// string; an unknown name is Engine too, as the fingerprints without a kind are).
EnvKind envKind(const nlohmann::json& fingerprint);

// A recorded head's kind: the head JSON's "kind" field (None when absent or unknown).
HeadKind headKindOf(const nlohmann::json& head);

// JSON conversions (found by nlohmann::json through argument-dependent lookup).
void to_json(nlohmann::json& j, RunKind v);
void from_json(const nlohmann::json& j, RunKind& v);
void to_json(nlohmann::json& j, HeadKind v);
void from_json(const nlohmann::json& j, HeadKind& v);
void to_json(nlohmann::json& j, EventKind v);
void to_json(nlohmann::json& j, EnvKind v);
void to_json(nlohmann::json& j, GenerationPairKind v);
void to_json(nlohmann::json& j, TraceEntryKind v);
void to_json(nlohmann::json& j, OpClass v);
void from_json(const nlohmann::json& j, OpClass& v);

} // namespace probaudit
