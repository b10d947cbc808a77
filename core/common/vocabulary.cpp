#include "core/common/vocabulary.h"

#include "core/common/config_values.h"

namespace probaudit {

using json = nlohmann::json;

namespace {

template <class E> E fromJsonString(const json& j) {
    if (!j.is_string()) {
        throw Error("a " + std::string(Vocabulary<E>::what) +
                    " must be a string (one of: " + allowedNames<E>() + ")");
    }
    return fromNameOrThrow<E>(j.get_ref<const std::string&>());
}

template <class E> std::optional<E> stringField(const json& j, const char* key) {
    if (!j.is_object()) {
        return std::nullopt;
    }
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) {
        return std::nullopt;
    }
    return fromName<E>(it->get_ref<const std::string&>());
}

} // namespace

EventKind eventKind(const json& event) {
    return stringField<EventKind>(event, "event").value_or(EventKind::Unknown);
}

EnvKind envKind(const json& fingerprint) {
    return stringField<EnvKind>(fingerprint, "kind").value_or(EnvKind::Engine);
}

HeadKind headKindOf(const json& head) {
    return stringField<HeadKind>(head, "kind").value_or(HeadKind::None);
}

void to_json(json& j, RunKind v) {
    j = nameString(v);
}
void from_json(const json& j, RunKind& v) {
    v = fromJsonString<RunKind>(j);
}
void to_json(json& j, HeadKind v) {
    j = nameString(v);
}
void from_json(const json& j, HeadKind& v) {
    v = fromJsonString<HeadKind>(j);
}
void to_json(json& j, EventKind v) {
    j = nameString(v);
}
void to_json(json& j, EnvKind v) {
    j = nameString(v);
}
void to_json(json& j, GenerationPairKind v) {
    j = nameString(v);
}
void to_json(json& j, TraceEntryKind v) {
    j = nameString(v);
}
void to_json(json& j, OpClass v) {
    j = nameString(v);
}
void from_json(const json& j, OpClass& v) {
    v = fromJsonString<OpClass>(j);
}

void to_json(json& j, Dtype v) {
    j = nameString(v);
}
void from_json(const json& j, Dtype& v) {
    v = fromJsonString<Dtype>(j);
}
void to_json(json& j, PaddingSide v) {
    j = nameString(v);
}
void from_json(const json& j, PaddingSide& v) {
    v = fromJsonString<PaddingSide>(j);
}
void to_json(json& j, PadTo v) {
    j = nameString(v);
}
void from_json(const json& j, PadTo& v) {
    v = fromJsonString<PadTo>(j);
}
void to_json(json& j, ItemOrder v) {
    j = nameString(v);
}
void from_json(const json& j, ItemOrder& v) {
    v = fromJsonString<ItemOrder>(j);
}
void to_json(json& j, Attention v) {
    j = nameString(v);
}
void from_json(const json& j, Attention& v) {
    v = fromJsonString<Attention>(j);
}
void to_json(json& j, Kernels v) {
    j = nameString(v);
}
void from_json(const json& j, Kernels& v) {
    v = fromJsonString<Kernels>(j);
}
void to_json(json& j, CpuCapability v) {
    j = nameString(v);
}
void from_json(const json& j, CpuCapability& v) {
    v = fromJsonString<CpuCapability>(j);
}
void to_json(json& j, Gemm v) {
    j = nameString(v);
}
void from_json(const json& j, Gemm& v) {
    v = fromJsonString<Gemm>(j);
}
void to_json(json& j, PrefixCache v) {
    j = nameString(v);
}
void from_json(const json& j, PrefixCache& v) {
    v = fromJsonString<PrefixCache>(j);
}
void to_json(json& j, Runner v) {
    j = nameString(v);
}
void from_json(const json& j, Runner& v) {
    v = fromJsonString<Runner>(j);
}

} // namespace probaudit
