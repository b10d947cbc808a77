// Sharded studies (`probaudit run --shard I/N`) and their merge (`probaudit merge`): merged
// shards are, record for record, what one node records (the same numerics digest per run and
// the same records less their wall times); a bad set of shards is refused naming the shard and
// writes nothing.
#include "cli_support.h"
#include "core/ledger/ledger.h"
#include "shard_study.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <algorithm>
#include <map>

using namespace probaudit;
using probaudit::test::cli;
using probaudit::test::recorded;
using probaudit::test::writeStudy;

namespace {

void sql(const QString& path, const char* statement) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, statement, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

} // namespace

class TestShards : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_study, m_whole;
    QStringList m_shards;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // A refused merge: exit 1, one line naming `names`, and no output file.
    void refused(const QStringList& shards, const QString& names, const QString& why) {
        refusedWith(shards, {}, names, why);
    }
    void refusedWith(const QStringList& shards, const QStringList& more, const QString& names,
                     const QString& why) {
        const QString out = path(QStringLiteral("refused.ledger"));
        const auto r = cli(QStringList{QStringLiteral("merge")} + shards +
                           QStringList{QStringLiteral("-o"), out} + more);
        QCOMPARE(r.code, 1);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(!err.contains(u'\n'), qPrintable(err));
        QVERIFY2(err.contains(names) && err.contains(why), qPrintable(err));
        QVERIFY(!QFile::exists(out));
        QVERIFY(QDir(m_dir.path()).entryList({QStringLiteral("refused.ledger*")}).isEmpty());
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_study = writeStudy(QDir(m_dir.path()), QStringLiteral("s"));
        m_whole = path(QStringLiteral("whole.ledger"));
        const auto one = cli({QStringLiteral("run"), m_study, QStringLiteral("--all"),
                              QStringLiteral("--ledger"), m_whole});
        QVERIFY2(one.code == 0, one.err.constData());
        for (int i = 1; i <= 3; ++i) {
            m_shards << path(QStringLiteral("shard-%1.ledger").arg(i));
            const auto r = cli({QStringLiteral("run"), m_study, QStringLiteral("--all"),
                                QStringLiteral("--shard"), QStringLiteral("%1/3").arg(i),
                                QStringLiteral("--ledger"), m_shards.back()});
            QVERIFY2(r.code == 0, r.err.constData());
        }
    }

    // Each shard records whole batches of every config; merged, they are the one-node run.
    void mergedShardsAreTheOneNodeRun() {
        std::size_t sum = 0;
        for (const QString& s : m_shards) {
            const ledger::Ledger led(s.toStdString(), ledger::Ledger::Mode::Read);
            QCOMPARE(led.runs().size(), std::size_t(3));
            QVERIFY(led.verify().ok);
            for (const auto& r : led.runs()) {
                QVERIFY(r.items_total < 37); // a part of every config
                sum += std::size_t(r.items_total);
                if (r.config_name == "b4") { // whole batches: a batch's members are all here
                    std::map<std::int64_t, int> members;
                    for (const auto& rec : led.records(r.id, false)) {
                        ++members[rec.batch];
                    }
                    for (const auto& [batch, n] : members) {
                        QVERIFY(n == 4 || batch == 9); // 37 = 9 x 4 + 1
                    }
                }
            }
        }
        QCOMPARE(sum, std::size_t(3 * 37));
        const QString merged = path(QStringLiteral("merged.ledger"));
        const auto r = cli(QStringList{QStringLiteral("merge")} + m_shards +
                           QStringList{QStringLiteral("-o"), merged});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("3 shards merged, 3 runs of 37 items"));
        QCOMPARE(cli({QStringLiteral("verify"), merged}).code, 0);
        QVERIFY(test::sameAsOneNode(m_whole, merged));
        const auto joined = recorded(merged);
        // The negative: another split of b8 (batches of 4) does not give b8's records.
        QVERIFY(joined.at("b8").numerics != joined.at("b4").numerics);
    }

    void shardBadInput() {
        const auto bad = cli({QStringLiteral("run"), m_study, QStringLiteral("--all"),
                              QStringLiteral("--shard"), QStringLiteral("4/3"),
                              QStringLiteral("--ledger"), path(QStringLiteral("x.ledger"))});
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.err.contains("1 <= I <= N"));
        // A shard's ledger takes that shard only, and a whole-study ledger no shard.
        const auto other =
            cli({QStringLiteral("run"), m_study, QStringLiteral("--all"), QStringLiteral("--shard"),
                 QStringLiteral("2/3"), QStringLiteral("--ledger"), m_shards[0]});
        QCOMPARE(other.code, 1);
        QVERIFY2(other.err.contains("holds shard 1/3, not 2/3"), other.err.constData());
        const auto whole =
            cli({QStringLiteral("run"), m_study, QStringLiteral("--all"), QStringLiteral("--shard"),
                 QStringLiteral("1/3"), QStringLiteral("--ledger"), m_whole});
        QCOMPARE(whole.code, 1);
        QVERIFY2(whole.err.contains("runs of the whole study"), whole.err.constData());
        const auto unsharded = cli({QStringLiteral("run"), m_study, QStringLiteral("--all"),
                                    QStringLiteral("--ledger"), m_shards[1]});
        QCOMPARE(unsharded.code, 1);
        QVERIFY2(unsharded.err.contains("holds shard 2/3"), unsharded.err.constData());
    }

    void mergeRefusals() {
        refused({m_shards[0], m_shards[2]}, QStringLiteral("shard 2/3"), QStringLiteral("missing"));
        refused({m_shards[0], m_shards[1], m_shards[1], m_shards[2]}, m_shards[1],
                QStringLiteral("again"));
        refused({m_shards[0], m_whole}, m_whole, QStringLiteral("not a shard"));
        // A shard of another study (another config set).
        QTemporaryDir other;
        const QString otherStudy = writeStudy(QDir(other.path()), QStringLiteral("s"),
                                              QStringLiteral(",\"b2\":{\"batch_size\":2}"));
        const QString foreign = other.filePath(QStringLiteral("shard-2.ledger"));
        QCOMPARE(cli({QStringLiteral("run"), otherStudy, QStringLiteral("--config"),
                      QStringLiteral("b4"), QStringLiteral("--shard"), QStringLiteral("2/3"),
                      QStringLiteral("--ledger"), foreign})
                     .code,
                 0);
        refused({m_shards[0], foreign, m_shards[2]}, foreign, QStringLiteral("another study"));
        // A tampered shard: one probability changed.
        const QString copy = path(QStringLiteral("tampered-3.ledger"));
        QVERIFY(QFile::copy(m_shards[2], copy));
        sql(copy, "UPDATE records SET decision = 1 - decision WHERE item = (SELECT min(item) "
                  "FROM records)");
        refused({m_shards[0], m_shards[1], copy}, copy, QStringLiteral("does not verify"));
        // A shard with a run cut off before its end (resumable, not sealed).
        const QString cut = path(QStringLiteral("cut-3.ledger"));
        QVERIFY(QFile::copy(m_shards[2], cut));
        {
            ledger::Ledger led(cut.toStdString(), ledger::Ledger::Mode::Write);
            const auto r = led.runs().back();
            led.beginRun(r.head, r.head_json, r.config_name, r.config_hash, r.env_hash, r.capture,
                         r.items_total);
        }
        refused({m_shards[0], m_shards[1], cut}, cut, QStringLiteral("unfinished run"));
        // An output that exists is never overwritten.
        const auto r = cli(QStringList{QStringLiteral("merge")} + m_shards +
                           QStringList{QStringLiteral("-o"), m_whole});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("exists already"));
    }

    // Without a key a merge says it checked none; a shard that carries a signature its chain
    // no longer has is refused always; with --trust every shard's head must be signed by that
    // key, so a shard whose decision was flipped and sealed again (signature removed, as the
    // one who edits it would) is refused, while without --trust it would merge and verify.
    void signedShardsAndTrust() {
        const QString key = path(QStringLiteral("merge.key"));
        QCOMPARE(cli({QStringLiteral("keygen"), key}).code, 0);
        QStringList signedShards;
        for (int i = 0; i < 3; ++i) {
            signedShards << path(QStringLiteral("signed-%1.ledger").arg(i + 1));
            QVERIFY(QFile::copy(m_shards[i], signedShards.back()));
            QCOMPARE(
                cli({QStringLiteral("sign"), signedShards.back(), QStringLiteral("--key"), key})
                    .code,
                0);
        }
        const QString pub = key + QStringLiteral(".pub");
        const auto merge = [&](const QStringList& shards, const QString& out,
                               const QStringList& more) {
            return cli(QStringList{QStringLiteral("merge")} + shards +
                       QStringList{QStringLiteral("-o"), path(out)} + more);
        };
        const auto plain = merge(m_shards, QStringLiteral("plain.ledger"), {});
        QCOMPARE(plain.code, 0);
        QVERIFY2(plain.err.contains("not checked against a key"), plain.err.constData());
        const auto trusted =
            merge(signedShards, QStringLiteral("trusted.ledger"), {QStringLiteral("--trust"), pub});
        QVERIFY2(trusted.code == 0, trusted.err.constData());
        QVERIFY2(trusted.out.contains("each shard signed by ed25519:"), trusted.out.constData());
        QVERIFY2(trusted.err.isEmpty(), trusted.err.constData());
        QVERIFY(ledger::Ledger(path(QStringLiteral("trusted.ledger")).toStdString(),
                               ledger::Ledger::Mode::Read)
                    .meta("merged_from")
                    .find("each signed by ed25519:") != std::string::npos);
        refusedWith({signedShards[0], signedShards[1], m_shards[2]},
                    {QStringLiteral("--trust"), pub}, m_shards[2],
                    QStringLiteral("is not trusted"));

        // Shard 3 with one decision flipped and its last run sealed again.
        const QString flipped = path(QStringLiteral("flipped-3.ledger"));
        QVERIFY(QFile::copy(signedShards[2], flipped));
        std::int64_t last = 0;
        {
            const ledger::Ledger led(flipped.toStdString(), ledger::Ledger::Mode::Read);
            last = led.runs().back().id;
        }
        const std::string run = std::to_string(last);
        sql(flipped, ("UPDATE runs SET status = 'running', chain_seq = NULL, chain_sha256 = NULL "
                      "WHERE id = " +
                      run +
                      "; UPDATE records SET decision = 1 - decision WHERE "
                      "run = " +
                      run + " AND item = (SELECT min(item) FROM records WHERE run = " + run + ")")
                         .c_str());
        {
            ledger::Ledger led(flipped.toStdString(), ledger::Ledger::Mode::Write);
            led.finishRun(last); // the public algorithm
        }
        // Its stale signature gives it away, key or not.
        refused({signedShards[0], signedShards[1], flipped}, flipped,
                QStringLiteral("does not verify"));
        sql(flipped, "DELETE FROM signatures");
        const auto unkeyed = merge({signedShards[0], signedShards[1], flipped},
                                   QStringLiteral("unkeyed.ledger"), {});
        QCOMPARE(unkeyed.code, 0); // the negative: without a key the edit goes through
        QVERIFY(unkeyed.err.contains("not checked against a key"));
        refusedWith({signedShards[0], signedShards[1], flipped}, {QStringLiteral("--trust"), pub},
                    flipped, QStringLiteral("not signed by the trusted key"));
    }

    // An item recorded by two shards (a ledger made outside `run --shard`, sealed properly):
    // refused naming the shard that records it again.
    void anItemInTwoShardsIsRefused() {
        const QString dup = path(QStringLiteral("dup-2.ledger"));
        {
            const ledger::Ledger src(m_shards[0].toStdString(), ledger::Ledger::Mode::Read);
            ledger::Ledger led(dup.toStdString(), ledger::Ledger::Mode::Write);
            led.initStudy(src.study(), src.datasetSha256(), src.items());
            led.setMeta("shard", "2/3");
            const ledger::Ledger second(m_shards[1].toStdString(), ledger::Ledger::Mode::Read);
            for (const auto& r : second.runs()) {
                led.putConfig(r.config_hash, r.config_name, second.config(r.config_hash));
                led.putEnvironment(second.environment(r.env_hash));
                auto recs = second.records(r.id, true);
                if (r.config_name == "ref") { // shard 1's first item of ref, once more
                    recs.push_back(src.records(src.runs().front().id, true).front());
                    std::sort(recs.begin(), recs.end(),
                              [](const auto& a, const auto& b) { return a.item < b.item; });
                }
                const auto id = led.beginRun(r.head, r.head_json, r.config_name, r.config_hash,
                                             r.env_hash, r.capture, std::int64_t(recs.size()));
                led.appendBatch(id, recs);
                led.finishRun(id);
            }
            QVERIFY(led.verify().ok);
        }
        refused({m_shards[0], dup, m_shards[2]}, dup, QStringLiteral("records too"));
    }
};

QTEST_GUILESS_MAIN(TestShards)
#include "test_shards.moc"
