// `model`: the demo pipeline is deterministic per config on one machine. A smaller slice of
// demo study A (adapter trained on 120 amazon sentences, 48 yelp sentences audited, three
// configs) run twice from scratch into two folders: the adapters are byte-identical and every
// config's numerics digest (its records without wall times) is the same. Also the adapter's card
// reports what was trained.
#include "cli_support.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using probaudit::test::cli;

namespace {

const QString kRoot = QStringLiteral(PROBAUDIT_SOURCE_DIR);

QByteArray sha(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly)
               ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()
               : QByteArray();
}

// Runs the slice in `dir`; returns config name -> records digest.
QMap<QString, QString> pipeline(const QString& dir) {
    QMap<QString, QString> digests;
    QByteArray train;
    QFile amazon(kRoot + "/resources/demo/sentiment-sentences/amazon.jsonl");
    if (!amazon.open(QIODevice::ReadOnly)) {
        return digests;
    }
    for (int i = 0; i < 120; ++i) {
        train += amazon.readLine();
    }
    probaudit::test::writeFile(dir + "/train.jsonl", train);
    const auto t =
        cli({"train-adapter", kRoot + "/.cache/models/all-MiniLM-L6-v2", "--data",
             dir + "/train.jsonl", "--seed", "2015", "-o", dir + "/adapter.safetensors"});
    if (t.code != 0) {
        qWarning("%s", t.err.constData());
        return digests;
    }
    const QString study = dir + "/slice.study.json";
    probaudit::test::writeFile(
        study,
        QStringLiteral(
            "{\"name\":\"slice\",\"model\":{\"path\":\"%1/.cache/models/all-MiniLM-L6-v2\"},"
            "\"heads\":{\"a\":{\"kind\":\"adapter\",\"path\":\"adapter.safetensors\"}},"
            "\"dataset\":{\"path\":\"%1/resources/demo/sentiment-sentences/"
            "yelp.jsonl\",\"limit\":48},"
            "\"capture\":\"vectors\",\"configs\":{\"reference\":{},\"batch-8\":{\"batch_size\":8},"
            "\"bfloat16\":{\"dtype\":\"bfloat16\"}},\"reference\":\"reference\"}")
            .arg(kRoot)
            .toUtf8());
    if (cli({"run", study, "--all"}).code != 0) {
        return digests;
    }
    for (const auto& v :
         QJsonDocument::fromJson(cli({"runs", dir + "/slice.ledger", "--json"}).out).array()) {
        digests[v.toObject().value("config").toString()] =
            v.toObject().value("numerics_sha256").toString();
    }
    return digests;
}

} // namespace

class TestDemo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pipelineIsDeterministic() {
        QTemporaryDir a, b;
        const auto first = pipeline(a.path());
        const auto second = pipeline(b.path());
        QCOMPARE(first.size(), 3);
        QCOMPARE(first, second);
        // The digest tells configs apart: equal digests above mean equal numbers, not a constant.
        QVERIFY(first["bfloat16"] != first["reference"]);
        QVERIFY(first["batch-8"] != first["reference"]);
        QCOMPARE(sha(a.filePath("adapter.safetensors")), sha(b.filePath("adapter.safetensors")));
        QFile card(a.filePath("adapter.card.json"));
        QVERIFY(card.open(QIODevice::ReadOnly));
        const QJsonObject c = QJsonDocument::fromJson(card.readAll()).object();
        QCOMPARE(c.value("items").toInt(), 120);
        QCOMPARE(c.value("validation_items").toInt(), 24);
        QVERIFY(c.value("validation_accuracy").toDouble() >
                0.6); // sentiment is in these embeddings
        QVERIFY(c.value("best_epoch").toInt() > 0);
        // A retrain with other settings reuses the cached features.
        const auto again = cli({"train-adapter", kRoot + "/.cache/models/all-MiniLM-L6-v2",
                                "--data", a.filePath("train.jsonl"), "--seed", "3", "-o",
                                a.filePath("adapter.safetensors")});
        QCOMPARE(again.code, 0);
        QVERIFY(again.out.contains("(cached features)"));
        // Another extraction batch size is another computation: the features are extracted
        // again (the batch is part of their cache key). A batch size of 0 is refused.
        const auto batched = cli({"train-adapter", kRoot + "/.cache/models/all-MiniLM-L6-v2",
                                  "--data", a.filePath("train.jsonl"), "--batch", "8", "-o",
                                  a.filePath("adapter.safetensors")});
        QCOMPARE(batched.code, 0);
        QVERIFY2(!batched.out.contains("(cached features)"), batched.out.constData());
        const auto zero =
            cli({"train-adapter", kRoot + "/.cache/models/all-MiniLM-L6-v2", "--data",
                 a.filePath("train.jsonl"), "--batch", "0", "-o", a.filePath("other.safetensors")});
        QVERIFY(zero.code != 0);
        QVERIFY(!QFile::exists(a.filePath("other.safetensors")));
    }
};

QTEST_GUILESS_MAIN(TestDemo)
#include "test_demo.moc"
