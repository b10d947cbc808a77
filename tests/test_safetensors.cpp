// safetensors reading: the fixtures (single and sharded), and every kind of bad file, each
// refused with one message that names the file and the problem.
#include "core/common/error.h"
#include "core/model/safetensors.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace probaudit::model;

namespace {

QByteArray image(const QByteArray& header, const QByteArray& data, qint64 declaredLength = -1) {
    QByteArray out(8, '\0');
    const quint64 n = declaredLength < 0 ? quint64(header.size()) : quint64(declaredLength);
    for (int i = 0; i < 8; ++i) {
        out[i] = char((n >> (8 * i)) & 0xFF);
    }
    return out + header + data;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        qFatal("cannot write %s", qPrintable(path));
    }
    return path;
}

// A valid two-tensor file: a F32 [2] and a BF16 [3].
const QByteArray kGoodHeader =
    R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
    R"("b":{"dtype":"BF16","shape":[3],"data_offsets":[8,14]},"__metadata__":{"format":"pt"}})";

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsAValidFile() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("ok.safetensors"),
                                       image(kGoodHeader, QByteArray(14, '\x01')));
        SafetensorsFile f(path.toStdString());
        QCOMPARE(f.tensors().size(), size_t(2));
        const TensorInfo* b = f.find("b");
        QVERIFY(b);
        QCOMPARE(b->dtype, DType::BF16);
        QCOMPARE(b->numel(), std::int64_t(3));
        QCOMPARE(f.bytes(*b).size(), size_t(6));
        QCOMPARE(f.metadata().at("format"), std::string("pt"));
    }

    void readsTheShardedFixture() {
        SafetensorsCheckpoint ckpt(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-llama");
        QCOMPARE(ckpt.files().size(), size_t(3));
        QCOMPARE(ckpt.tensors().size(), size_t(21));
        QVERIFY(ckpt.contains("model.embed_tokens.weight"));
        QVERIFY(ckpt.contains("lm_head.weight"));
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, ckpt.at("no.such.tensor"));
    }

    void refusesBadFiles_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem");
        const QByteArray data14(14, '\0');
        QTest::newRow("truncated") << QByteArray("\x05\x00\x00", 3) << "truncated";
        QTest::newRow("header length past end")
            << image(kGoodHeader, data14, kGoodHeader.size() + 1000) << "past the end of the file";
        QTest::newRow("invalid header JSON")
            << image("{\"a\": [1, 2", data14) << "invalid header JSON";
        QTest::newRow("header not an object") << image("[1,2,3]", {}) << "not a JSON object";
        QTest::newRow("duplicate tensor name")
            << image(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                     QByteArray(16, '\0'))
            << "duplicate key \"a\"";
        QTest::newRow("overlapping offsets")
            << image(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                     QByteArray(12, '\0'))
            << "overlaps";
        QTest::newRow("offsets out of range")
            << image(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
                     QByteArray(8, '\0'))
            << "out of range";
        QTest::newRow("reversed offsets")
            << image(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})",
                     QByteArray(8, '\0'))
            << "reversed";
        QTest::newRow("shape/dtype size mismatch")
            << image(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
                     QByteArray(8, '\0'))
            << "need 12 bytes but data_offsets give 8";
        QTest::newRow("unknown dtype")
            << image(R"({"a":{"dtype":"F8_E9","shape":[2],"data_offsets":[0,2]}})",
                     QByteArray(2, '\0'))
            << "unsupported dtype F8_E9";
        QTest::newRow("negative dimension")
            << image(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})",
                     QByteArray(8, '\0'))
            << "negative";
        QTest::newRow("bytes owned by no tensor")
            << image(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                     QByteArray(12, '\0'))
            << "belong to no tensor";
        QTest::newRow("entry without offsets")
            << image(R"({"a":{"dtype":"F32","shape":[2]}})", QByteArray(8, '\0'))
            << "needs dtype, shape and data_offsets";
        QTest::newRow("overflowing shape")
            << image(
                   R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}})",
                   QByteArray(8, '\0'))
            << "overflows";
    }
    void refusesBadFiles() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("bad.safetensors"), bytes);
        try {
            SafetensorsFile f(path.toStdString());
            QFAIL("accepted a bad file");
        } catch (const probaudit::Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(path + QStringLiteral(": ")), qPrintable(msg));
            QVERIFY2(msg.contains(problem), qPrintable(msg));
            QVERIFY(!msg.contains(u'\n'));
        }
    }

    // Sharded checkpoints: the index must agree with the shards.
    void refusesInconsistentShards_data() {
        QTest::addColumn<QByteArray>("index");
        QTest::addColumn<QString>("problem");
        QTest::newRow("missing tensor")
            << QByteArray(
                   R"({"weight_map":{"a":"s1.safetensors","b":"s1.safetensors","c":"s1.safetensors"}})")
            << "missing tensor \"c\"";
        QTest::newRow("tensor in the wrong shard")
            << QByteArray(R"({"weight_map":{"a":"s1.safetensors","b":"s2.safetensors"}})")
            << "is not listed for this shard";
        QTest::newRow("path in shard name")
            << QByteArray(R"({"weight_map":{"a":"../s1.safetensors"}})") << "not a plain file name";
        QTest::newRow("no weight map") << QByteArray(R"({"metadata":{}})") << "no weight_map";
    }
    void refusesInconsistentShards() {
        QFETCH(QByteArray, index);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        writeFile(dir, QStringLiteral("s1.safetensors"), image(kGoodHeader, QByteArray(14, '\0')));
        writeFile(dir, QStringLiteral("model.safetensors.index.json"), index);
        try {
            SafetensorsCheckpoint ckpt(dir.path().toStdString());
            QFAIL("accepted an inconsistent checkpoint");
        } catch (const probaudit::Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(problem), e.what());
        }
    }

    void duplicateAcrossShardsIsRefused() {
        QTemporaryDir dir;
        writeFile(dir, QStringLiteral("s1.safetensors"), image(kGoodHeader, QByteArray(14, '\0')));
        writeFile(dir, QStringLiteral("s2.safetensors"), image(kGoodHeader, QByteArray(14, '\0')));
        writeFile(dir, QStringLiteral("model.safetensors.index.json"),
                  R"({"weight_map":{"a":"s1.safetensors","b":"s2.safetensors"}})");
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, SafetensorsCheckpoint(dir.path().toStdString()));
    }

    // At the boundary: the CLI prints one line naming the file and exits non-zero.
    void cliReportsOneLine() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(
            QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert/config.json"),
            dir.filePath(QStringLiteral("config.json"))));
        const QString bad = writeFile(dir, QStringLiteral("model.safetensors"),
                                      image(kGoodHeader, QByteArray(14, '\0'), 9999));
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI), {QStringLiteral("inspect"), dir.path()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(err.count(u'\n'), 1);
        QVERIFY2(err.contains(bad) && err.contains(QStringLiteral("past the end")),
                 qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
