// The diagnosis ladder and runtime pinning through the CLI. `unit`: the tiny fixture model
// (structure, probe runs in the ledger, pin/check exit codes). `model`: the real demo models,
// where the findings must hold (repeatability clean, neighbours clean, some shape
// change moves probabilities on this CPU).
#include "cli_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kCli = QStringLiteral(PROBAUDIT_CLI);
const QString kRoot = QStringLiteral(PROBAUDIT_SOURCE_DIR);

using Result = probaudit::test::CliResult;
using probaudit::test::cli;

void write(const QString& path, const QByteArray& bytes) {
    QVERIFY(probaudit::test::writeFile(path, bytes));
}

// A study over the first `limit` demo sentences with the given model and head.
QString writeStudy(const QDir& dir, const QString& model, const QString& head, int limit,
                   const QString& configs) {
    const QString path = dir.filePath("s.study.json");
    write(path, QStringLiteral("{\"name\":\"d\",\"model\":{\"path\":\"%1\"},\"heads\":{\"h\":%2},"
                               "\"dataset\":{\"path\":\"%3/resources/demo/sentiment-sentences/"
                               "yelp.jsonl\",\"limit\":%4},"
                               "\"capture\":\"hashes\",\"configs\":{%5},\"reference\":\"ref\"}")
                    .arg(model, head, kRoot, QString::number(limit), configs)
                    .toUtf8());
    return path;
}

QJsonObject row(const QJsonObject& diag, const QString& startsWith) {
    for (const auto& v : diag.value("table").toArray()) {
        if (v.toObject().value("what").toString().startsWith(startsWith)) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestDiagnose : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ladderOnTheTinyModel() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), kRoot + "/tests/fixtures/tiny-bert",
                       "{\"kind\":\"adapter\",\"path\":\"" + kRoot +
                           "/tests/fixtures/adapters/tiny-bert-mean.safetensors\"}",
                       64, "\"ref\":{},\"b8\":{\"batch_size\":8}");
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const Result r = cli({"diagnose", study, "--sample", "16", "--json"});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d.value("sample").toInt(), 16);
        const QJsonArray ladder = d.value("ladder").toArray();
        QCOMPARE(ladder.size(), 5); // nothing decisive on this model: every step runs
        QCOMPARE(ladder[0].toObject().value("step").toString(),
                 QStringLiteral("loader and repeatability"));
        QCOMPARE(ladder[3].toObject().value("step").toString(),
                 QStringLiteral("kernels and runtime"));
        QCOMPARE(row(d, "the reference config run twice").value("bit_identical").toDouble(), 1.0);
        QVERIFY(!row(d, "padding added to one input").isEmpty());
        QVERIFY(!row(d, "batch size 1 -> 8").isEmpty());
        // Each item in its own row, only its neighbours changed: the same bits (a GEMM that
        // gives a row other bits in another row shows in the shape step, not here).
        QCOMPARE(row(d, "neighbour content only").value("bit_identical").toDouble(), 1.0);
        QVERIFY(!row(d, "row in the batch changed").isEmpty());
        QVERIFY(!row(d, "attention sdpa").isEmpty());
        // The fix is tried: the batch-invariant kernels at batch 1 vs batch 8 with padding are
        // bit-identical, and the finding says to pin them.
        QCOMPARE(row(d, "batch-invariant kernels: batch 1 -> 8").value("bit_identical").toDouble(),
                 1.0);
        QVERIFY(ladder[3].toObject().value("finding").toString().contains(
            QStringLiteral("a fix: pin kernels: batch_invariant")));
        // The study's other config is explained, with a forecast beside what was observed.
        const QJsonObject cfg = d.value("configs").toArray()[0].toObject();
        QCOMPARE(cfg.value("config").toString(), QStringLiteral("b8"));
        QCOMPARE(cfg.value("suspects").toArray()[0].toString(), QStringLiteral("shape"));
        const QJsonObject f = d.value("forecast").toArray()[0].toObject();
        QVERIFY(f.contains("predicted_flips") && f.contains("observed_flips"));
        // Every probe run is recorded and sealed in the ledger.
        const QJsonArray runs =
            QJsonDocument::fromJson(cli({"runs", dir.filePath("s.ledger"), "--json"}).out).array();
        int probes = 0;
        for (const auto& v : runs) {
            probes += v.toObject().value("kind").toString() == "probe";
        }
        QVERIFY(probes >= 10);
        QCOMPARE(cli({"verify", dir.filePath("s.ledger")}).code, 0);
        // The human-readable ladder names the steps and prints the field report's table.
        const Result text = cli({"diagnose", study, "--sample", "16"});
        QVERIFY(text.out.contains("1. loader and repeatability"));
        QVERIFY(text.out.contains(
            "| what changed | largest probability gap (points) | first layer that differs |"));

        // summary --seed-tables: the shape rows of the stored diagnosis, the accuracy of the
        // batched path (b8) against the reference, and the near-tie table with b8's flips.
        const Result seed = cli({"summary", dir.filePath("s.ledger"), "--seed-tables", "--json"});
        QVERIFY2(seed.code == 0, seed.err);
        const QJsonObject t = QJsonDocument::fromJson(seed.out).object();
        QJsonArray shape = t.value("shape").toArray();
        QVERIFY(!shape.isEmpty());
        int shapeRows = 0;
        for (const auto& v : d.value("table").toArray()) {
            const QString step = v.toObject().value("step").toString();
            shapeRows += step == "shape" || step == "neighbours";
        }
        QCOMPARE(shape.size(), shapeRows);
        QCOMPARE(shape[0].toObject().value("what").toString(),
                 row(d, "neighbour").value("what").toString());
        const QJsonObject acc = t.value("accuracy").toArray()[0].toObject();
        QCOMPARE(acc.value("batched").toString(), QStringLiteral("b8"));
        const QJsonObject ties = t.value("near_ties").toArray()[0].toObject();
        QCOMPARE(ties.value("config").toString(), QStringLiteral("b8"));
        int items = 0, flips = 0;
        for (const auto& v : ties.value("bins").toArray()) {
            items += v.toObject().value("items").toInt();
            flips += v.toObject().value("flips").toInt();
        }
        QCOMPARE(items, 64);
        QCOMPARE(flips, acc.value("flips").toInt());
        const Result md = cli({"summary", dir.filePath("s.ledger"), "--seed-tables"});
        QVERIFY(md.out.contains("## (a) What changed: the shape table"));
        QVERIFY(md.out.contains("| reference margin (absolute logit gap) | items | b8 |"));
        // A config the study lacks is refused in one sentence, and nothing is printed.
        const Result bad =
            cli({"summary", dir.filePath("s.ledger"), "--seed-tables", "--batched", "nope"});
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.out.isEmpty());
        QVERIFY(bad.err.contains("no config \"nope\""));
    }

    // The fifth rung: each config that differs from the reference is localised against it (its
    // flips, then its largest Δp, up to the sample), stored in the diagnosis and printed; a
    // config with the reference's bits is not; a pair that cannot be spliced gets the sentence.
    void causeRung() {
        QTemporaryDir dir;
        const QString study = writeStudy(
            QDir(dir.path()), kRoot + "/tests/fixtures/tiny-bert",
            "{\"kind\":\"adapter\",\"path\":\"" + kRoot +
                "/tests/fixtures/adapters/tiny-bert-mean.safetensors\"}",
            64,
            "\"ref\":{},\"b8\":{\"batch_size\":8},\"bf\":{\"dtype\":\"bfloat16\"},"
            "\"nosimd\":{\"cpu_capability\":\"default\"},\"same\":{\"order\":\"shuffled\"}");
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const Result r = cli({"diagnose", study, "--sample", "16", "--json"});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        const QJsonObject rung = d.value("ladder").toArray()[4].toObject();
        QCOMPARE(rung.value("step").toString(), QStringLiteral("cause"));
        QCOMPARE(rung.value("status").toString(), QStringLiteral("explains"));
        QMap<QString, QJsonObject> configs, causes;
        for (const auto& v : d.value("configs").toArray()) {
            configs[v.toObject().value("config").toString()] = v.toObject();
        }
        for (const auto& v : d.value("causes").toArray()) {
            causes[v.toObject().value("config").toString()] = v.toObject();
        }
        QCOMPARE(configs.value("same").value("bit_identical").toDouble(), 1.0);
        QVERIFY(!causes.contains("same")); // the reference's bits: nothing to localise
        QVERIFY(causes.value("nosimd")
                    .value("not_localised")
                    .toString()
                    .contains(QStringLiteral("different CPU capabilities")));
        QVERIFY(!causes.value("nosimd").contains("localization"));
        QSet<qint64> probes;
        for (const QString& name : {QStringLiteral("b8"), QStringLiteral("bf")}) {
            const QJsonObject l = causes.value(name).value("localization").toObject();
            QCOMPARE(l.value("config_a").toString(), QStringLiteral("ref"));
            QCOMPARE(l.value("config_b").toString(), name);
            const QJsonArray items = l.value("items").toArray();
            // Up to the sample, and every item of it differs between the study runs.
            QVERIFY(!items.isEmpty() && items.size() <= 16);
            int explained = 0, differ = 0;
            for (const auto& it : items) {
                const QJsonObject c = it.toObject();
                QVERIFY(c.value("study_dp").toDouble() > 0 || c.value("study_flip").toBool());
                QCOMPARE(c.value("classes").toArray().size(), 8); // one splice per class
                explained += c.value("cause_explains").toBool() || c.value("set_explains").toBool();
                differ += c.value("status").toString() != QStringLiteral("no difference");
            }
            // The finding counts what the items' splices say.
            const QString phrase = QStringLiteral("%1: %2 of %3 items that differ explained")
                                       .arg(name)
                                       .arg(explained)
                                       .arg(differ);
            QVERIFY2(rung.value("finding").toString().contains(phrase), qPrintable(phrase));
            for (const auto& p : l.value("probes").toArray()) {
                probes.insert(p.toInteger());
            }
        }
        // bf's flip is among the items localised: the difference that matters comes first.
        QCOMPARE(configs.value("bf").value("flips").toInt(), 1);
        bool flipLocalised = false;
        for (const auto& it :
             causes.value("bf").value("localization").toObject().value("items").toArray()) {
            flipLocalised = flipLocalised || it.toObject().value("study_flip").toBool();
        }
        QVERIFY(flipLocalised);
        // Every pass is a probe run of the ledger, and the ledger still verifies.
        const QJsonArray runs =
            QJsonDocument::fromJson(cli({"runs", dir.filePath("s.ledger"), "--json"}).out).array();
        int found = 0;
        for (const auto& v : runs) {
            const QJsonObject run = v.toObject();
            found += probes.contains(run.value("run").toInteger()) &&
                     run.value("kind").toString() == "probe";
        }
        QCOMPARE(found, probes.size());
        QCOMPARE(cli({"verify", dir.filePath("s.ledger")}).code, 0);
        // The text names each config's cause with its table, and the refusal in one sentence.
        const Result text = cli({"diagnose", study, "--sample", "16"});
        QVERIFY(text.out.contains("5. cause"));
        QVERIFY(text.out.contains("### b8"));
        QVERIFY(text.out.contains("| Δp complete by | items |"));
        QVERIFY(text.out.contains("Not localised: "));

        // --cause-sample bounds the items each config is localised on; 0 skips the rung.
        const Result two =
            cli({"diagnose", study, "--sample", "16", "--cause-sample", "2", "--json"});
        QVERIFY2(two.code == 0, two.err);
        const QJsonObject d2 = QJsonDocument::fromJson(two.out).object();
        QCOMPARE(d2.value("cause_sample").toInt(), 2);
        for (const auto& v : d2.value("causes").toArray()) {
            const QJsonObject c = v.toObject();
            if (c.contains("localization")) {
                QCOMPARE(c.value("localization").toObject().value("items").toArray().size(), 2);
            }
        }
        const Result none =
            cli({"diagnose", study, "--sample", "16", "--cause-sample", "0", "--json"});
        QVERIFY2(none.code == 0, none.err);
        const QJsonObject d0 = QJsonDocument::fromJson(none.out).object();
        QCOMPARE(d0.value("ladder").toArray()[4].toObject().value("status").toString(),
                 QStringLiteral("untested"));
        QVERIFY(!d0.contains("causes"));
    }

    // An A/B of two head variants is shown beside the runtime noise floor of variant A.
    void abComparedWithTheNoiseFloor() {
        QTemporaryDir dir;
        const QString adapter = kRoot + "/tests/fixtures/adapters/tiny-bert-mean.safetensors";
        const QString study = writeStudy(
            QDir(dir.path()), kRoot + "/tests/fixtures/tiny-bert",
            "{\"kind\":\"adapter\",\"path\":\"" + adapter +
                "\",\"pooling\":\"mean\"},"
                "\"cls\":{\"kind\":\"adapter\",\"path\":\"" +
                adapter + "\",\"pooling\":\"cls\"}",
            40, "\"ref\":{},\"b8\":{\"batch_size\":8},\"bf16\":{\"dtype\":\"bfloat16\"}");
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        // Runs: h/ref 1, h/b8 2, h/bf16 3, cls/ref 4, ...
        const QJsonObject ab =
            QJsonDocument::fromJson(
                cli({"compare", dir.filePath("s.ledger"), "1", "4", "--json"}).out)
                .object();
        const QJsonObject floor = ab.value("noise_floor").toObject();
        QCOMPARE(floor.value("runs").toArray().size(), 2); // h's other configs
        QVERIFY(floor.value("max_dp").toDouble() > 0);     // bfloat16 moves probabilities
        for (const auto* key : {"flips", "max_dp"}) {
            QVERIFY2(ab.contains(QLatin1String(key)) && floor.contains(QLatin1String(key)), key);
        }
        const bool exceeded = ab.value("flips").toInt() > floor.value("flips").toInt() &&
                              ab.value("max_dp").toDouble() > floor.value("max_dp").toDouble();
        QCOMPARE(floor.value("exceeded").toBool(), exceeded);
        const Result text = cli({"compare", dir.filePath("s.ledger"), "1", "4"});
        QVERIFY(text.out.contains("runtime noise floor of \"h\""));
        QCOMPARE(text.out.contains("WARNING: the variant difference does not exceed"), !exceeded);
        // Two configs of one variant are not an A/B: no noise floor.
        QVERIFY(QJsonDocument::fromJson(
                    cli({"compare", dir.filePath("s.ledger"), "1", "2", "--json"}).out)
                    .object()
                    .value("noise_floor")
                    .isNull());
    }

    void pinAndCheck() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), kRoot + "/tests/fixtures/tiny-bert",
                       "{\"kind\":\"adapter\",\"path\":\"" + kRoot +
                           "/tests/fixtures/adapters/tiny-bert-mean.safetensors\"}",
                       20, "\"ref\":{\"batch_size\":4}");
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const QString lock = dir.filePath("runtime.lock.json");
        const Result pin = cli({"pin", study, "--run", "1", "-o", lock, "--sample", "8"});
        QVERIFY2(pin.code == 0, pin.err);
        // Same machine, same runtime: identical.
        Result same = cli({"check", lock, "--study", study});
        QVERIFY2(same.code == 0, same.out + same.err);
        QVERIFY(same.out.contains("environment: identical"));
        QVERIFY(same.out.contains("0 of 8 sample items differ"));
        // A numerics-relevant variable: exit 3, named.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OMP_NUM_THREADS", "1");
        const Result omp = cli({"check", lock, "--json"}, env);
        QCOMPARE(omp.code, 3);
        bool named = false;
        for (const auto& v :
             QJsonDocument::fromJson(omp.out).object().value("environment_differences").toArray()) {
            named = named || (v.toObject().value("what").toString() == "env_vars.OMP_NUM_THREADS" &&
                              v.toObject().value("can_move_numbers").toBool());
        }
        QVERIFY2(named, omp.out);
        // Another kernel set for the CPU: exit 3 naming the capability.
        env = QProcessEnvironment::systemEnvironment();
        env.insert("ATEN_CPU_CAPABILITY", "default");
        const Result cap = cli({"check", lock}, env);
        QCOMPARE(cap.code, 3);
        QVERIFY2(cap.out.contains("cpu.aten_capability"), cap.out);
        // Results that differ from the pinned bits: exit 4.
        QFile f(lock);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonObject sample = o.value("sample").toObject();
        QJsonArray results = sample.value("results").toArray();
        QJsonObject first = results[0].toObject();
        QJsonArray bits = first.value("probs_bits").toArray();
        bits[0] = QStringLiteral("3f000000");
        first.insert("probs_bits", bits);
        results[0] = first;
        sample.insert("results", results);
        o.insert("sample", sample);
        write(lock, QJsonDocument(o).toJson());
        const Result changed = cli({"check", lock, "--study", study});
        QCOMPARE(changed.code, 4);
        QVERIFY(changed.out.contains("1 of 8 sample items differ"));
    }

    // `model`: all-MiniLM-L6-v2 and SmolLM2 on this CPU.
    void realModels_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("head");
        QTest::addColumn<int>("sample");
        QTest::newRow("all-MiniLM-L6-v2")
            << kRoot + "/.cache/models/all-MiniLM-L6-v2"
            << "{\"kind\":\"adapter\",\"path\":\"" + kRoot +
                   "/tests/fixtures/adapters/all-MiniLM-L6-v2-mean.safetensors\"}"
            << 32;
        QTest::newRow("SmolLM2-135M-Instruct")
            << kRoot + "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf"
            << "{\"kind\":\"label_tokens\",\"template\":\"Review: {text}\\nIs this review "
               "positive? Answer:\","
               "\"labels\":[\" No\",\" Yes\"]}"
            << 16;
    }
    void realModels() {
        QFETCH(QString, model);
        QFETCH(QString, head);
        QFETCH(int, sample);
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), model, head, 64, "\"ref\":{\"threads\":2}");
        const Result r = cli({"diagnose", study, "--sample", QString::number(sample), "--json"});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QVERIFY(d.value("stopped_at").isNull());
        QCOMPARE(row(d, "the reference config run twice").value("bit_identical").toDouble(), 1.0);
        int neighbourRows = 0;
        double shapeGap = 0;
        for (const auto& v : d.value("table").toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value("step").toString() == "neighbours") {
                ++neighbourRows;
                QCOMPARE(o.value("bit_identical").toDouble(), 1.0); // no interference
            }
            if (o.value("step").toString() == "shape") {
                shapeGap = std::max(shapeGap, o.value("max_dp").toDouble());
            }
        }
        QCOMPARE(neighbourRows, 2);
        QVERIFY2(shapeGap > 0, "no shape change moved any probability on this CPU");
        qInfo("%s: largest shape gap %.3g points", QTest::currentDataTag(), shapeGap);
    }
};

QTEST_GUILESS_MAIN(TestDiagnose)
#include "test_diagnose.moc"
