// The ledger: records round-trip bit for bit, the hash chain finds edits, the schema guards,
// one writer at a time, a full disk loses nothing already committed.
#include "core/common/error.h"
#include "core/ledger/ledger.h"
#include "ledger_samples.h"

#include <sqlite3.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <sys/stat.h>

using namespace probaudit;
using ledger::Ledger;
using ledger::Record;
using namespace probaudit::testing;

namespace {

int pageCount(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, nullptr);
    sqlite3_step(st);
    const int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestLedger : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsRoundTripBitForBit() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.ledger").toStdString();
        std::int64_t run = 0;
        {
            Ledger led(path, Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(10));
            run = recordRun(led, "c1", 10, 1);
        }
        const Ledger led(path, Ledger::Mode::Read);
        QCOMPARE(led.schemaVersion(), ledger::kSchemaVersion);
        QCOMPARE(led.items().size(), std::size_t(10));
        QCOMPARE(led.items()[3].label.value(), 1);
        const auto recs = led.records(run);
        QCOMPARE(recs.size(), std::size_t(10));
        for (const Record& r : recs) {
            const Record want = someRecord(r.item, 3, 4, 1);
            QCOMPARE(std::memcmp(r.probs.data(), want.probs.data(), 8), 0);
            QCOMPARE(std::memcmp(r.logits.data(), want.logits.data(), 8), 0);
            QCOMPARE(std::memcmp(&r.margin, &want.margin, 4), 0);
            QCOMPARE(r.layer_hashes, want.layer_hashes);
            QCOMPARE(r.layer_vectors, want.layer_vectors);
            QCOMPARE(r.hidden, want.hidden);
            QCOMPARE(r.batch, want.batch);
        }
        const auto info = led.run(run);
        QCOMPARE(info.status, ledger::RunStatus::Finished);
        QCOMPARE(info.records_sha256.size(), std::size_t(64));
        QCOMPARE(info.seal_version, 2);
        const auto v = led.verify();
        QVERIFY(v.ok);
        // The links before the run seal the study, its items and the run's config and
        // environment; the run links to the last of them.
        QVERIFY(*info.chain_seq > 1);
        QCOMPARE(info.prev_sha256, v.chain[std::size_t(*info.chain_seq - 2)].sha256);
        QCOMPARE(v.state_links + v.sealed, std::int64_t(v.chain.size()));
        QCOMPARE(*v.head, led.head().value());
    }

    // A record without finite logits (an engine's NaN, a server's failed reply) has no margin:
    // SQLite cannot hold NaN, so it is stored as 0 and read back as NaN; a margin written into
    // such a row afterwards is an edit verify finds.
    void nonFiniteRecordsKeepNoMargin() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.ledger").toStdString();
        std::int64_t run = 0;
        {
            Ledger led(path, Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(2));
            led.putConfig("c1", "c1", nlohmann::json::object());
            run = led.beginRun("h", nlohmann::json{{"kind", "label_tokens"}}, "c1", "c1",
                               led.putEnvironment(nlohmann::json{{"kind", "endpoint"}}), "none", 2);
            Record failed;
            failed.item = 0;
            failed.probs = {NAN, NAN};
            failed.logits = {NAN, NAN};
            failed.decision = -1;
            failed.margin = NAN;
            failed.nonfinite = true;
            Record bad = failed;
            bad.item = 1;
            bad.nonfinite = false; // a NaN margin with finite logits: refused, nothing written
            QVERIFY(
                errorOf([&] { led.appendBatch(run, {bad}); }).contains(QStringLiteral("margin")));
            QCOMPARE(led.recordedItems(run).size(), std::size_t(0));
            Record ok = failed;
            ok.item = 1;
            ok.probs = {0.25f, 0.75f};
            ok.logits = {-1.5f, -0.4f};
            ok.decision = 1;
            ok.margin = 1.1f;
            ok.nonfinite = false;
            led.appendBatch(run, {failed, ok});
            led.finishRun(run);
        }
        {
            const Ledger led(path, Ledger::Mode::Read);
            const auto recs = led.records(run, false);
            QVERIFY(std::isnan(recs[0].margin) && recs[0].nonfinite && recs[0].decision == -1);
            QCOMPARE(recs[1].margin, 1.1f);
            QVERIFY(led.verify().ok);
        }
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        QCOMPARE(sqlite3_exec(db, "UPDATE records SET margin = 2.5 WHERE item = 0", nullptr,
                              nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        const auto v = Ledger(path, Ledger::Mode::Read).verify();
        QVERIFY(!v.ok);
        QVERIFY2(QString::fromStdString(v.problem).contains(QStringLiteral("margin")),
                 v.problem.c_str());
    }

    void verifyNamesTheEditedRun_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<int>("badRun");
        QTest::addColumn<QString>("problem");
        QTest::newRow("a probability")
            << "UPDATE records SET probs = x'0000803e0000403f' WHERE run = 2 AND item = 3" << 2
            << "records changed";
        QTest::newRow("a layer hash")
            << "UPDATE layers SET hashes = zeroblob(32) WHERE run = 3 AND item = 0" << 3
            << "records changed";
        QTest::newRow("a decision") << "UPDATE records SET decision = 0 WHERE run = 1 AND item = 7"
                                    << 1 << "records changed";
        QTest::newRow("a deleted record")
            << "DELETE FROM records WHERE run = 2 AND item = 9" << 2 << "records changed";
        QTest::newRow("the run's config")
            << "UPDATE configs SET json = '{\"batch_size\":8}' WHERE hash = 'c3'" << 3
            << "configuration or environment changed";
        // The link after run 2 is the seal of config c3 (no run: -1).
        QTest::newRow("a removed run")
            << "DELETE FROM records WHERE run = 2; DELETE FROM layers WHERE run = 2; "
               "DELETE FROM runs WHERE id = 2"
            << -1 << "chain is broken";
        QTest::newRow("a status") << "UPDATE runs SET status = 'failed' WHERE id = 1" << 1
                                  << "status was changed";
    }
    void verifyNamesTheEditedRun() {
        QFETCH(QString, edit);
        QFETCH(int, badRun);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(12));
            for (int i = 1; i <= 3; ++i) {
                recordRun(led, "c" + std::to_string(i), 12, std::uint64_t(i));
            }
            recordRun(led, "c4", 12, 4, false); // unfinished: not sealed, not checked
        }
        {
            const auto v = Ledger(path.toStdString(), Ledger::Mode::Read).verify();
            QVERIFY(v.ok);
            QCOMPARE(v.sealed, std::int64_t(3));
            QCOMPARE(v.unsealed, std::vector<std::int64_t>{4});
        }
        sql(path, edit.toUtf8().constData());
        const auto v = Ledger(path.toStdString(), Ledger::Mode::Read).verify();
        QVERIFY(!v.ok);
        QCOMPARE(v.first_bad, badRun < 0 ? std::nullopt : std::optional<std::int64_t>(badRun));
        QVERIFY2(QString::fromStdString(v.problem).contains(problem), v.problem.c_str());
    }

    void newerSchemaIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        { Ledger led(path.toStdString(), Ledger::Mode::Write); }
        sql(path, "PRAGMA user_version = 99");
        for (auto mode : {Ledger::Mode::Read, Ledger::Mode::Write}) {
            const QString msg = errorOf([&] { Ledger(path.toStdString(), mode); });
            QVERIFY2(msg.contains("schema version 99, newer than this ProbAudit's"),
                     qPrintable(msg));
        }
        QFile f(dir.filePath("not.ledger"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "this is not a database at all, just some text long enough to look like a header....");
        f.close();
        QVERIFY(errorOf([&] {
                    Ledger(dir.filePath("not.ledger").toStdString(), Ledger::Mode::Read);
                }).contains("not a ledger"));
    }

    // A FIFO (a shard given to merge, a ledger to verify) would block the open, a directory is
    // no ledger: both are refused at once, for reading and for writing, in one sentence.
    void nonRegularFilesAreRefused() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("shard.ledger"));
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        for (const QString& path : {fifo, dir.path()}) {
            for (auto mode : {Ledger::Mode::Read, Ledger::Mode::Write}) {
                const QString msg = errorOf([&] { Ledger(path.toStdString(), mode); });
                QVERIFY2(msg.contains("is not a regular file"), qPrintable(msg));
            }
        }
    }

    // Another program's SQLite database is refused before anything is written to it (no
    // schema migrated in, no journal mode changed); an empty file becomes a ledger.
    void foreignDatabaseIsRefusedUntouched() {
        QTemporaryDir dir;
        for (const char* version : {"0", "3"}) {
            const QString path = dir.filePath(QStringLiteral("foreign-%1.db").arg(version));
            sql(path, (std::string("CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('mine'); "
                                   "PRAGMA user_version = ") +
                       version)
                          .c_str());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray before = f.readAll();
            f.close();
            for (auto mode : {Ledger::Mode::Write, Ledger::Mode::Read}) {
                const QString msg = errorOf([&] { Ledger(path.toStdString(), mode); });
                QVERIFY2(msg.contains("not a ProbAudit ledger"), qPrintable(msg));
            }
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
            QVERIFY(!QFile::exists(path + "-wal"));
        }
        const QString empty = dir.filePath("empty.ledger");
        QFile f(empty);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        Ledger led(empty.toStdString(), Ledger::Mode::Write);
        QCOMPARE(led.schemaVersion(), ledger::kSchemaVersion);
    }

    // A ledger written by schema 1 (tests/fixtures/ledgers/v1, made with the schema-1 engine):
    // reading asks for the migration, writing migrates it, seals stay valid.
    void olderSchemaMigratesForward() {
        QTemporaryDir dir;
        const QString path = dir.filePath("v1.ledger");
        QVERIFY(QFile::copy(
            QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/ledgers/v1/v1.ledger"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const QString msg = errorOf([&] { Ledger(path.toStdString(), Ledger::Mode::Read); });
        QVERIFY2(msg.contains("schema version 1, older than") && msg.contains("probaudit migrate"),
                 qPrintable(msg));
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            QCOMPARE(led.schemaVersion(), ledger::kSchemaVersion);
        }
        const Ledger led(path.toStdString(), Ledger::Mode::Read);
        const auto runs = led.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QVERIFY(runs[0].kind == RunKind::Study);
        QCOMPARE(runs[0].status, ledger::RunStatus::Finished);
        QCOMPARE(led.records(runs[1].id).size(), std::size_t(6));
        const auto v = led.verify();
        QVERIFY2(v.ok, v.problem.c_str());
        QCOMPARE(v.sealed, std::int64_t(2));
    }

    void readOnlyLedgerIsRefusedForWriting() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(4));
            recordRun(led, "c1", 4, 1);
        }
        QVERIFY(::chmod(path.toUtf8().constData(), 0444) == 0); // refused even for root
        const QString msg = errorOf([&] { Ledger(path.toStdString(), Ledger::Mode::Write); });
        QVERIFY2(msg.contains("read-only"), qPrintable(msg));
        QCOMPARE(Ledger(path.toStdString(), Ledger::Mode::Read).runs().size(), std::size_t(1));
    }

    void secondWriterIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.ledger").toStdString();
        Ledger first(path, Ledger::Mode::Write);
        const QString msg = errorOf([&] { Ledger(path, Ledger::Mode::Write); });
        QVERIFY2(msg.contains("being written by another run (process " +
                              QString::number(::getpid()) + ")"),
                 qPrintable(msg));
        // Readers are welcome while it writes.
        first.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(4));
        const auto run = recordRun(first, "c1", 4, 1, false);
        const auto runs = Ledger(path, Ledger::Mode::Read).runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].id, run);
        QVERIFY(runs[0].writer_alive);
    }

    void fullDiskKeepsCommittedBatches() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("a.ledger").toStdString();
        {
            Ledger led(path, Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(400));
            recordRun(led, "c1", 400, 1);
        }
        const int pages = pageCount(path);
        qputenv("PROBAUDIT_LEDGER_MAX_PAGES", QByteArray::number(pages + 3));
        std::int64_t run = 0;
        QString msg;
        {
            Ledger led(path, Ledger::Mode::Write);
            led.putConfig("c2", "c2", nlohmann::json::object());
            run = led.beginRun("h", nlohmann::json{{"kind", "classifier"}}, "c2", "c2",
                               led.putEnvironment(nlohmann::json{{"cpu", "test"}}), "vectors", 400);
            std::int64_t committed = 0;
            msg = errorOf([&] {
                for (int b = 0; b < 400; b += 4) {
                    std::vector<Record> batch;
                    for (int i = b; i < b + 4; ++i) {
                        batch.push_back(someRecord(i, 3, 4, 2));
                    }
                    led.appendBatch(run, batch);
                    committed += 4;
                }
            });
            QVERIFY(committed < 400);
            QVERIFY(committed > 0); // the batches before the full disk are the point of the test
        }
        qunsetenv("PROBAUDIT_LEDGER_MAX_PAGES");
        QVERIFY2(msg.contains("the disk is full"), qPrintable(msg));
        const Ledger led(path, Ledger::Mode::Read);
        QVERIFY(led.verify().ok); // the sealed run is intact
        const auto info = led.run(run);
        QCOMPARE(info.status, ledger::RunStatus::Running); // unfinished, never reported finished
        const auto recs = led.records(run);
        QCOMPARE(std::int64_t(recs.size()), info.items_done); // whole batches only
        QCOMPARE(recs.size() % 4, std::size_t(0));
    }

    // Generation outputs round-trip, are sealed with the run (an edit is found), and a bundle
    // import reproduces the seal.
    void generationOutputsAreSealed() {
        QTemporaryDir dir;
        const QString path = dir.filePath("g.ledger");
        std::vector<ledger::GenerationRecord> outs(3);
        for (int i = 0; i < 3; ++i) {
            auto& g = outs[std::size_t(i)];
            g.item = i;
            g.prompt_tokens = 9 + i;
            g.text = "good\nfine " + std::to_string(i);
            g.finish = i == 2 ? "length" : "eos";
            g.arrival = 2 - i;
            g.tokens = {17, 4, 99 + i};
            g.logits = {12.5f, std::nextafter(3.0f, 4.0f), -1.0f};
            g.gaps = {0.25f, 0.0f, 1e-5f};
            g.batch = {4, 3, 1};
        }
        outs[0].top_tokens = {17, 5, 4, 6, 99, 98}; // top-2 per step (an engine head's, schema 7)
        outs[0].top_logprobs = {-0.125f, -2.5f, -0.25f, -1.5f, -0.0625f, -4.0f};
        std::int64_t run = 0;
        std::string sealed;
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "g"}}, "abc", someItems(3));
            led.putConfig("c1", "serial", nlohmann::json{{"concurrency", 1}});
            const std::string env = led.putEnvironment(nlohmann::json{{"cpu", "test"}});
            run = led.beginRun("w", nlohmann::json{{"kind", "generation"}}, "serial", "c1", env,
                               "hashes", 3);
            led.appendGenerations(run, {outs[2], outs[0]});
            QCOMPARE(led.recordedItems(run), (std::vector<std::int64_t>{0, 2}));
            QVERIFY_THROWS_EXCEPTION(Error, led.finishRun(run)); // one output missing
            led.appendGenerations(run, {outs[1]});
            led.finishRun(run);
            QCOMPARE(led.run(run).items_done, std::int64_t(3));
            const auto back = led.generations(run);
            QCOMPARE(back.size(), std::size_t(3));
            for (std::size_t i = 0; i < 3; ++i) { // in item order, every field as written
                QCOMPARE(back[i].item, outs[i].item);
                QCOMPARE(back[i].prompt_tokens, outs[i].prompt_tokens);
                QCOMPARE(back[i].text, outs[i].text);
                QCOMPARE(back[i].finish, outs[i].finish);
                QCOMPARE(back[i].arrival, outs[i].arrival);
                QCOMPARE(back[i].tokens, outs[i].tokens);
                QCOMPARE(std::memcmp(back[i].logits.data(), outs[i].logits.data(), 12), 0);
                QCOMPARE(std::memcmp(back[i].gaps.data(), outs[i].gaps.data(), 12), 0);
                QCOMPARE(back[i].batch, outs[i].batch);
                QCOMPARE(back[i].top_tokens, outs[i].top_tokens);
                QCOMPARE(back[i].top_logprobs, outs[i].top_logprobs);
            }
            QVERIFY(led.records(run).empty());
            QVERIFY(led.verify().ok);
            sealed = led.run(run).records_sha256;
            QCOMPARE(led.run(run).numerics_sha256, sealed); // no wall times in an output
            // Another output would give another seal.
            const auto other = led.beginRun("w", nlohmann::json{{"kind", "generation"}}, "serial",
                                            "c1", env, "hashes", 3);
            auto changed = outs;
            changed[1].batch[0] = 2; // only the hidden input differs
            led.appendGenerations(other, changed);
            led.finishRun(other);
            QVERIFY(led.run(other).records_sha256 != sealed);
            // ... and so would another top-K list.
            const auto third = led.beginRun("w", nlohmann::json{{"kind", "generation"}}, "serial",
                                            "c1", env, "hashes", 3);
            changed = outs;
            changed[0].top_logprobs[5] = -4.5f;
            led.appendGenerations(third, changed);
            led.finishRun(third);
            QVERIFY(led.run(third).records_sha256 != sealed);
        }
        {
            const QString copy = dir.filePath("copy.ledger");
            Ledger source(path.toStdString(), Ledger::Mode::Read);
            Ledger target(copy.toStdString(), Ledger::Mode::Write);
            target.initStudy(nlohmann::json{{"name", "g"}}, "abc", someItems(3));
            const auto mine = target.importRun(source, run);
            QCOMPARE(target.run(mine).records_sha256, sealed);
            QCOMPARE(target.generations(mine).size(), std::size_t(3));
            QCOMPARE(target.generations(mine)[0].top_tokens, outs[0].top_tokens);
        }
        {
            // Top-K lists that do not fit the steps are refused when read, with what is wrong.
            const QString copy = dir.filePath("copy.ledger");
            sql(copy, "UPDATE generations SET top_logprobs = NULL WHERE item = 0");
            const Ledger target(copy.toStdString(), Ledger::Mode::Read);
            try {
                target.generations(target.runs().front().id);
                QFAIL("a top-K list without its log-probabilities was read");
            } catch (const Error& e) {
                QVERIFY2(std::string(e.what()).find("top-K") != std::string::npos, e.what());
            }
        }
        sql(path, "UPDATE generations SET text = 'bad' WHERE item = 1 AND run = 1");
        const Ledger led(path.toStdString(), Ledger::Mode::Read);
        const auto v = led.verify();
        QVERIFY(!v.ok);
        QCOMPARE(v.first_bad, std::optional<std::int64_t>(run));
        QVERIFY2(v.problem.find("records changed") != std::string::npos, v.problem.c_str());
    }

    // An import that fails part way (here the disk fills while its records go in) leaves the
    // target as it was: no orphan run row, no records; with room, the same import lands whole.
    void aFailedImportLeavesNoTrace() {
        QTemporaryDir dir;
        const std::string src = dir.filePath("src.ledger").toStdString();
        const std::string dst = dir.filePath("dst.ledger").toStdString();
        std::int64_t run = 0;
        {
            Ledger led(src, Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(400));
            run = recordRun(led, "c1", 400, 1);
        }
        {
            Ledger led(dst, Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(400));
        }
        qputenv("PROBAUDIT_LEDGER_MAX_PAGES", QByteArray::number(pageCount(dst) + 3));
        QString msg;
        {
            const Ledger source(src, Ledger::Mode::Read);
            Ledger target(dst, Ledger::Mode::Write);
            msg = errorOf([&] { target.importRun(source, run); });
        }
        qunsetenv("PROBAUDIT_LEDGER_MAX_PAGES");
        QVERIFY2(msg.contains("the disk is full"), qPrintable(msg));
        {
            const Ledger target(dst, Ledger::Mode::Read);
            QVERIFY(target.runs().empty());
            QVERIFY(target.verify().ok);
        }
        const Ledger source(src, Ledger::Mode::Read);
        Ledger target(dst, Ledger::Mode::Write);
        const auto mine = target.importRun(source, run);
        QCOMPARE(target.run(mine).records_sha256, source.run(run).records_sha256);
        QCOMPARE(target.records(mine).size(), std::size_t(400));
    }

    // atomically(): everything inside, nested units included, lands or nothing does.
    void atomicallyIsAllOrNothing() {
        QTemporaryDir dir;
        Ledger led(dir.filePath("a.ledger").toStdString(), Ledger::Mode::Write);
        const QString msg = errorOf([&] {
            led.atomically([&] {
                led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(8));
                led.atomically([&] { recordRun(led, "c1", 8, 1); });
                throw Error("test", "stop here");
            });
        });
        QVERIFY(msg.contains("stop here"));
        QVERIFY(!led.hasStudy());
        QVERIFY(led.runs().empty());
        led.atomically([&] {
            led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(8));
            led.atomically([&] { recordRun(led, "c1", 8, 1); });
        });
        QVERIFY(led.hasStudy());
        QCOMPARE(led.runs().size(), std::size_t(1));
        QVERIFY(led.verify().ok);
    }

    void finishingAnIncompleteRunIsRefused() {
        QTemporaryDir dir;
        Ledger led(dir.filePath("a.ledger").toStdString(), Ledger::Mode::Write);
        led.initStudy(nlohmann::json{{"name", "s"}}, "abc", someItems(8));
        led.putConfig("c", "c", nlohmann::json::object());
        const auto run = led.beginRun("h", nlohmann::json::object(), "c", "c",
                                      led.putEnvironment({{"x", 1}}), "hashes", 8);
        led.appendBatch(run, {someRecord(0, 2, 0, 0)});
        QVERIFY(errorOf([&] { led.finishRun(run); }).contains("has 1 of 8 records"));
        QCOMPARE(led.run(run).status, ledger::RunStatus::Running);
    }
};

QTEST_APPLESS_MAIN(TestLedger)
#include "test_ledger.moc"
