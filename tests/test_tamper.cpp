// Tamper evidence: a one-bit edit of any stored value in any table is found by verify; a ledger
// edited and sealed again with the public algorithm is found by a recorded head and by a
// signature; rows that cannot be parsed are reported as tampered, never thrown.
#include "core/common/error.h"
#include "core/ledger/ledger.h"
#include "core/ledger/signing.h"
#include "core/ledger/trust.h"
#include "ledger_samples.h"

#include <sqlite3.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace probaudit;
using namespace probaudit::testing;
using ledger::Ledger;

namespace {

// One stored value: a table, the primary key of its row, a column.
struct Cell {
    std::string table, column, where; // where: "pk1 = ? AND pk2 = ?"
    std::vector<std::string> key;     // the key values as text (SQLite compares by affinity)
};

std::vector<std::string> columnsOf(sqlite3* db, const std::string& table,
                                   std::vector<std::string>& pk) {
    std::vector<std::string> cols;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, ("PRAGMA table_info(" + table + ")").c_str(), -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
        cols.push_back(name);
        if (sqlite3_column_int(st, 5) > 0) {
            pk.push_back(name);
        }
    }
    sqlite3_finalize(st);
    return cols;
}

// Every non-NULL, non-empty value of every table that carries data, except the rows of runs that
// are not sealed yet (a run in progress changes by design) and the signatures (checked by trust).
std::vector<Cell> everyCell(const QString& path) {
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    std::vector<Cell> cells;
    for (const char* table :
         {"meta", "study", "items", "configs", "environments", "runs", "records", "layers",
          "generations", "requests", "diagnoses", "seals"}) {
        std::vector<std::string> pk;
        const auto cols = columnsOf(db, table, pk);
        std::string where, keys;
        for (const auto& k : pk) {
            where += (where.empty() ? "" : " AND ") + k + " = ?";
            keys += (keys.empty() ? "" : ", ") + k;
        }
        const std::string runCol = std::string(table) == "runs" ? "id" : "run";
        const bool perRun = std::find(cols.begin(), cols.end(), runCol) != cols.end() &&
                            std::string(table) != "seals";
        for (const auto& c : cols) {
            const std::string sql = "SELECT " + keys + " FROM " + table + " WHERE " + c +
                                    " IS NOT NULL AND length(" + c + ") > 0" +
                                    (perRun ? " AND " + runCol +
                                                  " IN (SELECT id FROM runs WHERE status = "
                                                  "'finished')"
                                            : "");
            sqlite3_stmt* st = nullptr;
            QString err;
            if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
                qFatal("%s: %s", sql.c_str(), sqlite3_errmsg(db));
            }
            while (sqlite3_step(st) == SQLITE_ROW) {
                Cell cell{table, c, where, {}};
                for (int i = 0; i < int(pk.size()); ++i) {
                    cell.key.push_back(reinterpret_cast<const char*>(sqlite3_column_text(st, i)));
                }
                cells.push_back(std::move(cell));
            }
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
    return cells;
}

// Flips one bit of the cell's value, keeping its type: bit `bit` of an integer, the lowest
// mantissa bit of a real, bit 0 of the last byte of a text or a blob (of the first byte when
// `bit` is not 0). False when the edited
// value breaks a constraint (a key that collides), so the caller tries another bit.
bool flipOneBit(const QString& path, const Cell& cell, int bit) {
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt* get = nullptr;
    const std::string select =
        "SELECT " + cell.column + " FROM " + cell.table + " WHERE " + cell.where;
    sqlite3_prepare_v2(db, select.c_str(), -1, &get, nullptr);
    for (int i = 0; i < int(cell.key.size()); ++i) {
        sqlite3_bind_text(get, i + 1, cell.key[std::size_t(i)].c_str(), -1, SQLITE_TRANSIENT);
    }
    if (sqlite3_step(get) != SQLITE_ROW) {
        qFatal("%s: no row", select.c_str());
    }
    sqlite3_stmt* put = nullptr;
    const std::string update =
        "UPDATE " + cell.table + " SET " + cell.column + " = ? WHERE " + cell.where;
    sqlite3_prepare_v2(db, update.c_str(), -1, &put, nullptr);
    const int type = sqlite3_column_type(get, 0);
    if (type == SQLITE_INTEGER) {
        sqlite3_bind_int64(put, 1, sqlite3_column_int64(get, 0) ^ (std::int64_t(1) << bit));
    } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_column_double(get, 0);
        std::uint64_t bits = 0;
        std::memcpy(&bits, &d, 8);
        bits ^= 1;
        std::memcpy(&d, &bits, 8);
        sqlite3_bind_double(put, 1, d);
    } else {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(get, 0));
        std::string bytes(p, std::size_t(sqlite3_column_bytes(get, 0)));
        char& byte = bit == 0 ? bytes.back() : bytes.front();
        byte = char(byte ^ 1);
        if (type == SQLITE_TEXT) {
            sqlite3_bind_text(put, 1, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
        } else {
            sqlite3_bind_blob(put, 1, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
        }
    }
    for (int i = 0; i < int(cell.key.size()); ++i) {
        sqlite3_bind_text(put, i + 2, cell.key[std::size_t(i)].c_str(), -1, SQLITE_TRANSIENT);
    }
    const int rc = sqlite3_step(put);
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    sqlite3_close(db);
    return rc == SQLITE_DONE;
}

// A ledger with something in every table: items (one without a label), two decision runs
// with layer vectors, a generation run, an endpoint run with its exchanges, a diagnosis,
// settings, and one run still in progress.
void fillLedger(const QString& path) {
    Ledger led(path.toStdString(), Ledger::Mode::Write);
    auto items = someItems(6);
    items[4].label.reset();
    led.initStudy(nlohmann::json{{"name", "t"}, {"reference", "c1"}}, "abc", items);
    led.setMeta("study_path", "/studies/t.study.json");
    recordRun(led, "c1", 6, 1);
    recordRun(led, "c2", 6, 2);
    const auto gen = led.beginRun("g", nlohmann::json{{"kind", "generation"}}, "c1", "c1",
                                  led.putEnvironment(nlohmann::json{{"cpu", "test"}}), "none", 6);
    std::vector<ledger::GenerationRecord> outs(6);
    for (int i = 0; i < 6; ++i) {
        outs[std::size_t(i)] = {i,
                                3 + i,
                                "out " + std::to_string(i),
                                "eos",
                                5 - i,
                                {7, 8},
                                {1.5f, 2.5f},
                                {0.5f, 0.25f},
                                {2, 1},
                                {7, 9, 8, 7}, // top-2 per step (schema 7)
                                {-0.1f, -2.5f, -0.2f, -1.8f}};
    }
    led.appendGenerations(gen, outs);
    led.finishRun(gen);
    // An endpoint run: each item's record committed with its exchange with the server.
    const auto served = led.beginRun(
        "y", nlohmann::json{{"kind", "label_tokens"}}, "c1", "c1",
        led.putEnvironment(nlohmann::json{{"kind", "endpoint"}, {"url", "http://h/v1"}}), "none",
        6);
    for (int i = 0; i < 6; ++i) {
        ledger::Record r;
        r.item = i;
        r.probs = {0.25f, 0.75f};
        r.logits = {-1.5f, -0.4f};
        r.decision = 1;
        r.margin = 1.1f;
        r.batch = 5 - i;
        const std::string ex =
            nlohmann::json{{"attempts", {{{"sent", 0.5 * i}, {"done", 0.5 * i + 0.25}}}},
                           {"top", {{{"Yes", -0.4}, {"No", -1.5}}}}}
                .dump();
        led.appendEndpointItems(served, {r}, {}, {{i, ex}});
    }
    led.finishRun(served);
    led.putDiagnosis("h", nlohmann::json{{"verdict", "batch"}, {"items", {1, 2}}});
    recordRun(led, "c3", 6, 3, false);
}

QString copyOf(const QString& from, const QString& to) {
    QFile::remove(to);
    if (!QFile::copy(from, to)) {
        qFatal("cannot copy");
    }
    return to;
}

} // namespace

class TestTamper : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The bar: every stored value of every table that carries data, flipped by one bit in a
    // copy of the ledger, makes verify fail (and never throw).
    void oneBitAnywhereIsFound() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        fillLedger(path);
        QVERIFY(Ledger(path.toStdString(), Ledger::Mode::Read).verify().ok);
        const auto cells = everyCell(path);
        QVERIFY2(cells.size() > 300, qPrintable(QString::number(cells.size())));
        int checked = 0;
        for (const Cell& cell : cells) {
            const QString copy = copyOf(path, dir.filePath("edited.ledger"));
            bool edited = false;
            for (int bit : {0, 40}) { // bit 0 collides with another row's key: bit 40 does not
                if ((edited = flipOneBit(copy, cell, bit))) {
                    break;
                }
            }
            const std::string what = cell.table + "." + cell.column + " of row " +
                                     (cell.key.empty() ? "" : cell.key.front());
            if (!edited && cell.table == "study" && cell.column == "id") {
                continue; // CHECK (id = 1): SQLite itself refuses any other value
            }
            QVERIFY2(edited, what.c_str());
            ledger::VerifyResult v;
            try {
                v = Ledger(copy.toStdString(), Ledger::Mode::Read).verify();
            } catch (const std::exception& e) {
                QFAIL((what + ": verify threw: " + e.what()).c_str());
            }
            QVERIFY2(!v.ok, ("a one-bit edit of " + what + " was not found").c_str());
            ++checked;
        }
        qInfo("%d one-bit edits, each found", checked);
    }

    // Without a recorded head an edited run sealed again passes verify (the algorithm is
    // public); the head recorded before, and a signature made before, both find it. So does a
    // chain cut back to before its last run.
    void resealingIsFoundByTheHeadAndTheSignature() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        const auto key = ledger::generateSigningKey();
        ledger::ChainHead recorded;
        std::int64_t last = 0;
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "t"}}, "abc", someItems(8));
            recordRun(led, "c1", 8, 1);
            last = recordRun(led, "c2", 8, 2);
            recorded = led.head().value();
            led.addSignature(recorded, key.public_pem,
                             ledger::signHead(key.private_pem, recorded, "k"));
        }
        {
            const Ledger led(path.toStdString(), Ledger::Mode::Read);
            QVERIFY(led.verify(recorded).ok);
            const auto t = ledger::assessTrust(led, key.public_pem);
            QCOMPARE(t.state, ledger::Trust::State::Signed);
            QVERIFY(t.trusted);
        }
        const QString resealed = copyOf(path, dir.filePath("resealed.ledger"));
        sql(resealed, ("UPDATE runs SET status = 'running', chain_seq = NULL, chain_sha256 = NULL "
                       "WHERE id = " +
                       std::to_string(last) +
                       "; UPDATE records SET decision = 0 "
                       "WHERE item = 3 AND run = " +
                       std::to_string(last))
                          .c_str());
        {
            Ledger led(resealed.toStdString(), Ledger::Mode::Write);
            led.finishRun(last); // the public algorithm, as anyone can run it
        }
        const Ledger led(resealed.toStdString(), Ledger::Mode::Read);
        QVERIFY2(led.verify().ok, "a re-sealed ledger is a consistent chain");
        const auto v = led.verify(recorded);
        QVERIFY(!v.ok);
        QVERIFY2(v.problem.find("is not the recorded head") != std::string::npos,
                 v.problem.c_str());
        const auto t = ledger::assessTrust(led, key.public_pem);
        QCOMPARE(t.state, ledger::Trust::State::Tampered);
        QVERIFY2(t.problem.find("which this chain does not contain") != std::string::npos,
                 t.problem.c_str());

        const QString cut = copyOf(path, dir.filePath("cut.ledger"));
        sql(cut,
            ("DELETE FROM layers WHERE run = " + std::to_string(last) +
             "; DELETE FROM records WHERE run = " + std::to_string(last) +
             "; DELETE FROM runs WHERE id = " + std::to_string(last) + "; DELETE FROM signatures")
                .c_str());
        const Ledger shorter(cut.toStdString(), Ledger::Mode::Read);
        QVERIFY(shorter.verify().ok);
        const auto c = shorter.verify(recorded);
        QVERIFY(!c.ok);
        QVERIFY2(c.problem.find("has no link") != std::string::npos, c.problem.c_str());
        QCOMPARE(ledger::assessTrust(shorter, key.public_pem).trusted, false);
    }

    // Unsigned, signed by a key, trusted only for that key, unsigned again once the chain grows
    // past the signed head, tampered when a signature row is edited.
    void signaturesSayWhoSigned() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        const auto alice = ledger::generateSigningKey(), bob = ledger::generateSigningKey();
        const std::string fpAlice = ledger::keyFingerprint(alice.public_pem, "alice");
        QVERIFY(fpAlice != ledger::keyFingerprint(bob.public_pem, "bob"));
        Ledger led(path.toStdString(), Ledger::Mode::Write);
        led.initStudy(nlohmann::json{{"name", "t"}}, "abc", someItems(4));
        recordRun(led, "c1", 4, 1);
        auto t = ledger::assessTrust(led);
        QCOMPARE(t.state, ledger::Trust::State::Unsigned);
        QVERIFY2(t.line().find("UNSIGNED") != std::string::npos, t.line().c_str());
        const auto head = led.head().value();
        led.addSignature(head, alice.public_pem, ledger::signHead(alice.private_pem, head, "a"));
        t = ledger::assessTrust(led, alice.public_pem);
        QCOMPARE(t.state, ledger::Trust::State::Signed);
        QCOMPARE(t.fingerprint, fpAlice);
        QVERIFY(t.trusted);
        QVERIFY2(t.line().find("signed by " + fpAlice) != std::string::npos, t.line().c_str());
        t = ledger::assessTrust(led, bob.public_pem);
        QVERIFY(!t.trusted);
        QVERIFY2(t.problem.find("not signed by the trusted key") != std::string::npos,
                 t.problem.c_str());
        recordRun(led, "c2", 4, 2);
        t = ledger::assessTrust(led, alice.public_pem);
        QCOMPARE(t.state, ledger::Trust::State::Unsigned);
        QVERIFY(!t.trusted);
        QCOMPARE(t.signed_head.value(), head);
        QVERIFY2(t.line().find("covers head") != std::string::npos, t.line().c_str());
        sql(path, "UPDATE signatures SET signature = substr(signature, 1, 127) || "
                  "CASE substr(signature, 128, 1) WHEN '0' THEN '1' ELSE '0' END");
        t = ledger::assessTrust(led);
        QCOMPARE(t.state, ledger::Trust::State::Tampered);
        QVERIFY2(t.problem.find("does not verify") != std::string::npos, t.problem.c_str());
        QVERIFY_THROWS_EXCEPTION(Error, ledger::signHead(alice.public_pem, head, "not private"));
        QVERIFY_THROWS_EXCEPTION(Error, ledger::keyFingerprint("-----BEGIN", "junk"));
        QVERIFY_THROWS_EXCEPTION(Error, ledger::ChainHead::parse("12:abc"));
        QCOMPARE(ledger::ChainHead::parse(head.text()), head);
    }

    // A row that cannot be parsed (a run's head that is no JSON, a margin stored as text, an
    // item whose label is text) is a tampered ledger for verify, not an exception.
    void unparseableRowsAreTampered_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("problem");
        QTest::newRow("run head JSON") << "UPDATE runs SET head_json = '{' WHERE id = 1"
                                       << "a run row cannot be read";
        QTest::newRow("margin as text") << "UPDATE records SET margin = 'x' WHERE item = 2"
                                        << "margin is not a real number";
        QTest::newRow("truncated flag 2") << "UPDATE records SET truncated = 2 WHERE item = 1"
                                          << "truncated is 2, not 0 or 1";
        QTest::newRow("label as text") << "UPDATE items SET label = 'one' WHERE idx = 3"
                                       << "items table changed";
        QTest::newRow("a diagnosis") << "UPDATE diagnoses SET json = '{}'"
                                     << "diagnoses table changed";
    }
    void unparseableRowsAreTampered() {
        QFETCH(QString, edit);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "t"}}, "abc", someItems(4));
            recordRun(led, "c1", 4, 1);
            led.putDiagnosis("h", nlohmann::json{{"verdict", "none"}});
        }
        sql(path, edit.toUtf8().constData());
        const auto v = Ledger(path.toStdString(), Ledger::Mode::Read).verify();
        QVERIFY(!v.ok);
        QVERIFY2(QString::fromStdString(v.problem).contains(problem), v.problem.c_str());
    }

    // Pages of the file itself damaged (what a fuzzer's mutations of a ledger file do): verify
    // says the ledger is damaged, as tampering, and every reader refuses it with an Error naming
    // the file; no SQLite exception escapes (one used to end a verify thread in terminate()).
    void damagedPagesAreTamperedNotACrash() {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.ledger");
        {
            Ledger led(path.toStdString(), Ledger::Mode::Write);
            led.initStudy(nlohmann::json{{"name", "t"}}, "abc", someItems(4));
            recordRun(led, "c1", 4, 1);
        }
        int root = 0, pageSize = 0;
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr),
                     SQLITE_OK);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = 'items'", -1,
                               &st, nullptr);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            root = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
            sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &st, nullptr);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            pageSize = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        QVERIFY(root > 1 && pageSize > 0);
        QVERIFY(!QFile::exists(path + "-wal") || QFile(path + "-wal").size() == 0);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(qint64(root - 1) * pageSize)); // the B-tree page's type byte
            QCOMPARE(f.write("\xff", 1), qint64(1));
        }
        const Ledger led(path.toStdString(), Ledger::Mode::Read);
        const auto v = led.verify();
        QVERIFY(!v.ok);
        QVERIFY2(QString::fromStdString(v.problem).contains("damaged"), v.problem.c_str());
        QVERIFY_THROWS_EXCEPTION(Error, led.items());
        try {
            led.items();
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("damaged"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTamper)
#include "test_tamper.moc"
