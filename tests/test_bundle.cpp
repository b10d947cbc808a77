// Importing audit bundles: a good bundle merges into a fresh ledger and reproduces every
// comparison exactly; each crafted bundle (a path escaping the folder, an absolute path, a
// symbolic link, a duplicate name, a digest mismatch, no manifest, a truncated archive, an
// entry past the size limit, a zip bomb, a ledger whose hash chain is broken) is refused with
// a sentence that says why, and the target ledger is left exactly as it was.
#include "cli_support.h"
#include "core/analysis/review.h"
#include "core/bundle/bundle.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "review_fixture.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <set>
#include <utility>

using namespace probaudit;

namespace {

struct Entry {
    QString name;
    QByteArray bytes;
    quint32 mode = 0; // unix mode for the external attributes (0: a plain file)
};

void writeZip(const QString& path, const QList<Entry>& entries) {
    QuaZip zip(path);
    QVERIFY(zip.open(QuaZip::mdCreate));
    for (const Entry& e : entries) {
        QuaZipFile out(&zip);
        QuaZipNewInfo info(e.name);
        if (e.mode != 0) {
            info.externalAttr = e.mode << 16;
        }
        QVERIFY(out.open(QIODevice::WriteOnly, info, nullptr, 0, Z_DEFLATED, 9));
        out.write(e.bytes);
        out.close();
    }
    zip.close();
}

// Appends an entry compressed here (raw deflate) whose header declares `declared` bytes
// instead of the real size: what a crafted bomb does to pass a check of declared sizes.
void addLyingEntry(const QString& path, const QString& name, const QByteArray& bytes,
                   ulong declared) {
    z_stream z{};
    QVERIFY(deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    QByteArray packed(int(deflateBound(&z, uLong(bytes.size()))), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = uInt(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(packed.data());
    z.avail_out = uInt(packed.size());
    QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
    packed.resize(int(z.total_out));
    deflateEnd(&z);
    QuaZip zip(path);
    QVERIFY(zip.open(QuaZip::mdAdd));
    QuaZipFile out(&zip);
    QuaZipNewInfo info(name);
    info.uncompressedSize = declared;
    const auto crc =
        quint32(crc32(0, reinterpret_cast<const Bytef*>(bytes.constData()), uInt(bytes.size())));
    QVERIFY(out.open(QIODevice::WriteOnly, info, nullptr, crc, Z_DEFLATED, 9, true));
    out.write(packed);
    out.close();
    zip.close();
}

QList<Entry> readZip(const QString& path) {
    QList<Entry> out;
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip)) {
        return out;
    }
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFile f(&zip);
        f.open(QIODevice::ReadOnly);
        out.push_back({zip.getCurrentFileName(), f.readAll()});
    }
    return out;
}

QByteArray manifestFor(const QList<Entry>& files) {
    QJsonArray list;
    for (const Entry& e : files) {
        list.append(QJsonObject{
            {QStringLiteral("path"), e.name},
            {QStringLiteral("sha256"),
             QString::fromLatin1(
                 QCryptographicHash::hash(e.bytes, QCryptographicHash::Sha256).toHex())},
            {QStringLiteral("bytes"), qint64(e.bytes.size())}});
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("probaudit_bundle"), 1},
                                     {QStringLiteral("files"), list}})
        .toJson();
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

} // namespace

class TestBundle : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_ledger, m_bundle;
    QList<Entry> m_files; // the good bundle's entries, manifest excluded

private Q_SLOTS:
    void initTestCase() {
        m_ledger = m_dir.filePath(QStringLiteral("fixture.ledger"));
        testing::writeFixtureLedger(m_ledger.toStdString(), testing::defaultFixture(40));
        m_bundle = m_dir.filePath(QStringLiteral("good.zip"));
        const auto r =
            test::cli({QStringLiteral("bundle"), m_ledger, QStringLiteral("-o"), m_bundle});
        QVERIFY2(r.code == 0, r.err.constData());
        for (const Entry& e : readZip(m_bundle)) {
            if (e.name != QLatin1String("MANIFEST.json")) {
                m_files.push_back(e);
            }
        }
        QVERIFY(!m_files.isEmpty());
    }

    void goodBundleMergesAndReproduces() {
        const QString target = m_dir.filePath(QStringLiteral("fresh.ledger"));
        QThread::sleep(1); // the import's clock is past every recorded time (second resolution)
        const auto r =
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("4 runs imported"));
        QCOMPARE(test::cli({QStringLiteral("verify"), target}).code, 0);
        const auto a = analysis::loadReview(m_ledger.toStdString());
        const auto b = analysis::loadReview(target.toStdString());
        QCOMPARE(a.rows.size(), b.rows.size());
        for (std::size_t k = 0; k < a.rows.size(); ++k) {
            const auto& x = *a.rows[k].cmp;
            const auto& y = *b.rows[k].cmp;
            QCOMPARE(y.flips, x.flips);
            QCOMPARE(y.max_dp, x.max_dp);
            QCOMPARE(y.bit_identical_share, x.bit_identical_share);
            QCOMPARE(y.first_divergent, x.first_divergent);
            QCOMPARE(b.rows[k].run->env_hash, a.rows[k].run->env_hash); // environments kept
            QCOMPARE(b.rows[k].run->records_sha256, a.rows[k].run->records_sha256);
            // Imported runs keep when they were recorded (sealed with those times).
            QCOMPARE(b.rows[k].run->started, a.rows[k].run->started);
            QCOMPARE(b.rows[k].run->finished, a.rows[k].run->finished);
        }
        // A second import finds every run already there.
        const auto again =
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QCOMPARE(again.code, 0);
        QVERIFY(again.out.contains("0 runs imported, 4 already there"));
    }

    // The policy's registration travels with the runs: imported from a bundle, runs recorded
    // before the policy stay before it, and runs recorded after a change stay after it.
    void policyRegistrationTravelsWithTheRuns() {
        for (const bool late : {false, true}) {
            QTemporaryDir dir;
            const QString src = dir.filePath(QStringLiteral("src.ledger"));
            testing::Fixture f = testing::defaultFixture(12);
            f.policy = nlohmann::json::parse(
                R"({"rules": [{"name": "t", "configs": ["threads-2"], "max_flips": 0}]})");
            testing::writeFixtureLedger(src.toStdString(), f);
            if (late) {
                ledger::Ledger led(src.toStdString(), ledger::Ledger::Mode::Write);
                nlohmann::json study = led.study();
                study["policy"]["rules"][0]["max_flips"] = 1; // changed after every run
                ledger::registerPolicy(led, led.study(), study);
                led.updateStudy(study);
            }
            const auto runsOf = [](const QString& path) {
                const ledger::Ledger led(path.toStdString(), ledger::Ledger::Mode::Read);
                const auto reg = ledger::policyRegistration(led);
                return std::make_pair(reg.has_value() ? reg->after_runs.size() : std::size_t(99),
                                      led.runs().size());
            };
            const auto before = runsOf(src);
            QCOMPARE(before.first, late ? before.second : std::size_t(0));
            const QString zip = dir.filePath(QStringLiteral("b.zip"));
            QCOMPARE(test::cli({QStringLiteral("bundle"), src, QStringLiteral("-o"), zip}).code, 0);
            const QString dst = dir.filePath(QStringLiteral("dst.ledger"));
            const auto r =
                test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), dst});
            QVERIFY2(r.code == 0, r.err.constData());
            const auto after = runsOf(dst);
            QCOMPARE(after.second, before.second);
            QCOMPARE(after.first, before.first); // none late, or every run late
        }
    }

    void craftedBundlesAreRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("parent path") << "dotdot"
                                     << "not a plain relative path";
        QTest::newRow("absolute path") << "absolute"
                                       << "not a plain relative path";
        QTest::newRow("symlink") << "symlink"
                                 << "symbolic link";
        QTest::newRow("duplicate") << "duplicate"
                                   << "appears twice";
        QTest::newRow("digest mismatch") << "digest"
                                         << "does not match its SHA-256";
        QTest::newRow("no manifest") << "nomanifest"
                                     << "no MANIFEST.json";
        QTest::newRow("truncated") << "truncated"
                                   << "not a readable zip";
        // 20 MiB of zeros whose header declares 1 MB: the declared ratio passes, the bytes
        // actually inflated stop at the declared size.
        QTest::newRow("zip bomb that lies") << "lyingbomb"
                                            << "entry \"zeros.bin\"";
        QTest::newRow("zip bomb") << "bomb"
                                  << "compression ratio over 100";
        QTest::newRow("broken chain") << "chain"
                                      << "fails its hash chain";
    }
    void craftedBundlesAreRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, says);
        const QString zip = m_dir.filePath(kind + QStringLiteral(".zip"));
        QList<Entry> files = m_files;
        QList<Entry> extra;
        QByteArray manifest = manifestFor(files);
        if (kind == QLatin1String("dotdot")) {
            extra.push_back({QStringLiteral("../evil.txt"), "x"});
        } else if (kind == QLatin1String("absolute")) {
            extra.push_back({m_dir.filePath(QStringLiteral("evil-abs.txt")), "x"});
        } else if (kind == QLatin1String("symlink")) {
            extra.push_back({QStringLiteral("link"), "/etc/passwd", S_IFLNK | 0777});
        } else if (kind == QLatin1String("duplicate")) {
            extra.push_back(files.front());
        } else if (kind == QLatin1String("digest")) {
            files.front().bytes[100] = char(files.front().bytes[100] ^ 0x55);
        } else if (kind == QLatin1String("bomb")) {
            extra.push_back({QStringLiteral("zeros.bin"), QByteArray(20 << 20, '\0')});
        } else if (kind == QLatin1String("chain")) {
            // A record edited after sealing, then a manifest that matches the edited file.
            const QString edited = m_dir.filePath(QStringLiteral("edited.ledger"));
            QFile::remove(edited);
            QVERIFY(QFile::copy(m_ledger, edited));
            QFile(edited).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
            {
                SQLite::Database db(edited.toStdString(), SQLite::OPEN_READWRITE);
                db.exec("UPDATE records SET margin = margin + 1 WHERE item = 3");
                db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            }
            for (Entry& e : files) {
                if (e.name == QLatin1String("ledger.ledger")) {
                    e.bytes = fileBytes(edited);
                }
            }
            manifest = manifestFor(files);
        }
        QList<Entry> all;
        if (kind != QLatin1String("nomanifest")) {
            all.push_back({QStringLiteral("MANIFEST.json"), manifest});
        }
        all += files;
        all += extra;
        writeZip(zip, all);
        if (kind == QLatin1String("lyingbomb")) {
            addLyingEntry(zip, QStringLiteral("zeros.bin"), QByteArray(20 << 20, '\0'), 1000000);
        }
        if (kind == QLatin1String("truncated")) {
            QFile f(zip);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.resize(f.size() / 2));
        }
        // The target: a ledger with runs already, which must not change.
        const QString target = m_dir.filePath(QStringLiteral("target-%1.ledger").arg(kind));
        QVERIFY(QFile::copy(m_ledger, target));
        QFile(target).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        const QByteArray before = fileBytes(target);
        const auto r = test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), target});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QVERIFY(r.err.contains("nothing was imported") || kind == QLatin1String("chain"));
        QCOMPARE(fileBytes(target), before);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("../evil.txt"))));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("evil-abs.txt"))));
    }

    // An import that fails after some runs went in (the disk fills during the last run) is
    // refused whole: a target that did not exist still does not, one that did is unchanged.
    void importFailingMidwayWritesNothing() {
        const QString room = m_dir.filePath(QStringLiteral("room.ledger"));
        QVERIFY(
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), room}).code ==
            0);
        int pages = 0;
        {
            SQLite::Database db(room.toStdString(), SQLite::OPEN_READONLY);
            pages = db.execAndGet("PRAGMA page_count").getInt();
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROBAUDIT_LEDGER_MAX_PAGES"), QString::number(pages - 1));
        const QString fresh = m_dir.filePath(QStringLiteral("midway.ledger"));
        auto r =
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), fresh}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the disk is full") && r.err.contains("nothing was imported"),
                 r.err.constData());
        QVERIFY(!QFile::exists(fresh));
        // A target holding the study and no runs yet: byte for byte as it was.
        const QString studyOnly = m_dir.filePath(QStringLiteral("study-only.ledger"));
        QVERIFY(QFile::copy(room, studyOnly));
        QFile(studyOnly).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        int studyPages = 0;
        {
            SQLite::Database db(studyOnly.toStdString(), SQLite::OPEN_READWRITE);
            for (const char* table : {"layers", "records", "generations", "diagnoses", "runs",
                                      "configs", "environments"}) {
                db.exec(std::string("DELETE FROM ") + table);
            }
            db.exec("VACUUM");
            studyPages = db.execAndGet("PRAGMA page_count").getInt();
        }
        const QByteArray before = fileBytes(studyOnly);
        // Room for about half of the runs' pages.
        env.insert(QStringLiteral("PROBAUDIT_LEDGER_MAX_PAGES"),
                   QString::number(studyPages + (pages - studyPages) / 2));
        r = test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), studyOnly},
                      env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing was imported"), r.err.constData());
        QCOMPARE(fileBytes(studyOnly), before);
    }

    // `import --into` and `migrate` refuse another program's SQLite database untouched.
    void foreignDatabaseTargetIsRefused() {
        const QString foreign = m_dir.filePath(QStringLiteral("foreign.db"));
        {
            SQLite::Database db(foreign.toStdString(),
                                SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            db.exec("CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('mine')");
        }
        const QByteArray before = fileBytes(foreign);
        for (const QStringList& args :
             {QStringList{QStringLiteral("import"), m_bundle, QStringLiteral("--into"), foreign},
              QStringList{QStringLiteral("migrate"), foreign}}) {
            const auto r = test::cli(args);
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains("not a ProbAudit ledger"), r.err.constData());
            QCOMPARE(fileBytes(foreign), before);
        }
    }

    // The chain head to record elsewhere, a key, a signature: `verify --trust` and
    // `import --trust` accept the signer's key only; the manifest names head and signer; an
    // unsigned ledger is said to be unsigned; a head recorded before an edit finds it.
    // A trust option never passes on missing evidence: an empty key file, a directory or a FIFO
    // given as the key is refused in one sentence (an empty read used to disable the check, and
    // a FIFO blocked), for verify and for import, on an unsigned ledger and bundle.
    void trustNeedsAKey_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty file") << "empty"
                                    << "is empty; not a key";
        QTest::newRow("directory") << "directory"
                                   << "is not a regular file";
        QTest::newRow("fifo") << "fifo"
                              << "is not a regular file";
    }
    void trustNeedsAKey() {
        QFETCH(QString, kind);
        QFETCH(QString, says);
        const QString key = m_dir.filePath(QStringLiteral("key-") + kind);
        if (kind == QLatin1String("empty")) {
            QFile f(key);
            QVERIFY(f.open(QIODevice::WriteOnly));
        } else if (kind == QLatin1String("directory")) {
            QVERIFY(QDir().mkpath(key));
        } else {
            QVERIFY(::mkfifo(key.toLocal8Bit().constData(), 0600) == 0);
        }
        const auto verify =
            test::cli({QStringLiteral("verify"), m_ledger, QStringLiteral("--trust"), key});
        QCOMPARE(verify.code, 1);
        QVERIFY2(verify.err.contains(says.toUtf8()), verify.err.constData());
        const QString into =
            m_dir.filePath(QStringLiteral("trust-") + kind + QStringLiteral(".ledger"));
        const auto import = test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"),
                                       into, QStringLiteral("--trust"), key});
        QCOMPARE(import.code, 1);
        QVERIFY2(import.err.contains(says.toUtf8()), import.err.constData());
        QVERIFY(!QFileInfo::exists(into));
    }

    void signedLedgersAndBundles() {
        const QString led = m_dir.filePath(QStringLiteral("signed.ledger"));
        QFile::remove(led);
        QVERIFY(QFile::copy(m_ledger, led));
        QFile::setPermissions(led, QFile::ReadOwner | QFile::WriteOwner);
        const QString alice = m_dir.filePath(QStringLiteral("alice.key")),
                      bob = m_dir.filePath(QStringLiteral("bob.key"));
        for (const QString& key : {alice, bob}) {
            const auto k = test::cli({QStringLiteral("keygen"), key});
            QVERIFY2(k.code == 0 && k.out.contains("Ed25519 key ed25519:"), k.err.constData());
            QCOMPARE(QFileInfo(key).permissions() & (QFile::ReadOther | QFile::ReadGroup),
                     QFileDevice::Permissions());
        }
        QCOMPARE(test::cli({QStringLiteral("keygen"), alice}).code, 1); // never overwritten
        const auto unsignedRun = test::cli({QStringLiteral("verify"), led});
        QCOMPARE(unsignedRun.code, 0);
        QVERIFY2(unsignedRun.err.contains("UNSIGNED"), unsignedRun.err.constData());
        const QByteArray head = test::cli({QStringLiteral("head"), led}).out.trimmed();
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d+:[0-9a-f]{64}$"))
                     .match(QString::fromLatin1(head))
                     .hasMatch(),
                 head.constData());
        const auto sign = test::cli({QStringLiteral("sign"), led, QStringLiteral("--key"), alice});
        QVERIFY2(sign.code == 0 && sign.out.contains("signed by ed25519:"), sign.err.constData());
        const auto trusted = test::cli({QStringLiteral("verify"), led, QStringLiteral("--trust"),
                                        alice + QStringLiteral(".pub"), QStringLiteral("--head"),
                                        QString::fromLatin1(head)});
        QVERIFY2(trusted.code == 0 && trusted.out.contains("(the trusted key)"),
                 trusted.out.constData());
        const auto other = test::cli({QStringLiteral("verify"), led, QStringLiteral("--trust"),
                                      bob + QStringLiteral(".pub")});
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("NOT TRUSTED"), other.err.constData());

        const QString zip = m_dir.filePath(QStringLiteral("signed.zip"));
        QCOMPARE(test::cli({QStringLiteral("bundle"), led, QStringLiteral("-o"), zip}).code, 0);
        QJsonObject manifest;
        for (const Entry& e : readZip(zip)) {
            if (e.name == QLatin1String("MANIFEST.json")) {
                manifest = QJsonDocument::fromJson(e.bytes).object();
            }
        }
        const QJsonObject chain = manifest.value(u"chain").toObject();
        QCOMPARE(chain.value(u"head").toString().toLatin1(), head);
        QVERIFY(chain.value(u"signed_by").toString().startsWith(QStringLiteral("ed25519:")));
        const QString refused = m_dir.filePath(QStringLiteral("refused.ledger"));
        const auto no = test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), refused,
                                   QStringLiteral("--trust"), bob + QStringLiteral(".pub")});
        QCOMPARE(no.code, 1);
        QVERIFY2(no.err.contains("not signed by the trusted key"), no.err.constData());
        QVERIFY(!QFileInfo::exists(refused));
        const auto yes =
            test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), refused,
                       QStringLiteral("--trust"), alice + QStringLiteral(".pub")});
        QVERIFY2(yes.code == 0 && yes.out.contains("signed by ed25519:"), yes.err.constData());
        // An unsigned bundle is imported with a loud word about it.
        const auto plain = test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"),
                                      m_dir.filePath(QStringLiteral("plain.ledger"))});
        QVERIFY2(plain.code == 0 && plain.err.contains("UNSIGNED"), plain.err.constData());

        // An edit after the head was recorded: verify --head and --trust both fail.
        {
            SQLite::Database db(led.toStdString(), SQLite::OPEN_READWRITE);
            db.exec("UPDATE records SET decision = 1 - decision WHERE item = 0");
        }
        const auto edited = test::cli({QStringLiteral("verify"), led, QStringLiteral("--head"),
                                       QString::fromLatin1(head), QStringLiteral("--json")});
        QCOMPARE(edited.code, 2);
        const QJsonObject j = QJsonDocument::fromJson(edited.out).object();
        QCOMPARE(j.value(u"state").toString(), QStringLiteral("tampered"));
        QVERIFY(j.value(u"problem").toString().contains(QStringLiteral("records changed")));
        QCOMPARE(test::cli({QStringLiteral("verify"), led, QStringLiteral("--head"),
                            QStringLiteral("12:abc")})
                     .code,
                 1); // not a head: a usage error, one line
    }

    // The study file is packed only when the caller names it, and only when it is the file the
    // ledger recorded (its digest); a path in the ledger's rows is never read: a ledger whose
    // study_path names a secret packs no secret and no lock from beside it.
    void studyFileOnlyWhenNamedAndRecorded() {
        QDir base(m_dir.path());
        QVERIFY(base.mkpath(QStringLiteral("secret")) && base.mkpath(QStringLiteral("studies")));
        const QString secret = base.filePath(QStringLiteral("secret/id_ed25519"));
        const QString study = base.filePath(QStringLiteral("studies/s.study.json"));
        const QByteArray studyBytes = "{\"name\": \"s\"}\n";
        for (const auto& [path, bytes] :
             {std::pair{secret, QByteArray("SECRET-KEY-BYTES")},
              std::pair{base.filePath(QStringLiteral("secret/runtime.lock.json")),
                        QByteArray("{\"secret_lock\": 1}")},
              std::pair{study, studyBytes},
              std::pair{base.filePath(QStringLiteral("studies/runtime.lock.json")),
                        QByteArray("{\"study_lock\": 1}")}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const QString led = m_dir.filePath(QStringLiteral("study-file.ledger"));
        QFile::remove(led);
        QVERIFY(QFile::copy(m_ledger, led));
        QFile::setPermissions(led, QFile::ReadOwner | QFile::WriteOwner);
        const auto bundleOf = [&](const QStringList& extra, const QString& zip) {
            return test::cli(QStringList{QStringLiteral("bundle"), led, QStringLiteral("-o"), zip} +
                             extra);
        };
        // Recorded by an older ProbAudit: no digest, so a named study file cannot be checked.
        {
            ledger::Ledger w(led.toStdString(), ledger::Ledger::Mode::Write);
            w.setMeta("study_path", secret.toStdString());
        }
        const QString old = m_dir.filePath(QStringLiteral("old.zip"));
        auto r = bundleOf({QStringLiteral("--study"), study}, old);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("records no digest of its study file"), r.err.constData());
        QVERIFY(!QFileInfo::exists(old));
        {
            ledger::Ledger w(led.toStdString(), ledger::Ledger::Mode::Write);
            w.setMeta("study_sha256",
                      QCryptographicHash::hash(studyBytes, QCryptographicHash::Sha256)
                          .toHex()
                          .toStdString());
        }
        // Not named: nothing from the row's path, neither the file nor a lock beside it.
        const QString plain = m_dir.filePath(QStringLiteral("no-study.zip"));
        r = bundleOf({}, plain);
        QVERIFY2(r.code == 0, r.err.constData());
        for (const Entry& e : readZip(plain)) {
            QVERIFY2(!e.name.startsWith(QStringLiteral("study/")), qPrintable(e.name));
            QVERIFY2(!e.bytes.contains("SECRET") && !e.bytes.contains("secret_lock"),
                     qPrintable(e.name));
        }
        // Named and recorded: packed as it is, with the lock beside it.
        const QString good = m_dir.filePath(QStringLiteral("with-study.zip"));
        r = bundleOf({QStringLiteral("--study"), study}, good);
        QVERIFY2(r.code == 0, r.err.constData());
        QMap<QString, QByteArray> entries;
        for (const Entry& e : readZip(good)) {
            entries.insert(e.name, e.bytes);
        }
        QCOMPARE(entries.value(QStringLiteral("study/s.study.json")), studyBytes);
        QCOMPARE(entries.value(QStringLiteral("runtime.lock.json")),
                 QByteArray("{\"study_lock\": 1}"));
        // Named but not the file the runs were made from: refused before anything is written.
        {
            QFile f(study);
            QVERIFY(f.open(QIODevice::Append));
            f.write(" ");
        }
        const QString changed = m_dir.filePath(QStringLiteral("changed.zip"));
        r = bundleOf({QStringLiteral("--study"), study}, changed);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("is not the study file this ledger was recorded from"),
                 r.err.constData());
        QVERIFY(!QFileInfo::exists(changed));
        r = bundleOf({QStringLiteral("--study"), secret}, changed);
        QCOMPARE(r.code, 1);
        QVERIFY(!QFileInfo::exists(changed));
    }

    // Runs imported from another environment never shadow the runs of the same configs
    // recorded here: each gets its own row, named with its environment, in the review (the
    // workbench and the report show its rows), the summary and its JSON; the runs recorded here
    // keep their rows and comparisons. A ledger made only of imported runs needs no labels.
    void importedRunsAreLabelledWithTheirEnvironment() {
        const QString local = m_dir.filePath(QStringLiteral("local.ledger"));
        const QString remote = m_dir.filePath(QStringLiteral("remote.ledger"));
        QFile::remove(local);
        QFile::remove(remote);
        const auto localIds =
            testing::writeFixtureLedger(local.toStdString(), testing::defaultFixture(40));
        testing::Fixture other = testing::defaultFixture(40);
        other.environment = {{"cpu", "elsewhere"}};
        other.configs[1].delta = [](std::int64_t) { return 0.5; }; // batch-8 moves more there
        testing::writeFixtureLedger(remote.toStdString(), other);
        const std::string remoteEnv =
            ledger::Ledger(remote.toStdString(), ledger::Ledger::Mode::Read)
                .runs()
                .front()
                .env_hash;
        const auto before = analysis::loadReview(local.toStdString());
        const QString zip = m_dir.filePath(QStringLiteral("remote.zip"));
        QCOMPARE(test::cli({QStringLiteral("bundle"), remote, QStringLiteral("-o"), zip}).code, 0);
        const auto imported =
            test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), local});
        QVERIFY2(imported.code == 0, imported.err.constData());

        const auto rv = analysis::loadReview(local.toStdString());
        QCOMPARE(rv.reference_run->id, localIds.front());
        QCOMPARE(rv.rows.size(), 2 * before.rows.size());
        std::set<std::int64_t> shown;
        for (const auto& row : rv.rows) {
            QVERIFY(row.run);
            shown.insert(row.run->id);
            if (!row.other_env) {
                const auto* was = before.row(row.config);
                QVERIFY2(was != nullptr, row.config.c_str());
                QCOMPARE(row.run->id, was->run->id);
                QCOMPARE(row.cmp->flips, was->cmp->flips);
                continue;
            }
            QCOMPARE(row.config, row.config_name + " @ env:" + remoteEnv.substr(0, 8));
            QCOMPARE(row.env_hash, remoteEnv);
            QVERIFY(!row.reference);
            QCOMPARE(row.differs_in.back(), std::string("environment"));
            QCOMPARE(row.run->label, std::string("imported from remote.zip"));
            QVERIFY(row.run->imported());
        }
        QCOMPARE(shown.size(), rv.rows.size()); // every run shown, none in two rows
        // batch-8 recorded there moves every item by 0.5: against the reference recorded here
        QVERIFY(rv.row("batch-8 @ env:" + remoteEnv.substr(0, 8))->cmp->flips >
                rv.row("batch-8")->cmp->flips);

        const auto text = test::cli({QStringLiteral("summary"), local});
        QVERIFY2(text.code == 0, text.err.constData());
        const QByteArray label = QByteArray("batch-8 @ env:") + remoteEnv.substr(0, 8).c_str();
        QVERIFY2(text.out.contains("| " + label + " |"), text.out.constData());
        QVERIFY2(text.out.contains("recorded in environment " + QByteArray(remoteEnv.c_str()) +
                                   ", imported from remote.zip"),
                 text.out.constData());
        const auto js = test::cli({QStringLiteral("summary"), local, QStringLiteral("--json")});
        int labelled = 0;
        for (const auto& v : QJsonDocument::fromJson(js.out).object().value(u"rows").toArray()) {
            const QJsonObject row = v.toObject();
            if (row.contains(u"environment")) {
                ++labelled;
                QCOMPARE(row.value(u"environment").toString().toStdString(), remoteEnv);
                QVERIFY(row.value(u"config").toString().endsWith(
                    QStringLiteral(" @ env:") + QString::fromStdString(remoteEnv.substr(0, 8))));
            }
        }
        QCOMPARE(std::size_t(labelled), before.rows.size());

        // Imported into an empty ledger: one environment, no labels.
        const QString fresh = m_dir.filePath(QStringLiteral("fresh-import.ledger"));
        QFile::remove(fresh);
        QCOMPARE(test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), fresh}).code,
                 0);
        const auto alone = analysis::loadReview(fresh.toStdString());
        QCOMPARE(alone.rows.size(), before.rows.size());
        for (const auto& row : alone.rows) {
            QVERIFY(!row.other_env);
            QCOMPARE(row.config, row.config_name);
        }
    }

    // A config's thread count is part of the environment fingerprint (the engine sets it),
    // but not of the machine: configs that differ in threads are one environment's rows, and
    // none is labelled; another machine is.
    void threadCountsAreNotAnotherEnvironment() {
        const QString path = m_dir.filePath(QStringLiteral("threads.ledger"));
        QFile::remove(path);
        testing::Fixture f = testing::defaultFixture(20);
        f.environment = {{"cpu", "fixture"}, {"threads", {{"intra_op", 1}}}};
        f.config_environments["threads-2"] = {{"cpu", "fixture"}, {"threads", {{"intra_op", 2}}}};
        f.config_environments["bfloat16"] = {{"cpu", "elsewhere"}, {"threads", {{"intra_op", 1}}}};
        const auto ids = testing::writeFixtureLedger(path.toStdString(), f);
        const auto rv = analysis::loadReview(path.toStdString());
        QCOMPARE(rv.row(f.configs[3].name)->run->id, ids[3]); // threads-2: its own row
        QVERIFY(!rv.row(f.configs[3].name)->other_env);
        QVERIFY(!rv.row(f.configs[2].name)->run); // bfloat16 here: not run
        QCOMPARE(rv.rows.size(), f.configs.size() + 1);
        const analysis::ReviewRow& elsewhere = rv.rows[3]; // right after bfloat16's own row
        QVERIFY2(elsewhere.other_env &&
                     elsewhere.config.rfind(f.configs[2].name + " @ env:", 0) == 0,
                 elsewhere.config.c_str());
        QCOMPARE(elsewhere.run->id, ids[2]);
        QCOMPARE(std::count_if(rv.rows.begin(), rv.rows.end(),
                               [](const analysis::ReviewRow& r) { return r.other_env; }),
                 1L);
    }

    // Items are matched one by one, not by the dataset file's digest: a target recorded from
    // another file with the same items takes the runs; one whose item differs in its text is
    // refused, naming that item, and left as it was.
    void itemsAreMatchedOneByOne() {
        const ledger::Ledger src(m_ledger.toStdString(), ledger::Ledger::Mode::Read);
        const QString same = m_dir.filePath(QStringLiteral("same-items.ledger"));
        const QString other = m_dir.filePath(QStringLiteral("other-text.ledger"));
        {
            ledger::Ledger a(same.toStdString(), ledger::Ledger::Mode::Write);
            a.initStudy(src.study(), "another dataset file", src.items());
            auto items = src.items();
            items[5].text += " (edited)";
            ledger::Ledger b(other.toStdString(), ledger::Ledger::Mode::Write);
            b.initStudy(src.study(), src.datasetSha256(), items);
        }
        const auto ok =
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), same});
        QVERIFY2(ok.code == 0 && ok.out.contains("4 runs imported"), ok.err.constData());
        const QByteArray before = fileBytes(other);
        const auto no =
            test::cli({QStringLiteral("import"), m_bundle, QStringLiteral("--into"), other});
        QCOMPARE(no.code, 1);
        QVERIFY2(no.err.contains("item 5 (id \"" + QByteArray::fromStdString(src.items()[5].id) +
                                 "\") has another text there"),
                 no.err.constData());
        QCOMPARE(fileBytes(other), before);
    }

    // A bundle repacked with folder entries ("study/", as zip -r writes them) imports as the
    // original does: they hold nothing and are skipped.
    void folderEntriesAreIgnored() {
        QList<Entry> all = readZip(m_bundle);
        all.insert(1, {QStringLiteral("study/"), QByteArray()});
        const QString zip = m_dir.filePath(QStringLiteral("folders.zip"));
        writeZip(zip, all);
        const QString target = m_dir.filePath(QStringLiteral("folders.ledger"));
        const auto r = test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"), target});
        QVERIFY2(r.code == 0 && r.out.contains("4 runs imported"), r.err.constData());
        all.insert(1, {QStringLiteral("../up/"), QByteArray()});
        writeZip(zip, all);
        const auto bad = test::cli({QStringLiteral("import"), zip, QStringLiteral("--into"),
                                    m_dir.filePath(QStringLiteral("folders2.ledger"))});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains("not a plain relative path"), bad.err.constData());
    }

    // The size limit, with a small limit (the default is 8 GiB per entry).
    void entryPastTheSizeLimit() {
        bundle::ImportLimits small;
        small.maxEntryBytes = 1000;
        bundle::ImportResult r;
        QString error;
        const QString target = m_dir.filePath(QStringLiteral("limit.ledger"));
        QVERIFY(!bundle::importBundle(m_bundle, target, &r, &error, small));
        QVERIFY2(error.contains(QStringLiteral("past the size limit")), qPrintable(error));
        QVERIFY(!QFile::exists(target));
    }
};

QTEST_GUILESS_MAIN(TestBundle)
#include "test_bundle.moc"
