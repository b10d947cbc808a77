// GGUF reading: dequantization of every supported type bit-exact against gguf-py (the
// reference transformers uses), and every kind of corrupt file refused with one message.
#include "core/common/error.h"
#include "core/common/sha256.h"
#include "core/model/gguf.h"
#include "core/model/gguf_llama.h"
#include "core/tokenizer/tokenizer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace probaudit::model;

namespace {

// Builds GGUF images for the bad-input cases.
struct Builder {
    QByteArray kv;
    QByteArray infos;
    QByteArray data;
    quint64 nKv = 0;
    quint64 nTensors = 0;
    quint32 version = 3;

    template <typename T> static void put(QByteArray& b, T v) {
        b.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    static void putString(QByteArray& b, const QByteArray& s) {
        put<quint64>(b, quint64(s.size()));
        b.append(s);
    }
    Builder& string(const QByteArray& key, const QByteArray& value) {
        putString(kv, key);
        put<quint32>(kv, 8);
        putString(kv, value);
        ++nKv;
        return *this;
    }
    template <typename T> Builder& scalar(const QByteArray& key, quint32 type, T value) {
        putString(kv, key);
        put<quint32>(kv, type);
        put<T>(kv, value);
        ++nKv;
        return *this;
    }
    Builder& u32(const QByteArray& key, quint32 v) { return scalar<quint32>(key, 4, v); }
    Builder& f32(const QByteArray& key, float v) { return scalar<float>(key, 6, v); }
    Builder& boolean(const QByteArray& key, bool v) { return scalar<quint8>(key, 7, v ? 1 : 0); }
    Builder& strings(const QByteArray& key, const QList<QByteArray>& values) {
        putString(kv, key);
        put<quint32>(kv, 9);
        put<quint32>(kv, 8);
        put<quint64>(kv, quint64(values.size()));
        for (const auto& v : values) {
            putString(kv, v);
        }
        ++nKv;
        return *this;
    }
    // An array header that claims `count` elements of `type`, followed by nothing.
    Builder& arrayClaiming(const QByteArray& key, quint32 type, quint64 count) {
        putString(kv, key);
        put<quint32>(kv, 9);
        put<quint32>(kv, type);
        put<quint64>(kv, count);
        ++nKv;
        return *this;
    }
    Builder& tensor(const QByteArray& name, quint64 cols, quint64 rows, quint32 type,
                    quint64 offset) {
        putString(infos, name);
        put<quint32>(infos, 2);
        put<quint64>(infos, cols);
        put<quint64>(infos, rows);
        put<quint32>(infos, type);
        put<quint64>(infos, offset);
        ++nTensors;
        return *this;
    }
    QByteArray build() const {
        QByteArray b("GGUF");
        put<quint32>(b, version);
        put<quint64>(b, nTensors);
        put<quint64>(b, nKv);
        b += kv + infos;
        while (b.size() % 32 != 0) {
            b.append('\0');
        }
        return b + data;
    }
};

QString write(const QTemporaryDir& dir, const QByteArray& bytes) {
    const QString path = dir.filePath(QStringLiteral("test.gguf"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        qFatal("cannot write");
    }
    f.write(bytes);
    return path;
}

} // namespace

class TestGguf : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dequantizesLikeTheReference_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"t_f32", "t_f16", "t_bf16", "t_q8_0", "t_q4_0", "t_q4_1"}) {
            QTest::newRow(n) << QString::fromLatin1(n);
        }
    }
    void dequantizesLikeTheReference() {
        QFETCH(QString, name);
        QFile g(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/gguf_types.json"));
        QVERIFY(g.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(g.readAll()).object()[name].toObject();
        const GgufFile f(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-gguf/types.gguf");
        QCOMPARE(f.header().version, 3u);
        const GgufTensorInfo* t = f.find(name.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromLatin1(ggmlTypeName(t->type)), ref[u"type"].toString());
        QCOMPARE(t->shape, (std::vector<std::int64_t>{6, 64}));
        const std::vector<float> v = f.dequantize(*t);
        QCOMPARE(QString::fromStdString(probaudit::sha256Hex(v.data(), v.size() * 4)),
                 ref[u"sha256"].toString());
    }

    // Real weights (five rows of all-MiniLM-L6-v2's first feed-forward output projection and a
    // zero row) as llama.cpp's own quantiser writes them, in every type a common release uses:
    // tests/golden/make_gguf_real.py.
    void dequantizesRealWeightsLikeTheReference_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"t_f16", "t_bf16", "t_q8_0", "t_q4_0", "t_q4_1", "t_q5_0", "t_q5_1",
                              "t_q2_k", "t_q3_k", "t_q4_k", "t_q5_k", "t_q6_k"}) {
            QTest::newRow(n) << QString::fromLatin1(n);
        }
    }
    void dequantizesRealWeightsLikeTheReference() {
        QFETCH(QString, name);
        QFile g(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/gguf_real_types.json"));
        QVERIFY(g.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(g.readAll()).object()[name].toObject();
        QVERIFY2(!ref.isEmpty(), qPrintable(name));
        const GgufFile f(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-gguf/real_types.gguf");
        const GgufTensorInfo* t = f.find(name.toStdString());
        QVERIFY(t);
        QCOMPARE(QString::fromLatin1(ggmlTypeName(t->type)), ref[u"type"].toString());
        QVERIFY(ggmlCanDequantize(t->type));
        QCOMPARE(t->shape, (std::vector<std::int64_t>{6, 1536}));
        const std::vector<float> v = f.dequantize(*t);
        QCOMPARE(QString::fromStdString(probaudit::sha256Hex(v.data(), v.size() * 4)),
                 ref[u"sha256"].toString());
        // The zero row stays zero; a real row does not (the fixture holds weights, not padding).
        QVERIFY(std::all_of(v.end() - 1536, v.end(), [](float x) { return x == 0.0f; }));
        QVERIFY(std::any_of(v.begin(), v.begin() + 1536, [](float x) { return x != 0.0f; }));
    }

    void halfConversionIsExact() {
        QCOMPARE(halfToFloat(0x3C00), 1.0f);
        QCOMPARE(halfToFloat(0xC000), -2.0f);
        QCOMPARE(halfToFloat(0x0001), 5.9604644775390625e-08f); // smallest subnormal
        QCOMPARE(halfToFloat(0x7BFF), 65504.0f);
        QVERIFY(std::isinf(halfToFloat(0x7C00)));
        QVERIFY(std::isnan(halfToFloat(0x7E00)));
        QVERIFY(std::signbit(halfToFloat(0x8000)));
        QCOMPARE(bf16ToFloat(0x3F80), 1.0f);
    }

    // unpermuteHeads is the inverse of llama.cpp's convert permutation.
    void unpermuteInvertsTheConverter() {
        const std::int64_t heads = 2, rows = 8, cols = 3;
        std::vector<float> hf(rows * cols);
        for (std::size_t i = 0; i < hf.size(); ++i) {
            hf[i] = float(i);
        }
        // llama.cpp: w.reshape(heads, 2, rows/heads/2, cols).swapaxes(1, 2)
        std::vector<float> gg(hf.size());
        const std::int64_t half = rows / heads / 2;
        for (std::int64_t h = 0; h < heads; ++h)
            for (std::int64_t two = 0; two < 2; ++two)
                for (std::int64_t d = 0; d < half; ++d)
                    std::memcpy(&gg[std::size_t((h * 2 * half + d * 2 + two) * cols)],
                                &hf[std::size_t((h * 2 * half + two * half + d) * cols)], cols * 4);
        QVERIFY(gg != hf);
        unpermuteHeads(gg, rows, cols, heads);
        QVERIFY(gg == hf);
    }

    void refusesCorruptFiles_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem");
        QByteArray q8(34, '\0');
        QTest::newRow("bad magic") << QByteArray("GGML\3\0\0\0") << "bad magic";
        Builder v1;
        v1.version = 1;
        QTest::newRow("version 1") << v1.build() << "version 1 is not supported";
        Builder ok;
        ok.string("general.architecture", "llama").tensor("a", 32, 1, 8, 0);
        ok.data = q8;
        const QByteArray good = ok.build();
        QTest::newRow("truncated header") << good.left(40) << "truncated";
        QTest::newRow("truncated data")
            << good.left(good.size() - 10) << "run past the end of the data";
        Builder range;
        range.tensor("a", 32, 1, 8, 64);
        range.data = q8;
        QTest::newRow("offset out of range") << range.build() << "run past the end of the data";
        Builder overlap;
        overlap.tensor("a", 32, 2, 8, 0).tensor("b", 32, 1, 8, 32);
        overlap.data = QByteArray(34 * 3, '\0');
        QTest::newRow("overlapping tensors") << overlap.build() << "overlaps";
        Builder badType;
        badType.tensor("a", 32, 1, 99, 0);
        badType.data = q8;
        QTest::newRow("unknown tensor type")
            << badType.build() << "unsupported GGUF tensor type 99";
        Builder unaligned;
        unaligned.tensor("a", 32, 1, 8, 3);
        unaligned.data = QByteArray(64, '\0');
        QTest::newRow("unaligned offset") << unaligned.build() << "not aligned";
        Builder dupT;
        dupT.tensor("a", 32, 1, 8, 0).tensor("a", 32, 1, 8, 64);
        dupT.data = QByteArray(98, '\0');
        QTest::newRow("duplicate tensor") << dupT.build() << "duplicate tensor name";
        Builder dupK;
        dupK.string("k", "1").string("k", "2");
        QTest::newRow("duplicate key") << dupK.build() << "duplicate metadata key";
        Builder block;
        block.tensor("a", 31, 1, 8, 0);
        block.data = q8;
        QTest::newRow("row not a block multiple") << block.build() << "block size";
        QByteArray hugeString("GGUF");
        Builder::put<quint32>(hugeString, 3);
        Builder::put<quint64>(hugeString, 0);                // tensors
        Builder::put<quint64>(hugeString, 1);                // metadata entries
        Builder::put<quint64>(hugeString, quint64(1) << 40); // key length: 1 TiB
        hugeString.append(QByteArray(64, 'k'));
        QTest::newRow("implausible string length") << hugeString << "implausible length";
        // 8-byte elements: a count the remaining bytes could hold one byte at a time, but not
        // eight, is refused before memory is set aside for it.
        Builder wide;
        wide.arrayClaiming("k", 10, 200);
        wide.data = QByteArray(256, '\0');
        QTest::newRow("array count beyond its elements' size")
            << wide.build() << "runs past the end of the file";
    }
    void refusesCorruptFiles() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = write(dir, bytes);
        try {
            GgufFile f(path.toStdString());
            QFAIL("accepted a corrupt file");
        } catch (const probaudit::Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(path + QStringLiteral(": ")), qPrintable(msg));
            QVERIFY2(msg.contains(problem), qPrintable(msg));
        }
    }

    // A type the file may hold but this version cannot dequantize: the file opens, and the
    // tensor is refused in one sentence that names its type and what is supported.
    void refusesUnsupportedDequantization() {
        Builder b;
        b.tensor("a", 256, 1, 16 /* IQ2_XXS */, 0);
        b.data = QByteArray(66, '\0');
        QTemporaryDir dir;
        const GgufFile f(write(dir, b.build()).toStdString());
        QVERIFY(!ggmlCanDequantize(f.find("a")->type));
        try {
            f.dequantize(*f.find("a"));
            QFAIL("dequantized IQ2_XXS");
        } catch (const probaudit::Error& e) {
            const QString msg = QString::fromLatin1(e.what());
            QVERIFY2(msg.contains(QStringLiteral("tensor \"a\" has type IQ2_XXS, which this "
                                                 "version cannot dequantize (supported: F32")),
                     e.what());
            QVERIFY2(msg.contains(QStringLiteral("Q6_K)")), e.what());
        }
    }

    // Version 2 files have the same layout as version 3 for everything read here.
    void readsVersion2() {
        Builder b;
        b.version = 2;
        b.string("general.architecture", "llama").tensor("a", 32, 1, 8, 0);
        b.data = QByteArray(34, '\x01');
        QTemporaryDir dir;
        const GgufFile f(write(dir, b.build()).toStdString());
        QCOMPARE(f.header().version, 2u);
        QCOMPARE(f.getString("general.architecture"), std::string("llama"));
        QCOMPARE(f.dequantize(*f.find("a")).size(), size_t(32));
    }

    // A block count the file's tensors cannot back is refused before a tensor list is built
    // for it (2^40 blocks would be a list of 9 * 2^40 names).
    void refusesABlockCountBeyondItsTensors() {
        Builder b;
        b.string("general.architecture", "llama")
            .u32("llama.embedding_length", 32)
            .u32("llama.feed_forward_length", 64)
            .scalar<quint64>("llama.block_count", 10, quint64(1) << 40)
            .u32("llama.attention.head_count", 4)
            .u32("llama.context_length", 128)
            .f32("llama.attention.layer_norm_rms_epsilon", 1e-5f)
            .tensor("token_embd.weight", 32, 2, 0, 0);
        b.data = QByteArray(32 * 2 * 4, '\0');
        QTemporaryDir dir;
        const GgufFile f(write(dir, b.build()).toStdString());
        try {
            ggufLlamaSpec(f);
            QFAIL("accepted 2^40 blocks");
        } catch (const probaudit::Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains("block_count 1099511627776"),
                     e.what());
        }
    }

    // BOS and EOS ids must be tokens of the file's vocabulary (an id past it would be fed to
    // the embedding table as it is).
    void refusesABosIdOutsideTheVocabulary() {
        Builder b;
        b.string("tokenizer.ggml.model", "gpt2")
            .strings("tokenizer.ggml.tokens", {"a", "b"})
            .strings("tokenizer.ggml.merges", {})
            .boolean("tokenizer.ggml.add_bos_token", true)
            .u32("tokenizer.ggml.bos_token_id", 99);
        QTemporaryDir dir;
        const GgufFile f(write(dir, b.build()).toStdString());
        try {
            probaudit::tokenizer::Tokenizer::fromGguf(f);
            QFAIL("accepted BOS 99 of 2 tokens");
        } catch (const probaudit::Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(
                         "\"tokenizer.ggml.bos_token_id\": id 99 is outside the 2 "
                         "tokens"),
                     e.what());
        }
    }

    void refusesOtherArchitectures() {
        Builder b;
        b.string("general.architecture", "gpt2");
        QTemporaryDir dir;
        const GgufFile f(write(dir, b.build()).toStdString());
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, ggufLlamaSpec(f));
    }
};

QTEST_GUILESS_MAIN(TestGguf)
#include "test_gguf.moc"
