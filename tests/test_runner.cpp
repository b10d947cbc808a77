// `probaudit run` end to end on the tiny fixtures: events, resume after kill -9 and after
// SIGINT (bit-identical to an uninterrupted run), one writer at a time, bad input that leaves
// the ledger as it was, the JSON-lines engine, and configs that need another CPU capability.
#include "cli_support.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace {

const QString kCli = QStringLiteral(PROBAUDIT_CLI);
const QString kFaultEngine = QStringLiteral(PROBAUDIT_FAULT_ENGINE); // kCli, with slower batches
const QString kFixtures = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures");

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(path));
    }
    f.write(bytes);
}

QByteArray fileSha(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// `n` items with varied lengths (so padding differs between batches) and labels.
void writeDataset(const QString& path, int n) {
    QByteArray data;
    const char* words[] = {"good",  "bad",   "food",  "service", "slow",
                           "great", "never", "again", "loved",   "it"};
    for (int i = 0; i < n; ++i) {
        QByteArray text;
        for (int w = 0; w <= (i * 7) % 13; ++w) {
            text += QByteArray(words[(i + w * 3) % 10]) + ' ';
        }
        text += QByteArray::number(i);
        data += "{\"id\":\"item-" + QByteArray::number(i) + "\",\"text\":\"" + text +
                "\",\"label\":" + QByteArray::number(i % 2) + "}\n";
    }
    write(path, data);
}

QString writeStudy(const QDir& dir, int items, const QString& extraConfigs = QString(),
                   const QString& capture = QStringLiteral("vectors")) {
    writeDataset(dir.filePath("data.jsonl"), items);
    const QString study = dir.filePath("t.study.json");
    write(study, QStringLiteral("{\"name\":\"t\",\"model\":{\"path\":\"%1/tiny-bert\"},"
                                "\"heads\":{\"mean\":{\"kind\":\"adapter\",\"path\":\"%1/adapters/"
                                "tiny-bert-mean.safetensors\"}},"
                                "\"dataset\":{\"path\":\"data.jsonl\"},\"capture\":\"%3\","
                                "\"configs\":{\"ref\":{\"batch_size\":1},\"b4\":{\"batch_size\":4,"
                                "\"order\":\"shuffled\","
                                "\"order_seed\":5}%2},\"reference\":\"ref\"}")
                     .arg(kFixtures, extraConfigs, capture)
                     .toUtf8());
    return study;
}

using Result = probaudit::test::CliResult;
using probaudit::test::cli;
using probaudit::test::parseEvents;

// Starts a run with events and stops it the way `stop` says once some batches are committed.
// The process leads a process group of its own (as a shell's foreground job does), so `stop`
// may signal the group as a terminal's Ctrl-C does; a process still running two minutes after
// it was started is killed (the result then says -1: a hang). `ready` says, from the events
// so far, when to stop; by default once some run has committed 40 items.
using Events = QList<QJsonObject>;
bool fortyItemsDone(const Events& seen) {
    const QJsonObject& e = seen.last();
    return e.value("event").toString() == "progress" && e.value("done").toInt() >= 40;
}

Result runAndStop(const QStringList& args, const std::function<void(QProcess&)>& stop,
                  const std::function<bool(const Events&)>& ready = fortyItemsDone,
                  const QString& program = kCli) {
    QProcess p;
    p.setChildProcessModifier([] { ::setpgid(0, 0); });
    p.start(program, args);
    QByteArray out;
    bool stopped = false;
    Events seen;
    QElapsedTimer clock;
    clock.start();
    while (p.state() != QProcess::NotRunning || p.bytesAvailable() > 0) {
        if (clock.elapsed() > 120000) {
            p.kill();
        }
        p.waitForReadyRead(100);
        while (p.canReadLine()) {
            const QByteArray line = p.readLine();
            out += line;
            seen.append(QJsonDocument::fromJson(line).object());
            if (!stopped && ready(seen)) {
                stop(p);
                stopped = true;
            }
        }
        if (p.state() == QProcess::NotRunning && !p.canReadLine()) {
            out += p.readAll();
            break;
        }
    }
    p.waitForFinished(60000);
    Result r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = out;
    r.err = p.readAllStandardError();
    r.events = parseEvents(out);
    if (!stopped) {
        qWarning("the run ended before it could be stopped");
    }
    return r;
}

// An engine's events until the result of request `id` (or two minutes, or its end).
QList<QJsonObject> eventsUntilResult(QProcess& p, int id, bool* done) {
    QList<QJsonObject> events;
    QElapsedTimer t;
    t.start();
    while (!*done && t.elapsed() < 120000 && p.state() == QProcess::Running) {
        p.waitForReadyRead(200);
        while (p.canReadLine()) {
            const QJsonObject e = QJsonDocument::fromJson(p.readLine()).object();
            events.push_back(e);
            *done =
                *done || (e.value("id").toInt() == id && e.value("event").toString() == "result");
        }
    }
    return events;
}

QJsonArray runsOf(const QString& ledger) {
    const Result r = cli({"runs", ledger, "--json"});
    return QJsonDocument::fromJson(r.out).array();
}

// Export without the wall-time column: what must be bit-identical between two runs.
QList<QJsonObject> numerics(const QString& ledger, int run) {
    const Result r = cli({"export", ledger, "--run", QString::number(run), "--format", "jsonl"});
    QList<QJsonObject> rows = parseEvents(r.out);
    for (auto& o : rows) {
        o.remove("batch_seconds");
        o.remove("run");
    }
    return rows;
}

QJsonObject lastEvent(const Result& r, const QString& kind) {
    QJsonObject found;
    for (const auto& e : r.events) {
        if (e.value("event").toString() == kind) {
            found = e;
        }
    }
    return found;
}

} // namespace

class TestRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsEveryConfigWithEvents() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 60);
        const Result none = cli({"run", study});
        QCOMPARE(none.code, 1);
        QVERIFY(none.err.contains("--all"));

        const Result r = cli({"run", study, "--all", "--events", "jsonl"});
        QVERIFY2(r.code == 0, r.out + r.err);
        QStringList kinds;
        for (const auto& e : r.events) {
            kinds << e.value("event").toString();
        }
        QCOMPARE(kinds.count("started"), 2);
        QCOMPARE(kinds.count("run-finished"), 2);
        QVERIFY(kinds.count("progress") >= 2);
        QCOMPARE(kinds.last(), QStringLiteral("done"));
        QCOMPARE(r.events.first().value("config").toString(),
                 QStringLiteral("ref")); // the reference first
        const QJsonObject fin = lastEvent(r, "run-finished");
        QCOMPARE(fin.value("status").toString(), QStringLiteral("finished"));
        QCOMPARE(fin.value("items_done").toInt(), 60);
        QVERIFY(fin.value("forward_seconds").toDouble() > 0);

        const QString ledger = dir.filePath("t.ledger");
        const QJsonArray runs = runsOf(ledger);
        QCOMPARE(runs.size(), 2);
        for (const auto& v : runs) {
            QCOMPARE(v.toObject().value("status").toString(), QStringLiteral("finished"));
            QCOMPARE(v.toObject().value("items_done").toInt(), 60);
        }
        QCOMPARE(cli({"verify", ledger}).code, 0);
        // Records: one per item, every layer hashed, the decision vector kept.
        const auto rows = numerics(ledger, 2);
        QCOMPARE(rows.size(), 60);
        QCOMPARE(rows[0].value("id").toString(), QStringLiteral("item-0"));
        QVERIFY(rows[0].value("layer_hashes").toArray().size() >= 2);
        QVERIFY(rows[0].value("layer_vectors").toArray().size() > 0);
        const Result csv = cli({"export", ledger, "--run", "1", "--format", "csv"});
        QCOMPARE(csv.out.count('\n'), 61);
        // compare: the same items, both sides; itself reproduces at every level.
        const QJsonObject cmp =
            QJsonDocument::fromJson(cli({"compare", ledger, "1", "2", "--json"}).out).object();
        QCOMPARE(cmp.value("items").toInt(), 60);
        QCOMPARE(cmp.value("item_diffs").toArray().size(), 60);
        QCOMPARE(cmp.value("layers").toArray().size(),
                 rows[0].value("layer_hashes").toArray().size());
        const QJsonObject self =
            QJsonDocument::fromJson(cli({"compare", ledger, "2", "2", "--json"}).out).object();
        QCOMPARE(self.value("bit_identical_share").toDouble(), 1.0);
        QVERIFY(self.value("verdict").toObject().value("probabilities").toBool());
        QCOMPARE(cli({"compare", ledger, "1", "2", "--csv"}).out.count('\n'), 61);
        QVERIFY(cli({"compare", ledger, "1", "2"}).out.contains("verdict: accuracy"));
        // A second invocation records nothing twice.
        const Result again = cli({"run", study, "--all", "--events", "jsonl"});
        QCOMPARE(again.code, 0);
        int skipped = 0;
        for (const auto& e : again.events) {
            skipped += e.value("event").toString() == "skipped";
        }
        QCOMPARE(skipped, 2);
        QCOMPARE(runsOf(ledger).size(), 2);
    }

    // A generation study (a generation head) on the tiny llama: every config recorded as a
    // whole serving run, sealed; the summary's table pairs the runs as the second field report
    // does; the serial reference does not depend on the arrival order, batch-invariant kernels
    // make concurrency 4 give the serial bits, and another dtype does change outputs (so the
    // comparison can see a difference).
    void generationStudyRecordsTheTable() {
        QTemporaryDir dir;
        writeDataset(dir.filePath("data.jsonl"), 24);
        const QString study = dir.filePath("g.study.json");
        write(study,
              QStringLiteral(
                  "{\"name\":\"g\",\"model\":{\"path\":\"%1/tiny-llama\"},"
                  "\"heads\":{\"words\":{\"kind\":\"generation\",\"template\":\"Words: "
                  "{text}\\n\",\"max_new_tokens\":10,\"records\":{\"mode\":\"regex\","
                  "\"pattern\":\"(?<w>[a-z]+)\",\"reduction\":\"most_frequent\"}}},"
                  "\"dataset\":{\"path\":\"data.jsonl\"},\"configs\":{"
                  "\"serial\":{\"arrival_seed\":1},\"serial-reordered\":{\"arrival_seed\":2},"
                  "\"c4\":{\"concurrency\":4,\"arrival_seed\":1},"
                  "\"bf16-inv-serial\":{\"dtype\":\"bfloat16\",\"kernels\":\"batch_invariant\","
                  "\"arrival_seed\":1},"
                  "\"bf16-inv-c4\":{\"dtype\":\"bfloat16\",\"kernels\":\"batch_invariant\","
                  "\"concurrency\":4,\"arrival_seed\":1},"
                  "\"static-4\":{\"batch_size\":4,\"dtype\":\"bfloat16\"}},"
                  "\"reference\":\"serial\"}")
                  .arg(kFixtures)
                  .toUtf8());
        const Result r = cli({"run", study, "--all", "--events", "jsonl"});
        QVERIFY2(r.code == 0, r.out + r.err);
        const QString ledger = dir.filePath("g.ledger");
        QCOMPARE(runsOf(ledger).size(), 6);
        QCOMPARE(cli({"verify", ledger}).code, 0);
        // The serving runs report the scheduler's work.
        bool served = false;
        for (const auto& e : r.events) {
            if (e.value("event").toString() == "run-finished" &&
                e.value("config").toString() == "c4") {
                served = true;
                QCOMPARE(e.value("items_done").toInt(), 24);
                QVERIFY(e.value("serving").toObject().value("decode_steps").toInt() > 0);
                QCOMPARE(e.value("serving").toObject().value("max_resident").toInt(), 4);
            }
        }
        QVERIFY(served);
        const Result sum = cli({"summary", ledger, "--json"});
        QVERIFY2(sum.code == 0, sum.err);
        const QJsonObject table = QJsonDocument::fromJson(sum.out).object();
        QVERIFY(table.value("generation").toBool());
        QMap<QString, QJsonObject> rows;
        for (const auto& v : table.value("rows").toArray()) {
            rows[v.toObject().value("name").toString()] = v.toObject();
        }
        QVERIFY2(rows.contains("serial-reordered vs serial"), sum.out);
        QCOMPARE(rows["serial-reordered vs serial"].value("kind").toString(),
                 QStringLiteral("repeat"));
        QCOMPARE(rows["serial-reordered vs serial"].value("identical").toInt(), 24);
        QCOMPARE(rows["c4 vs serial"].value("kind").toString(), QStringLiteral("serving"));
        QCOMPARE(rows["bf16-inv-c4 vs bf16-inv-serial"].value("kind").toString(),
                 QStringLiteral("serving"));
        QCOMPARE(rows["bf16-inv-c4 vs bf16-inv-serial"].value("identical").toInt(), 24);
        QCOMPARE(rows["bf16-inv-c4 vs bf16-inv-serial"].value("pooled_jaccard").toDouble(), 1.0);
        const QJsonObject other = rows["static-4 vs serial"];
        QCOMPARE(other.value("kind").toString(), QStringLiteral("config"));
        QVERIFY2(other.value("identical").toInt() < 24, sum.out); // bf16 changes outputs
        // Every differing output is listed (identical ones are not).
        QCOMPARE(other.value("differing_items").toArray().size(),
                 24 - other.value("identical").toInt());
        // compare on two generation runs gives the same numbers as the table.
        const QJsonObject cmp =
            QJsonDocument::fromJson(
                cli({"compare", ledger, QString::number(other.value("run_a").toInt()),
                     QString::number(other.value("run_b").toInt()), "--json"})
                    .out)
                .object();
        QCOMPARE(cmp.value("identical").toInt(), other.value("identical").toInt());
        QCOMPARE(cmp.value("pooled_jaccard").toDouble(), other.value("pooled_jaccard").toDouble());
        // Recording the reference again adds a run-to-run line of the same config.
        QCOMPARE(cli({"run", study, "--config", "serial", "--again"}).code, 0);
        const QJsonObject again =
            QJsonDocument::fromJson(cli({"summary", ledger, "--json"}).out).object();
        bool twice = false;
        for (const auto& v : again.value("rows").toArray()) {
            if (v.toObject().value("name").toString() == "serial, run twice") {
                twice = true;
                QCOMPARE(v.toObject().value("identical").toInt(), 24);
            }
        }
        QVERIFY(twice);
        QVERIFY(cli({"summary", ledger}).out.contains("| serial, run twice | "));
        // The second field report's table, with the divergence rate per gap bin.
        const Result seed = cli({"summary", ledger, "--seed-tables"});
        QVERIFY2(seed.code == 0, seed.err);
        QVERIFY(seed.out.contains("## (c) Concurrency"));
        QVERIFY(seed.out.contains("| c4 vs serial | "));
        QVERIFY(seed.out.contains("| gap from | at divergence | all steps | divergence rate |"));
        // A regex the records cannot use is refused before anything runs.
        QFile f(study);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        write(study, text.replace("(?<w>[a-z]+)", "(?<w>[a-z"));
        const Result bad = cli({"run", study, "--config", "c4", "--again"});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("$.heads.words.records.pattern"), bad.err);
        QCOMPARE(runsOf(ledger).size(), 7);
    }

    // An engine generation head with top_logprobs records each step's top-K list, and compare
    // gives the per-token metrics for engine runs as for endpoint runs: another arrival order
    // of the serial reference is the same distribution (KL 0, same top token everywhere);
    // bfloat16 is not (the negative). Without top_logprobs there are no metrics.
    void engineGenerationHasTokenMetrics() {
        QTemporaryDir dir;
        writeDataset(dir.filePath("data.jsonl"), 12);
        const QString study = dir.filePath("t.study.json");
        write(study,
              QStringLiteral("{\"name\":\"t\",\"model\":{\"path\":\"%1/tiny-llama\"},"
                             "\"heads\":{\"words\":{\"kind\":\"generation\",\"template\":\"Words: "
                             "{text}\\n\",\"max_new_tokens\":8,\"top_logprobs\":4},"
                             "\"plain\":{\"kind\":\"generation\",\"template\":\"Words: "
                             "{text}\\n\",\"max_new_tokens\":8}},"
                             "\"dataset\":{\"path\":\"data.jsonl\"},\"configs\":{"
                             "\"serial\":{\"arrival_seed\":1},\"reordered\":{\"arrival_seed\":2},"
                             "\"bf16\":{\"dtype\":\"bfloat16\",\"arrival_seed\":1}},"
                             "\"reference\":\"serial\"}")
                  .arg(kFixtures)
                  .toUtf8());
        const Result r = cli({"run", study, "--all"});
        QVERIFY2(r.code == 0, r.out + r.err);
        const QString ledger = dir.filePath("t.ledger");
        QCOMPARE(cli({"verify", ledger}).code, 0);
        QMap<QString, int> run; // "head/config" -> run id
        for (const auto& v : runsOf(ledger)) {
            const QJsonObject o = v.toObject();
            run[o.value("head").toString() + "/" + o.value("config").toString()] =
                o.value("run").toInt();
        }
        QCOMPARE(run.size(), 6);
        const auto compare = [&](const QString& a, const QString& b) {
            const Result c = cli(
                {"compare", ledger, QString::number(run[a]), QString::number(run[b]), "--json"});
            return QJsonDocument::fromJson(c.out).object();
        };
        const QJsonObject same = compare("words/serial", "words/reordered");
        const QJsonObject tm = same.value("token_metrics").toObject();
        QVERIFY2(tm.value("positions").toInt() >= 12, QJsonDocument(same).toJson());
        QCOMPARE(tm.value("kl").toObject().value("max").toDouble(), 0.0);
        QCOMPARE(tm.value("top1_same").toObject().value("share").toDouble(), 1.0);
        QCOMPARE(tm.value("rms_dp_points").toDouble(), 0.0);
        const QJsonObject other =
            compare("words/serial", "words/bf16").value("token_metrics").toObject();
        QVERIFY(other.value("positions").toInt() > 0);
        QVERIFY2(other.value("kl").toObject().value("max").toDouble() > 0,
                 QJsonDocument(other).toJson());
        QVERIFY(other.value("rms_dp_points").toDouble() > 0);
        QVERIFY(!compare("plain/serial", "plain/bf16").contains("token_metrics"));
    }

    void killedRunResumesBitIdentical() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 1500);
        const QString ledger = dir.filePath("killed.ledger");
        const Result killed =
            runAndStop({"run", study, "--config", "b4", "--ledger", ledger, "--events", "jsonl"},
                       [](QProcess& p) { p.kill(); }); // SIGKILL
        QCOMPARE(killed.code, -1);
        QJsonArray runs = runsOf(ledger);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject().value("status").toString(), QStringLiteral("unfinished"));
        const int partial = runs[0].toObject().value("items_done").toInt();
        QVERIFY2(partial > 0 && partial < 1500, QByteArray::number(partial));
        QCOMPARE(partial % 4, 0); // whole batches only
        QCOMPARE(cli({"verify", ledger}).code, 0);

        const Result resumed =
            cli({"run", study, "--config", "b4", "--ledger", ledger, "--events", "jsonl"});
        QVERIFY2(resumed.code == 0, resumed.out + resumed.err);
        QCOMPARE(lastEvent(resumed, "started").value("run").toInt(), 1); // the same run, continued
        QCOMPARE(lastEvent(resumed, "started").value("resumed_items").toInt(), partial);
        QCOMPARE(runsOf(ledger).size(), 1);

        const QString clean = dir.filePath("clean.ledger");
        QCOMPARE(cli({"run", study, "--config", "b4", "--ledger", clean}).code, 0);
        const auto a = numerics(ledger, 1);
        const auto b = numerics(clean, 1);
        QCOMPARE(a.size(), 1500);
        QVERIFY(a == b); // every probability, logit, margin, layer hash and vector
        QCOMPARE(runsOf(ledger)[0].toObject().value("numerics_sha256").toString(),
                 runsOf(clean)[0].toObject().value("numerics_sha256").toString());
        QVERIFY(runsOf(ledger)[0].toObject().value("records_sha256") !=
                runsOf(clean)[0].toObject().value(
                    "records_sha256")); // wall times differ, and are sealed
        QCOMPARE(cli({"verify", ledger}).code, 0);
    }

    void signalFinishesTheBatchAndExits130_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void signalFinishesTheBatchAndExits130() {
        QFETCH(int, sig);
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 1500);
        const QString ledger = dir.filePath("t.ledger");
        const Result r = runAndStop({"run", study, "--config", "b4", "--events", "jsonl"},
                                    [sig](QProcess& p) { ::kill(pid_t(p.processId()), sig); });
        QCOMPARE(r.code, 130);
        const QJsonObject fin = lastEvent(r, "run-finished");
        QCOMPARE(fin.value("status").toString(), QStringLiteral("interrupted"));
        const QJsonObject run = runsOf(ledger)[0].toObject();
        QCOMPARE(run.value("status").toString(), QStringLiteral("interrupted"));
        QCOMPARE(run.value("items_done").toInt(),
                 fin.value("items_done").toInt()); // committed, all of it
        QCOMPARE(cli({"run", study, "--config", "b4"}).code, 0);
        QCOMPARE(runsOf(ledger)[0].toObject().value("status").toString(),
                 QStringLiteral("finished"));
    }

    void anotherEnvironmentStartsANewRun() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 1500);
        const QString ledger = dir.filePath("t.ledger");
        runAndStop({"run", study, "--config", "b4", "--events", "jsonl"},
                   [](QProcess& p) { p.kill(); });
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("OMP_DISPLAY_ENV",
                   "FALSE"); // a watched variable: a different environment fingerprint
        const Result r = cli({"run", study, "--config", "b4", "--events", "jsonl"}, env);
        QCOMPARE(r.code, 0);
        QCOMPARE(lastEvent(r, "started").value("run").toInt(), 2);
        QCOMPARE(lastEvent(r, "started").value("resumed_items").toInt(), 0);
        const QJsonArray runs = runsOf(ledger);
        QCOMPARE(runs[0].toObject().value("status").toString(), QStringLiteral("unfinished"));
        QVERIFY(runs[0].toObject().value("environment") != runs[1].toObject().value("environment"));
    }

    // The adapter file's digest is part of a run's head: a run recorded with one adapter is
    // not taken for a run of another file at the same path (one changed weight), and the same
    // file again is found recorded.
    void anAdapterChangeIsAnotherRun() {
        QTemporaryDir dir;
        const QString adapter = dir.filePath("adapter.safetensors");
        QVERIFY(QFile::copy(kFixtures + QStringLiteral("/adapters/tiny-bert-mean.safetensors"),
                            adapter));
        QFile::setPermissions(adapter, QFile::ReadOwner | QFile::WriteOwner);
        QString study = writeStudy(QDir(dir.path()), 12);
        QFile sf(study);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QByteArray text = sf.readAll();
        sf.close();
        text.replace(QByteArray(kFixtures.toUtf8() + "/adapters/tiny-bert-mean.safetensors"),
                     adapter.toUtf8());
        write(study, text);
        QCOMPARE(cli({"run", study, "--config", "ref"}).code, 0);
        const QByteArray before = fileSha(adapter);
        {
            QFile f(adapter);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(f.size() - 1)); // the last byte of the last weight
            char c = 0;
            QVERIFY(f.getChar(&c));
            QVERIFY(f.seek(f.size() - 1));
            QVERIFY(f.putChar(char(c ^ 1)));
        }
        QVERIFY(fileSha(adapter) != before);
        const Result changed = cli({"run", study, "--config", "ref", "--events", "jsonl"});
        QVERIFY2(changed.code == 0, changed.err.constData());
        QVERIFY2(lastEvent(changed, "skipped").isEmpty(), changed.out.constData());
        QCOMPARE(lastEvent(changed, "started").value("run").toInt(), 2);
        const Result same = cli({"run", study, "--config", "ref", "--events", "jsonl"});
        QCOMPARE(same.code, 0);
        QCOMPARE(lastEvent(same, "skipped").value("run").toInt(), 2);
        QCOMPARE(runsOf(dir.filePath("t.ledger")).size(), 2);
    }

    void fullDiskStopsAndResumes() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 600);
        const QString ledger = dir.filePath("t.ledger");
        QCOMPARE(cli({"run", study, "--config", "ref"}).code, 0); // a first, sealed run
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // SQLite refuses to grow the file past this: room for a part of the second run.
        env.insert("PROBAUDIT_LEDGER_MAX_PAGES",
                   QString::number(QFileInfo(ledger).size() / 4096 + 12));
        const Result full = cli({"run", study, "--config", "b4", "--events", "jsonl"}, env);
        QCOMPARE(full.code, 1);
        QVERIFY2(lastEvent(full, "error").value("message").toString().contains("the disk is full"),
                 full.out);
        QJsonArray runs = runsOf(ledger);
        QCOMPARE(runs.size(), 2);
        const QJsonObject cut = runs[1].toObject();
        QVERIFY(cut.value("status").toString() !=
                QStringLiteral("finished")); // never reported finished
        QVERIFY2(cut.value("items_done").toInt() > 0 && cut.value("items_done").toInt() < 600,
                 QByteArray::number(cut.value("items_done").toInt()));
        QCOMPARE(cut.value("items_done").toInt() % 4, 0);
        QCOMPARE(cli({"verify", ledger}).code, 0); // the sealed run is intact
        const Result resumed = cli({"run", study, "--config", "b4", "--events", "jsonl"});
        QCOMPARE(resumed.code, 0);
        QCOMPARE(lastEvent(resumed, "started").value("run").toInt(), 2);
        QCOMPARE(lastEvent(resumed, "started").value("resumed_items").toInt(),
                 cut.value("items_done").toInt());
        QCOMPARE(runsOf(ledger)[1].toObject().value("status").toString(),
                 QStringLiteral("finished"));
    }

    void secondWriterIsRefused() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 1500);
        Result second;
        runAndStop({"run", study, "--config", "b4", "--events", "jsonl"}, [&](QProcess& p) {
            ::kill(pid_t(p.processId()), SIGSTOP); // paused mid-run, still holding the ledger
            second = cli({"run", study, "--config", "ref"});
            p.kill();
        });
        QCOMPARE(second.code, 1);
        QVERIFY2(second.err.contains("being written by another run (process"), second.err);
    }

    void badInputLeavesTheLedgerAsItWas_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad dataset line") << "badline"
                                          << "data.jsonl: line 3: missing field \"text\"";
        QTest::newRow("invalid UTF-8 line") << "utf8"
                                            << "data.jsonl: line 2: not valid UTF-8";
        QTest::newRow("duplicate id") << "dup"
                                      << "line 4: duplicate id \"item-0\"";
        QTest::newRow("unknown axis value") << "axis"
                                            << "$.configs.b4.attention: unknown value \"flash\"";
        QTest::newRow("missing dataset") << "nodata"
                                         << "$.dataset.path: no such file or folder";
        QTest::newRow("dataset changed") << "changed"
                                         << "the study's items differ from the ones in this ledger";
    }
    void badInputLeavesTheLedgerAsItWas() {
        QFETCH(QString, change);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 20);
        const QString ledger = dir.filePath("t.ledger");
        QCOMPARE(cli({"run", study, "--config", "ref"}).code, 0);
        const QByteArray before = fileSha(ledger);
        const QString data = dir.filePath("data.jsonl");
        QFile f(data);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        f.close();
        if (change == "badline") {
            lines[2] = "{\"id\":\"x\"}";
        } else if (change == "utf8") {
            lines[1] = "{\"id\":\"y\",\"text\":\"caf\xe9\"}";
        } else if (change == "dup") {
            lines[3] = "{\"id\":\"item-0\",\"text\":\"twin\"}";
        } else if (change == "changed") {
            lines[5] = "{\"id\":\"item-5\",\"text\":\"edited text\"}";
        }
        write(data, lines.join('\n'));
        if (change == "axis") {
            QFile s(study);
            QVERIFY(s.open(QIODevice::ReadOnly));
            QByteArray text =
                s.readAll().replace("\"order_seed\":5", "\"order_seed\":5,\"attention\":\"flash\"");
            s.close();
            write(study, text);
        } else if (change == "nodata") {
            QFile::remove(data);
        }
        const Result r = cli({"run", study, "--all"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err);
        QCOMPARE(fileSha(ledger), before);
        if (change == "badline") { // --skip-bad-lines goes on, but not into a ledger of other items
            const Result skip = cli({"run", study, "--all", "--skip-bad-lines", "--ledger",
                                     dir.filePath("new.ledger"), "--events", "jsonl"});
            QCOMPARE(skip.code, 0);
            QVERIFY(lastEvent(skip, "warning").value("message").toString().contains("line 3"));
            QCOMPARE(runsOf(dir.filePath("new.ledger"))[0].toObject().value("items_total").toInt(),
                     19);
        }
    }

    void engineServesJsonLines() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 30);
        QProcess p;
        p.start(kCli, {"engine"});
        QVERIFY(p.waitForStarted());
        p.write("not json\n");
        const int n = 100000; // nested past the bound: refused, and the engine goes on
        p.write("{\"id\":9,\"method\":\"env\",\"params\":" + QByteArray(n, '[') +
                QByteArray(n, ']') + "}\n");
        p.write("{\"id\":1,\"method\":\"env\"}\n");
        p.write(QStringLiteral(
                    "{\"id\":2,\"method\":\"run\",\"params\":{\"study\":\"%1\",\"all\":true}}\n")
                    .arg(study)
                    .toUtf8());
        bool runDone = false;
        const QList<QJsonObject> events = eventsUntilResult(p, 2, &runDone);
        p.write("{\"id\":3,\"method\":\"shutdown\"}\n");
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(runDone);
        QCOMPARE(events[0].value("event").toString(), QStringLiteral("ready"));
        QCOMPARE(events[1].value("event").toString(),
                 QStringLiteral("error")); // the bad line, and it goes on
        QCOMPARE(events[2].value("event").toString(), QStringLiteral("error"));
        QVERIFY2(events[2].value("message").toString().contains("nested deeper than 128"),
                 qPrintable(events[2].value("message").toString()));
        QCOMPARE(events[3].value("id").toInt(), 1);
        QVERIFY(events[3].value("result").toObject().contains("torch"));
        int finished = 0;
        for (const auto& e : events) {
            finished += e.value("id").toInt() == 2 && e.value("event").toString() == "run-finished";
        }
        QCOMPARE(finished, 2);
        QCOMPARE(events.last().value("result").toObject().value("exit").toInt(), 0);
        QCOMPARE(runsOf(dir.filePath("t.ledger")).size(), 2);
    }

    // Requests the engine cannot take, before and during a run: each gets an error reply (with
    // its id where it has one) and the engine serves the next; the run is not disturbed.
    void engineRefusesBadRequestsAndServesOn() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 60);
        QProcess p;
        p.start(kCli, {"engine"});
        QVERIFY(p.waitForStarted());
        p.write("{\"id\":10,\"method\":5}\n"); // a method of the wrong type
        p.write("[1,2,3]\n");                  // not an object
        p.write("{\"id\":11,\"method\":\"diagnose\",\"params\":[1]}\n"); // params not an object
        p.write("{\"id\":12,\"method\":\"env\",\"pad\":\"" + QByteArray(17 << 20, 'x') +
                "\"}\n"); // a line over 16 MiB
        p.write(QStringLiteral(
                    "{\"id\":2,\"method\":\"run\",\"params\":{\"study\":\"%1\",\"all\":true}}\n")
                    .arg(study)
                    .toUtf8());
        p.write("{\"id\":13,\"method\":{\"x\":1}}\n"); // during the run
        // a sample that an int would wrap to 0, a study path that is no string
        p.write("{\"id\":15,\"method\":\"diagnose\",\"params\":{\"study\":\"s\","
                "\"sample\":1099511627776}}\n");
        p.write("{\"id\":16,\"method\":\"run\",\"params\":{\"study\":7}}\n");
        p.write("{\"id\":14,\"method\":\"frobnicate\"}\n");
        p.write("{\"id\":1,\"method\":\"env\"}\n");
        bool runDone = false;
        const QList<QJsonObject> events = eventsUntilResult(p, 2, &runDone);
        p.write("{\"id\":3,\"method\":\"shutdown\"}\n");
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(runDone);
        QMap<int, QString> errors;
        QStringList anonymous;
        bool env = false;
        for (const auto& e : events) {
            if (e.value("event").toString() == "error") {
                if (e.value("id").isDouble()) {
                    errors[e.value("id").toInt()] = e.value("message").toString();
                } else {
                    anonymous << e.value("message").toString();
                }
            }
            env = env || (e.value("id").toInt() == 1 && e.value("event").toString() == "result");
        }
        QVERIFY2(errors.value(10).contains("has no method"), qPrintable(errors.value(10)));
        QVERIFY2(errors.value(11).contains("malformed diagnose request"),
                 qPrintable(errors.value(11)));
        QVERIFY2(errors.value(13).contains("has no method"), qPrintable(errors.value(13)));
        QVERIFY2(errors.value(14).contains("unknown method"), qPrintable(errors.value(14)));
        QVERIFY2(errors.value(15).contains("params.sample must be an integer from 1 to 1000000"),
                 qPrintable(errors.value(15)));
        QVERIFY2(errors.value(16).contains("params.study must be a string"),
                 qPrintable(errors.value(16)));
        QCOMPARE(anonymous.size(), 2); // [1,2,3] and the long line, which has no id yet
        QVERIFY(anonymous.join('|').contains("has no method"));
        QVERIFY2(anonymous.join('|').contains("longer than 16 MiB"),
                 qPrintable(anonymous.join('|')));
        QVERIFY(env);
        QCOMPARE(events.last().value("result").toObject().value("exit").toInt(), 0);
        QCOMPARE(runsOf(dir.filePath("t.ledger")).size(), 2);
    }

    // A client that closes its end of the engine's output: the engine is not killed by SIGPIPE;
    // it ends when its input closes.
    void engineOutlivesAClosedOutput() {
        int fds[2];
        QVERIFY(::pipe2(fds, O_CLOEXEC) == 0);
        QProcess p;
        const int out = fds[1];
        p.setChildProcessModifier([out] { ::dup2(out, STDOUT_FILENO); }); // dup2 keeps it open
        p.start(kCli, {"engine"});
        QVERIFY(p.waitForStarted());
        ::close(fds[0]); // nobody reads the engine's output any more
        ::close(fds[1]);
        p.write("{\"id\":1,\"method\":\"env\"}\n{\"id\":2,\"method\":\"env\"}\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not signal 13
        QCOMPARE(p.exitCode(), 0);
    }

    void jobsRecordTheLedgerOfOneAtATime() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 120,
                                         ",\"b2\":{\"batch_size\":2},\"t2\":{\"threads\":2},"
                                         "\"left\":{\"batch_size\":4,\"padding_side\":\"left\"}");
        const QString serial = dir.filePath("serial.ledger");
        const QString jobs = dir.filePath("jobs.ledger");
        QCOMPARE(cli({"run", study, "--all", "--ledger", serial}).code, 0);
        const Result r =
            cli({"run", study, "--all", "--ledger", jobs, "--jobs", "3", "--events", "jsonl"});
        QVERIFY2(r.code == 0, r.out + r.err);
        QSet<int> finishedRuns;
        for (const auto& e : r.events) {
            const QString kind = e.value("event").toString();
            if (kind == "started" || kind == "progress") {
                QVERIFY(e.value("job").toString().endsWith("/5"));
                QVERIFY(!e.contains("run")); // the run has its id once imported
            }
            if (kind == "run-finished") {
                finishedRuns.insert(e.value("run").toInt());
            }
        }
        QCOMPARE(finishedRuns, (QSet<int>{1, 2, 3, 4, 5}));
        QCOMPARE(r.events.last().value("event").toString(), QStringLiteral("done"));
        // The same runs in the same order, every number the same; sealed again here.
        const QJsonArray a = runsOf(serial);
        const QJsonArray b = runsOf(jobs);
        QCOMPARE(b.size(), 5);
        QCOMPARE(b.size(), a.size());
        for (int i = 0; i < a.size(); ++i) {
            const QJsonObject x = a[i].toObject();
            const QJsonObject y = b[i].toObject();
            QCOMPARE(y.value("run").toInt(), i + 1);
            QCOMPARE(y.value("config").toString(), x.value("config").toString());
            QCOMPARE(y.value("status").toString(), QStringLiteral("finished"));
            QCOMPARE(y.value("environment").toString(), x.value("environment").toString());
            QCOMPARE(y.value("numerics_sha256").toString(), x.value("numerics_sha256").toString());
            QVERIFY(numerics(jobs, i + 1) == numerics(serial, i + 1));
        }
        QCOMPARE(cli({"verify", jobs}).code, 0);
        QVERIFY(!QFileInfo::exists(jobs + ".jobs")); // the job ledgers are gone once imported
        // A second invocation records nothing twice.
        const Result again =
            cli({"run", study, "--all", "--ledger", jobs, "--jobs", "3", "--events", "jsonl"});
        QVERIFY2(again.code == 0, again.out + again.err);
        int skipped = 0;
        for (const auto& e : again.events) {
            skipped += e.value("event").toString() == "skipped" ? 1 : 0;
            QVERIFY(e.value("event").toString() != "started");
        }
        QCOMPARE(skipped, 5);
        QCOMPARE(runsOf(jobs).size(), 5);
    }

    // Ctrl-C at a terminal signals the whole foreground group: only the parent may get it (a
    // job's engine dies on a second SIGINT). The order ref, t2, b2 under --jobs 2 starts ref and
    // b2 while t2 (two threads) waits: after the stop t2 never starts, b2 is still accounted for.
    void interruptedJobsResumeFromTheirJobLedgers() {
        QTemporaryDir dir;
        const QString study = writeStudy(
            QDir(dir.path()), 1500, ",\"t2\":{\"threads\":2},\"b2\":{\"batch_size\":2}", "hashes");
        const QString ledger = dir.filePath("jobs.ledger");
        const QStringList args{"run",    study,      "--config", "ref",      "--config",
                               "t2",     "--config", "b2",       "--ledger", ledger,
                               "--jobs", "2",        "--events", "jsonl"};
        // Stopped once both jobs have committed batches: a job whose engine is still loading
        // its model when the signal comes never starts its run, which says nothing here. The
        // tiny model runs 1500 items in a third of a second, so each batch lasts 2 ms longer
        // (the fault engine, tests/fault_engine.cpp): a job must not end before the signal.
        qputenv("PROBAUDIT_TEST_BATCH_DELAY_MS", "2");
        const auto bothJobsRunning = [](const Events& seen) {
            QSet<QString> running;
            for (const QJsonObject& e : seen) {
                if (e.value("event").toString() == "progress" && e.value("done").toInt() >= 40) {
                    running.insert(e.value("job").toString());
                }
            }
            return running.size() == 2;
        };
        const Result r = runAndStop(
            args, [](QProcess& p) { ::kill(-pid_t(p.processId()), SIGINT); }, // the group
            bothJobsRunning, kFaultEngine);
        qunsetenv("PROBAUDIT_TEST_BATCH_DELAY_MS");
        QCOMPARE(r.code, 130);
        int interrupted = 0;
        for (const auto& e : r.events) {
            QVERIFY2(e.value("event").toString() != "error",
                     qPrintable(e.value("message").toString()));
            interrupted += e.value("event").toString() == "run-finished" &&
                           e.value("status").toString() == "interrupted";
            if (e.value("event").toString() == "started") {
                QVERIFY(e.value("config").toString() != "t2"); // never started after the stop
            }
        }
        QCOMPARE(interrupted, 2); // both jobs stopped after a batch, neither killed
        QVERIFY(QFileInfo::exists(ledger + ".jobs")); // the cut-off jobs keep what they did
        QCOMPARE(runsOf(ledger).size(), 0);

        const Result resumed = cli(args);
        QVERIFY2(resumed.code == 0, resumed.out + resumed.err);
        int resumedItems = 0;
        for (const auto& e : resumed.events) {
            resumedItems +=
                e.value("event").toString() == "started" ? e.value("resumed_items").toInt() : 0;
        }
        QVERIFY(resumedItems > 0); // continued from the job ledgers, not started again
        const QString serial = dir.filePath("serial.ledger");
        QCOMPARE(cli({"run", study, "--config", "ref", "--config", "t2", "--config", "b2",
                      "--ledger", serial})
                     .code,
                 0);
        const QJsonArray a = runsOf(serial);
        const QJsonArray b = runsOf(ledger);
        QCOMPARE(b.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(b[i].toObject().value("config").toString(),
                     a[i].toObject().value("config").toString());
            QCOMPARE(b[i].toObject().value("numerics_sha256").toString(),
                     a[i].toObject().value("numerics_sha256").toString());
        }
        QVERIFY(!QFileInfo::exists(ledger + ".jobs"));
    }

    // A job that fails stops new ones from starting; the finished ones are imported in order.
    void aFailedJobStopsTheRestAndKeepsTheFinished() {
        QTemporaryDir dir;
        // Padded to exactly 3 tokens: every item is longer, the config's run fails at once
        // (while ref, with 600 items, still runs).
        const QString study = writeStudy(QDir(dir.path()), 600,
                                         ",\"short\":{\"pad_to\":\"fixed\",\"pad_to_n\":3},"
                                         "\"b2\":{\"batch_size\":2}",
                                         "hashes");
        const QString ledger = dir.filePath("j.ledger");
        const Result r =
            cli({"run", study, "--config", "ref", "--config", "short", "--config", "b4", "--config",
                 "b2", "--ledger", ledger, "--jobs", "2", "--events", "jsonl"});
        QCOMPARE(r.code, 1);
        bool named = false;
        for (const auto& e : r.events) {
            const QString kind = e.value("event").toString();
            named = named ||
                    (kind == "error" && e.value("message").toString().startsWith("config short: "));
            if (kind == "started") {
                QVERIFY2(e.value("config").toString() == "ref" ||
                             e.value("config").toString() == "short",
                         qPrintable(e.value("config").toString())); // nothing after the failure
            }
        }
        QVERIFY(named);
        const QJsonArray runs = runsOf(ledger);
        QCOMPARE(runs.size(), 1); // ref, finished and imported
        QCOMPARE(runs[0].toObject().value("config").toString(), QStringLiteral("ref"));
        QCOMPARE(runs[0].toObject().value("status").toString(), QStringLiteral("finished"));
        QCOMPARE(cli({"verify", ledger}).code, 0);
        // In terminal form the error is one line naming the config.
        const Result t = cli({"run", study, "--config", "short", "--config", "b2", "--ledger",
                              dir.filePath("t.ledger"), "--jobs", "2"});
        QCOMPARE(t.code, 1);
        QVERIFY2(t.err.contains("error: config short:"), t.err);
    }

    // The engine of another CPU capability dies of a signal mid-run: the run says which
    // signal (it could not say so itself) and keeps its finished batches.
    void aCrashedCapabilityEngineSaysSo() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), 400,
                       ",\"generic\":{\"cpu_capability\":\"default\",\"batch_size\":4}");
        const Result r =
            runAndStop({"run", study, "--config", "generic", "--events", "jsonl"}, [](QProcess& p) {
                // The child engine: a child of `probaudit run`, found by its parent's pid.
                const QString task = QStringLiteral("/proc/%1/task").arg(p.processId());
                for (const QString& tid : QDir(task).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                    QFile f(task + "/" + tid + "/children");
                    if (f.open(QIODevice::ReadOnly)) {
                        for (const QByteArray& pid : f.readAll().split(' ')) {
                            if (pid.trimmed().toInt() > 0) {
                                ::kill(pid.trimmed().toInt(), SIGSEGV);
                            }
                        }
                    }
                }
            });
        QCOMPARE(r.code, 1);
        const QString message = lastEvent(r, "error").value("message").toString();
        QVERIFY2(message.contains("config generic") && message.contains("killed by signal 11"),
                 qPrintable(message + r.err));
        const QJsonObject run = runsOf(dir.filePath("t.ledger"))[0].toObject();
        QVERIFY(run.value("items_done").toInt() > 0);
        QCOMPARE(cli({"verify", dir.filePath("t.ledger")}).code, 0);
    }

    void configWithAnotherCpuCapabilityRunsInItsOwnProcess() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), 12, ",\"generic\":{\"cpu_capability\":\"default\"}");
        const Result r = cli({"run", study, "--config", "generic", "--events", "jsonl"});
        QVERIFY2(r.code == 0, r.out + r.err);
        QCOMPARE(lastEvent(r, "run-finished").value("status").toString(),
                 QStringLiteral("finished"));
        const QString ledger = dir.filePath("t.ledger");
        QCOMPARE(cli({"verify", ledger}).code, 0);
        // The run's stored environment says which kernels ran.
        const QJsonObject run = runsOf(ledger)[0].toObject();
        QCOMPARE(run.value("config").toString(), QStringLiteral("generic"));
        QCOMPARE(run.value("status").toString(), QStringLiteral("finished"));
        QCOMPARE(run.value("capability").toString(), QStringLiteral("DEFAULT"));
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "test_runner.moc"
