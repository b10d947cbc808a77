// A sweep's pieces that need no cluster (sweep/sweep.h): what squeue, sacct and scontrol print
// parsed per array task (their documented formats, including the lines a parser must skip), the
// sweep's state file written and read back (and a damaged one refused), which job ran a shard
// last, and the batch script's refusals of what a #SBATCH line cannot carry.
#include "core/common/error.h"
#include "core/sweep/sweep.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace probaudit;

class TestSweepState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void squeueSkipsOtherJobsAndUnsplitRanges() {
        const auto t = sweep::parseSqueue("12_1|RUNNING|None\n12_[3-4]|PENDING|Priority\n"
                                          "13_2|RUNNING|None\n12_2|PENDING|Resources\njunk\n",
                                          "12");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t.at(1).state, std::string("RUNNING"));
        QCOMPARE(t.at(2).reason, std::string("Resources"));
        QVERIFY(t.at(2).live());
        QVERIFY(sweep::parseSqueue("", "12").empty());
    }

    void sacctTakesTheStateWord() {
        const auto t = sweep::parseSacct(
            "12_1|COMPLETED|0:0\n12_2|CANCELLED by 0|0:15\n12_3|FAILED|1:0\n120_1|FAILED|1:0\n",
            "12");
        QCOMPARE(t.size(), std::size_t(3));
        QCOMPARE(t.at(2).state, std::string("CANCELLED"));
        QCOMPARE(t.at(2).exitCode, std::string("0:15"));
        QVERIFY(!t.at(2).live());
        QCOMPARE(t.at(3).state, std::string("FAILED"));
    }

    void scontrolReadsKeyValues() {
        const auto t = sweep::parseScontrol(
            "JobId=14 ArrayJobId=12 ArrayTaskId=2 JobName=probaudit-s JobState=TIMEOUT "
            "Reason=TimeLimit Dependency=(null) ExitCode=0:15\n"
            "JobId=12 ArrayJobId=12 ArrayTaskId=3-4 JobState=PENDING Reason=Priority\n"
            "JobId=20 ArrayJobId=19 ArrayTaskId=1 JobState=RUNNING Reason=None\n",
            "12");
        QCOMPARE(t.size(), std::size_t(1));
        QCOMPARE(t.at(2).state, std::string("TIMEOUT"));
        QCOMPARE(t.at(2).reason, std::string("TimeLimit"));
        QCOMPARE(t.at(2).exitCode, std::string("0:15"));
    }

    void stateRoundTripsAndNamesTheLatestJob() {
        QTemporaryDir dir;
        sweep::Sweep s;
        s.study = "/data/s.study.json";
        s.probaudit = "/opt/probaudit/bin/probaudit";
        s.shards = 3;
        s.slurm.partition = "gpu";
        s.slurm.extra = "--qos=high";
        s.submissions = {{"12", {1, 2, 3}, "2026-12-02T10:00:00Z"}, {"15", {2}, "x"}};
        s.save(dir.path().toStdString());
        const sweep::Sweep back = sweep::Sweep::load(dir.path().toStdString());
        QCOMPARE(back.shards, 3);
        QCOMPARE(back.slurm.partition, std::string("gpu"));
        QCOMPARE(back.slurm.extra, std::string("--qos=high"));
        QCOMPARE(back.taskOf(1), std::string("12_1"));
        QCOMPARE(back.taskOf(2), std::string("15_2"));
        QCOMPARE(back.taskOf(4), std::string());
    }

    void damagedStateIsRefused_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("not a sweep state");
        QTest::newRow("other version")
            << QByteArray("{\"version\":2,\"scheduler\":\"slurm\"}") << QStringLiteral("version");
        QTest::newRow("shard outside")
            << QByteArray("{\"version\":1,\"scheduler\":\"slurm\",\"study\":\"s\",\"probaudit\":"
                          "\"p\",\"shards\":2,\"slurm\":{\"partition\":\"\",\"gres\":\"\","
                          "\"time\":\"\",\"account\":\"\",\"extra\":\"\"},\"submissions\":[{"
                          "\"job\":\"1\",\"shards\":[3],\"at\":\"\"}]}")
            << QStringLiteral("names shard 3 of 2");
    }
    void damagedStateIsRefused() {
        QFETCH(QByteArray, text);
        QFETCH(QString, why);
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("sweep.json")).toStdString()) << text.constData();
        try {
            sweep::Sweep::load(dir.path().toStdString());
            QFAIL("a damaged sweep.json was read");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(why), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("sweep.json")), e.what());
        }
    }

    void scriptRefusesWhatALineCannotCarry_data() {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("partition");
        QTest::addColumn<QString>("why");
        QTest::newRow("space in folder") << "/tmp/my sweep"
                                         << ""
                                         << ""
                                         << "whitespace";
        QTest::newRow("percent in folder") << "/tmp/a%j"
                                           << ""
                                           << ""
                                           << "'%'";
        QTest::newRow("line break in extra") << "/tmp/s"
                                             << "--qos=a\n--x"
                                             << ""
                                             << "one line";
        QTest::newRow("two words") << "/tmp/s"
                                   << ""
                                   << "gpu debug"
                                   << "one word";
    }
    void scriptRefusesWhatALineCannotCarry() {
        QFETCH(QString, dir);
        QFETCH(QString, extra);
        QFETCH(QString, partition);
        QFETCH(QString, why);
        sweep::Sweep s;
        s.study = "/data/s.study.json";
        s.probaudit = "/opt/probaudit";
        s.shards = 2;
        s.slurm.extra = extra.toStdString();
        s.slurm.partition = partition.toStdString();
        try {
            sweep::slurmScript(s, dir.toStdString());
            QFAIL("the script was written");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(why), e.what());
        }
    }

    // A study file named with a line break would end the script's comment line and run the
    // rest of its name as a command: refused, whatever else the name holds.
    void scriptRefusesALineBreakInTheStudyName() {
        sweep::Sweep s;
        s.study = "/data/x\nreboot\n.study.json"; // the folder is plain: /data
        s.probaudit = "/opt/probaudit";
        s.shards = 2;
        try {
            const std::string script = sweep::slurmScript(s, "/data/s.sweep");
            QFAIL(script.c_str());
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("line break")), e.what());
        }
        s.study = "/data/x.study.json";
        s.probaudit = "/opt/probaudit\r\nrm -rf /";
        QVERIFY_THROWS_EXCEPTION(Error, sweep::slurmScript(s, "/data/s.sweep"));
    }

    void scriptQuotesThePaths() {
        sweep::Sweep s;
        s.study = "/data/it's.study.json";
        s.probaudit = "/opt/probaudit";
        s.shards = 4;
        const std::string script = sweep::slurmScript(s, "/data/s.sweep");
        QVERIFY(script.find("'/data/it'\\''s.study.json'") != std::string::npos);
        QVERIFY(script.find("#SBATCH --array=1-4\n") != std::string::npos);
        QVERIFY(script.find("#SBATCH --partition") == std::string::npos); // unset: left out
        QCOMPARE(sweep::defaultSweepDir("/data/x.study.json"), std::string("/data/x.sweep"));
    }
};

QTEST_APPLESS_MAIN(TestSweepState)
#include "test_sweep_state.moc"
