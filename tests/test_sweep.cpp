// `probaudit sweep` on a real single-node Slurm cluster (Debian's slurm-wlm and munge, started
// by tests/slurm_cluster.py as root in a temporary folder, stopped by its pid files): a 3-shard
// job array merges into the one-node run's records; a task cancelled mid-run is found failed,
// resubmitted, resumes from its ledger and the merge is still the one-node run; what Slurm or
// the study refuses is one line and leaves no sweep behind; the workbench's model of a sweep
// shows its shards, merged or not.
#include "cli_support.h"
#include "core/ledger/ledger.h"
#include "shard_study.h"
#include "ui/models/sweepmodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <unistd.h>

using namespace probaudit;
using probaudit::test::cli;

namespace {

const QString kCluster = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/slurm_cluster.py");

int clusterCommand(const QString& verb, const QString& dir, QByteArray* output = nullptr) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("python3"), {kCluster, verb, dir});
    p.waitForFinished(120000);
    if (output != nullptr) {
        *output = p.readAll();
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// Items recorded so far in a shard's ledger (0 while it has none).
std::int64_t itemsDone(const QString& ledgerPath) {
    if (!QFile::exists(ledgerPath)) {
        return 0;
    }
    try {
        const ledger::Ledger l(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        std::int64_t n = 0;
        for (const auto& r : l.runs()) {
            n += r.items_done;
        }
        return n;
    } catch (const std::exception&) {
        return 0; // being created by its task
    }
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_cluster, m_study, m_oneNode;
    bool m_started = false;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // `sweep STUDY --status --dir DIR` until its summary says `want` (or `seconds` pass).
    QByteArray waitForStatus(const QString& dir, const QByteArray& want, int seconds = 180) {
        QElapsedTimer t;
        t.start();
        QByteArray last;
        while (t.elapsed() < seconds * 1000) {
            const auto r = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--status"),
                                QStringLiteral("--dir"), dir});
            last = r.out + r.err;
            if (r.code == 0 && r.out.contains(want)) {
                return r.out;
            }
            QThread::msleep(300);
        }
        qWarning("status never said \"%s\"; last:\n%s", want.constData(), last.constData());
        return {};
    }

    QString jobOf(const QString& dir) const {
        QFile f(QDir(dir).filePath(QStringLiteral("sweep.json")));
        if (!f.open(QIODevice::ReadOnly)) {
            return {};
        }
        const QJsonArray subs = QJsonDocument::fromJson(f.readAll())[u"submissions"].toArray();
        return subs.isEmpty() ? QString() : subs.last()[u"job"].toString();
    }

private Q_SLOTS:
    void initTestCase() {
        if (::geteuid() != 0) {
            QSKIP("starting slurmctld, slurmd and munged needs root (CI runs as root)");
        }
        QVERIFY(m_dir.isValid());
        m_cluster = path(QStringLiteral("cluster"));
        QVERIFY(QDir().mkpath(m_cluster));
        m_started = true; // stop whatever did start, even if not all of it did
        QByteArray out;
        QVERIFY2(clusterCommand(QStringLiteral("start"), m_cluster, &out) == 0, out.constData());
        qputenv("SLURM_CONF", QDir(m_cluster).filePath(QStringLiteral("slurm.conf")).toUtf8());
        m_study = test::writeStudy(QDir(m_dir.path()), QStringLiteral("s"));
        m_oneNode = path(QStringLiteral("one-node.ledger"));
        const auto r = cli({QStringLiteral("run"), m_study, QStringLiteral("--all"),
                            QStringLiteral("--ledger"), m_oneNode});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void cleanupTestCase() {
        if (m_started) {
            QByteArray out;
            QCOMPARE(clusterCommand(QStringLiteral("stop"), m_cluster, &out), 0);
        }
    }

    // The script as Slurm reads it: sbatch --test-only accepts it; --dry-run writes nothing.
    void dryRunPrintsAScriptSlurmAccepts() {
        const QString dir = path(QStringLiteral("dry"));
        const auto r =
            cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                 QStringLiteral("--shards"), QStringLiteral("3"), QStringLiteral("--dry-run"),
                 QStringLiteral("--partition"), QStringLiteral("debug"), QStringLiteral("--time"),
                 QStringLiteral("10"), QStringLiteral("--extra"), QStringLiteral("--nice=5 -c 1"),
                 QStringLiteral("--dir"), dir});
        QVERIFY2(r.code == 0, r.err.constData());
        for (const char* line :
             {"#SBATCH --array=1-3\n", "#SBATCH --partition=debug\n", "#SBATCH --time=10\n",
              "#SBATCH --nice=5\n", "#SBATCH -c 1\n", "--shard \"$SLURM_ARRAY_TASK_ID/3\""}) {
            QVERIFY2(r.out.contains(line), line);
        }
        QVERIFY(!QFile::exists(dir));
        const QString script = path(QStringLiteral("dry.sbatch"));
        QVERIFY(test::writeFile(script, r.out));
        QProcess sbatch;
        sbatch.setProcessChannelMode(QProcess::MergedChannels);
        sbatch.start(QStringLiteral("sbatch"), {QStringLiteral("--test-only"), script});
        QVERIFY(sbatch.waitForFinished(60000));
        QVERIFY2(sbatch.exitCode() == 0, sbatch.readAll().constData());
    }

    // Three array tasks record three shards; merged, they are the one-node run.
    void threeShardSweepIsTheOneNodeRun() {
        const QString dir = path(QStringLiteral("sweep"));
        const auto r =
            cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                 QStringLiteral("--shards"), QStringLiteral("3"), QStringLiteral("--dir"), dir});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("submitted Slurm job"), r.out.constData());
        const QByteArray done = waitForStatus(dir, "3 complete");
        QVERIFY(!done.isEmpty());
        QVERIFY2(done.contains("3/3 runs"), done.constData());
        const QString merged = path(QStringLiteral("merged.ledger"));
        const auto m = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--merge"),
                            QStringLiteral("--dir"), dir, QStringLiteral("-o"), merged});
        QVERIFY2(m.code == 0, m.err.constData());
        QVERIFY2(m.out.contains("3 shards merged, 3 runs of 37 items"), m.out.constData());
        QVERIFY(test::sameAsOneNode(m_oneNode, merged));
        // Without the Slurm tools (a laptop with the sweep folder): states from the ledgers
        // alone, said so; a complete sweep still merges.
        auto noSlurm = QProcessEnvironment::systemEnvironment();
        noSlurm.insert(QStringLiteral("PATH"), path(QStringLiteral("no-tools")));
        const auto away = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--status"),
                               QStringLiteral("--dir"), dir},
                              noSlurm);
        QVERIFY2(away.code == 0, away.err.constData());
        QVERIFY2(away.out.contains("the scheduler could not be asked") &&
                     away.out.contains("3 complete"),
                 away.out.constData());
        const auto offline = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--merge"),
                                  QStringLiteral("--dir"), dir, QStringLiteral("-o"),
                                  path(QStringLiteral("merged-offline.ledger"))},
                                 noSlurm);
        QVERIFY2(offline.code == 0, offline.err.constData());
        // A second submission into the same folder is refused.
        const auto again =
            cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                 QStringLiteral("--shards"), QStringLiteral("3"), QStringLiteral("--dir"), dir});
        QCOMPARE(again.code, 1);
        QVERIFY2(again.err.contains("submitted already"), again.err.constData());
    }

    // scancel of a task mid-run: --status names it failed, --resubmit-failed runs it again,
    // it resumes from its ledger, and the merge is still the one-node run.
    void cancelledShardResumes() {
        const QString dir = path(QStringLiteral("cancel"));
        auto slow = QProcessEnvironment::systemEnvironment();
        slow.insert(QStringLiteral("PROBAUDIT_TEST_BATCH_DELAY_MS"), QStringLiteral("150"));
        const auto r =
            cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                 QStringLiteral("--shards"), QStringLiteral("3"), QStringLiteral("--dir"), dir,
                 QStringLiteral("--probaudit"), QStringLiteral(PROBAUDIT_FAULT_ENGINE)},
                slow);
        QVERIFY2(r.code == 0, r.err.constData());
        const QString job = jobOf(dir);
        QVERIFY(!job.isEmpty());
        const QString ledger2 = QDir(dir).filePath(QStringLiteral("shard-2.ledger"));
        QElapsedTimer t;
        t.start();
        while (itemsDone(ledger2) == 0 && t.elapsed() < 120000) {
            QThread::msleep(50);
        }
        const std::int64_t before = itemsDone(ledger2);
        QVERIFY(before > 0);
        QCOMPARE(QProcess::execute(QStringLiteral("scancel"), {job + QStringLiteral("_2")}), 0);
        const QByteArray failed = waitForStatus(dir, "2 complete, 0 running, 0 queued, 1 failed");
        QVERIFY(!failed.isEmpty());
        QVERIFY2(failed.contains("CANCELLED"), failed.constData());
        const std::int64_t cut = itemsDone(ledger2);
        QVERIFY2(cut < 40, qPrintable(QString::number(cut))); // mid-run: shard 2 holds 40
        // Resubmitted without the delay: only shard 2 runs again.
        const auto again = cli({QStringLiteral("sweep"), m_study,
                                QStringLiteral("--resubmit-failed"), QStringLiteral("--dir"), dir});
        QVERIFY2(again.code == 0, again.err.constData());
        QVERIFY2(again.out.contains("resubmitted shards 2 as Slurm job"), again.out.constData());
        QVERIFY(jobOf(dir) != job);
        QVERIFY(!waitForStatus(dir, "3 complete").isEmpty());
        const QString merged = path(QStringLiteral("merged-after-cancel.ledger"));
        const auto m = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--merge"),
                            QStringLiteral("--dir"), dir, QStringLiteral("-o"), merged});
        QVERIFY2(m.code == 0, m.err.constData());
        QVERIFY(test::sameAsOneNode(m_oneNode, merged));
    }

    // The workbench's Runs view: the study's sweep (its default folder) with each shard's
    // state, first not merged, then merged into the study's ledger.
    void workbenchShowsTheSweep() {
        const auto r = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                            QStringLiteral("--shards"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString dir = path(QStringLiteral("s.sweep"));
        QVERIFY(!waitForStatus(dir, "2 complete").isEmpty());
        ui::SweepModel model;
        QAbstractItemModelTester tester(&model);
        model.setSnapshot(ui::readSweep(m_study));
        QVERIFY(model.snapshot().found);
        QCOMPARE(model.rowCount(), 2);
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(model.index(row, ui::SweepModel::StateColumn).data().toString(),
                     QStringLiteral("complete"));
            QVERIFY(model.index(row, ui::SweepModel::LedgerColumn)
                        .data()
                        .toString()
                        .startsWith(QStringLiteral("3/3 runs")));
        }
        QVERIFY2(model.summary().contains(QStringLiteral("not merged yet")),
                 qPrintable(model.summary()));
        const auto m = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--merge")});
        QVERIFY2(m.code == 0, m.err.constData());
        model.setSnapshot(ui::readSweep(m_study));
        QVERIFY2(model.summary().contains(QStringLiteral("merged into")) &&
                     model.summary().contains(QStringLiteral("s.ledger")),
                 qPrintable(model.summary()));
        // A study with no sweep: nothing to show.
        QVERIFY(!ui::readSweep(path(QStringLiteral("other.study.json"))).found);
    }

    // What Slurm refuses, a study shards cannot record, a folder with no sweep: one line, exit
    // 1, and no sweep folder left behind.
    void refusals() {
        const QString dir = path(QStringLiteral("refused"));
        const auto partition =
            cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                 QStringLiteral("--shards"), QStringLiteral("2"), QStringLiteral("--partition"),
                 QStringLiteral("nosuch"), QStringLiteral("--dir"), dir});
        QCOMPARE(partition.code, 1);
        QVERIFY2(partition.err.contains("sbatch refused the sweep") &&
                     partition.err.contains("partition"),
                 partition.err.constData());
        QCOMPARE(partition.err.count('\n'), 1);
        QVERIFY(!QFile::exists(dir));
        const auto status = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--status"),
                                 QStringLiteral("--dir"), dir});
        QCOMPARE(status.code, 1);
        QVERIFY2(status.err.contains("no sweep here"), status.err.constData());
        const auto shards = cli({QStringLiteral("sweep"), m_study, QStringLiteral("--slurm"),
                                 QStringLiteral("--dir"), dir});
        QCOMPARE(shards.code, 1);
        QVERIFY2(shards.err.contains("--shards"), shards.err.constData());
        QVERIFY(!QFile::exists(dir));
    }
};

QTEST_MAIN(TestSweep) // the sweep model tints its rows from the palette
#include "test_sweep.moc"
