#pragma once
// Model variants of the tiny-llama fixture for the tests of studies with $.models: the same
// weights under another name (the control) and a lower-precision build of it (the planted
// difference).
#include "core/model/safetensors.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace probaudit::test {

inline const QString kVariantFixtures = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures");

// float32 -> bfloat16 -> float32, rounding to nearest even (finite values).
inline float roundToBf16(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, 4);
    bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
    float y;
    std::memcpy(&y, &bits, 4);
    return y;
}

// tiny-llama's files under another name: the same weights as a variant (the control).
inline QString copyOfTinyLlama(const QDir& dir, const QString& name = QStringLiteral("copy")) {
    const QString out = dir.filePath(name);
    QDir().mkpath(out);
    const QDir src(kVariantFixtures + QStringLiteral("/tiny-llama"));
    for (const QString& file : src.entryList(QDir::Files)) {
        QFile::copy(src.filePath(file), out + u'/' + file);
    }
    return out;
}

// tiny-llama with its output projection rounded to bfloat16 (stored as float32): the same model
// as a lower-precision build of it, a variant a team could be serving.
inline QString writeRoundedVariant(const QDir& dir) {
    const QString out = copyOfTinyLlama(dir, QStringLiteral("rounded"));
    const QDir src(kVariantFixtures + QStringLiteral("/tiny-llama"));
    const QString shard = QStringLiteral("model-00003-of-00003.safetensors");
    const probaudit::model::SafetensorsFile f(src.filePath(shard).toStdString());
    std::map<std::string, probaudit::model::F32Tensor> tensors;
    for (const auto& t : f.tensors()) {
        if (t.dtype != probaudit::model::DType::F32) {
            qFatal("tiny-llama is float32");
        }
        const auto bytes = f.bytes(t);
        std::vector<float> v(std::size_t(t.numel()));
        std::memcpy(v.data(), bytes.data(), bytes.size());
        if (t.name == "lm_head.weight") {
            for (float& x : v) {
                x = roundToBf16(x);
            }
        }
        tensors[t.name] = {t.shape, std::move(v)};
    }
    QFile::remove(out + u'/' + shard);
    probaudit::model::writeSafetensorsF32((out + u'/' + shard).toStdString(), tensors,
                                          {{"format", "pt"}});
    return out;
}

} // namespace probaudit::test
