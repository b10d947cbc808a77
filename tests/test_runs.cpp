// The workbench runs configs in the real engine (a child process) on the tiny fixtures: the
// progress panel follows the engine's events, Cancel stops after a batch, an engine error and
// an engine crash each reach the user as one sentence, and in every case the ledger keeps each
// finished batch. The config matrix editor checks edits with the engine's rules and writes a
// study that loads.
#include "core/analysis/review.h"
#include "core/bundle/bundle.h"
#include "core/ledger/ledger.h"
#include "core/study/study.h"
#include "free_port.h"
#include "private_settings.h"
#include "ui/models/dashboardmodel.h"
#include "ui/models/reviewloader.h"
#include "ui/models/runsmodel.h"
#include "ui/pages/configeditor.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/enginesettings.h"
#include "ui/pages/mainwindow.h"
#include "ui/pages/newstudydialog.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/runcontroller.h"
#include "ui/pages/runpanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace probaudit;
using namespace probaudit::ui;

namespace {

const QString kFixtures = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures");

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A study on the tiny BERT fixture: `items` items, configs "ref" (batch 1) and "b4" (batch 4).
QString writeStudy(const QDir& dir, int items) {
    QByteArray data;
    const char* words[] = {"good", "bad", "food", "service", "slow", "great", "never", "again"};
    for (int i = 0; i < items; ++i) {
        QByteArray text;
        for (int w = 0; w <= (i * 5) % 11; ++w) {
            text += QByteArray(words[(i + w) % 8]) + ' ';
        }
        data += "{\"id\":\"item-" + QByteArray::number(i) + "\",\"text\":\"" + text +
                QByteArray::number(i) + "\",\"label\":" + QByteArray::number(i % 2) + "}\n";
    }
    write(dir.filePath(QStringLiteral("data.jsonl")), data);
    const QString study = dir.filePath(QStringLiteral("t.study.json"));
    write(study,
          QStringLiteral("{\"name\":\"t\",\"model\":{\"path\":\"%1/tiny-bert\"},"
                         "\"heads\":{\"mean\":{\"kind\":\"adapter\",\"path\":\"%1/adapters/"
                         "tiny-bert-mean.safetensors\"}},"
                         "\"dataset\":{\"path\":\"data.jsonl\"},\"capture\":\"hashes\","
                         "\"configs\":{\"ref\":{\"batch_size\":1},\"b4\":{\"batch_size\":4}},"
                         "\"reference\":\"ref\"}")
              .arg(kFixtures)
              .toUtf8());
    return study;
}

struct Ended {
    RunController::Outcome outcome;
    QString message;
};

Ended runToEnd(RunController& rc, const QString& study, const QString& ledger,
               const QStringList& configs) {
    QSignalSpy finished(&rc, &RunController::finished);
    if (!rc.start(study, ledger, configs)) {
        return {RunController::Outcome::Failed, QStringLiteral("did not start")};
    }
    if (!finished.wait(240000)) {
        return {RunController::Outcome::Failed, QStringLiteral("timed out")};
    }
    return {finished.first().at(0).value<RunController::Outcome>(),
            finished.first().at(1).toString()};
}

} // namespace

class TestRuns : public QObject {
    Q_OBJECT
    probaudit::testing::PrivateSettings m_settings;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ProbAuditTest"));
        QVERIFY(m_settings.active());
        qRegisterMetaType<RunController::Outcome>();
    }

    // A full run: the panel's bars reach the item count, the ledger has both runs sealed.
    void runToTheEnd() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 24);
        const QString ledger = dir.filePath(QStringLiteral("t.ledger"));
        RunController rc;
        RunPanel panel(&rc);
        panel.begin({QStringLiteral("ref"), QStringLiteral("b4")});
        QSignalSpy started(&rc, &RunController::runStarted);
        QSignalSpy progress(&rc, &RunController::progress);
        const Ended end =
            runToEnd(rc, study, ledger, {QStringLiteral("ref"), QStringLiteral("b4")});
        QCOMPARE(end.outcome, RunController::Outcome::Finished);
        QCOMPARE(started.count(), 2);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(1).toLongLong(), 24);
        for (const QString& c : {QStringLiteral("ref"), QStringLiteral("b4")}) {
            QProgressBar* bar = panel.barOf(c);
            QVERIFY(bar);
            QCOMPARE(bar->value(), 24);
            QCOMPARE(bar->maximum(), 24);
        }
        QCOMPARE(panel.statusText(), QStringLiteral("All runs finished."));
        const auto rv = analysis::loadReview(ledger.toStdString());
        QCOMPARE(rv.rows.size(), std::size_t(2));
        QVERIFY(rv.rows[1].cmp.has_value());
        QCOMPARE(rv.rows[1].cmp->items, std::int64_t(24));
        QCOMPARE(QString::fromStdString(rv.study_path), QFileInfo(study).absoluteFilePath());
        // The run recorded the study file's digest: a bundle may pack this file, and no other.
        QCOMPARE(bundle::studyFileProblem(study, ledger), QString());
        QFile edited(study);
        QVERIFY(edited.open(QIODevice::Append));
        edited.write("\n");
        edited.close();
        QVERIFY(
            bundle::studyFileProblem(study, ledger).contains(QStringLiteral("is not the study")));
    }

    // Settings → Engine names another host: the run happens there (through a real sshd on
    // 127.0.0.1, started as root by tests/ssh_server.py and stopped by its pid file), the study
    // found under the remote folder; progress arrives as for a local run and the finished runs
    // come back into the ledger here, with the numbers a local run records.
    void remoteEngineBringsRunsHere() {
        if (::geteuid() != 0) {
            QSKIP("starting sshd needs root (CI runs as root)");
        }
        QTemporaryDir dir;
        const QString server = dir.filePath(QStringLiteral("sshd"));
        const QString helper = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/ssh_server.py");
        struct Stop {
            QString helper, server;
            ~Stop() {
                QProcess::execute(QStringLiteral("python3"),
                                  {helper, QStringLiteral("stop"), server});
                EngineSettings{}.save(); // this computer again
            }
        } stop{helper, server};
        QProcess start;
        start.start(QStringLiteral("python3"), {helper, QStringLiteral("start"), server});
        QVERIFY(start.waitForFinished(60000));
        QVERIFY2(start.exitCode() == 0, start.readAllStandardError().constData());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("remote")));
        const QString remoteStudy = writeStudy(QDir(dir.filePath(QStringLiteral("remote"))), 24);
        EngineSettings e;
        e.url = QStringLiteral("ssh://probaudit-test");
        e.remoteProbaudit = EngineClient::enginePath();
        e.sshConfig = QString::fromUtf8(start.readAllStandardOutput()).trimmed();
        e.localFolder = dir.filePath(QStringLiteral("here"));
        e.remoteFolder = dir.filePath(QStringLiteral("remote"));
        e.save();
        const QString localStudy = dir.filePath(QStringLiteral("here/t.study.json"));
        QCOMPARE(EngineSettings::load().remoteStudyPath(localStudy), remoteStudy);
        RunController rc;
        QSignalSpy progress(&rc, &RunController::progress);
        const QString ledger = dir.filePath(QStringLiteral("remote-run.ledger"));
        const Ended end =
            runToEnd(rc, localStudy, ledger, {QStringLiteral("ref"), QStringLiteral("b4")});
        QVERIFY2(end.outcome == RunController::Outcome::Finished, qPrintable(end.message));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(1).toLongLong(), 24);
        // Study → Diagnose on that engine: its probes report here, the diagnosis lands here.
        QSignalSpy started(&rc, &RunController::runStarted);
        QSignalSpy finished(&rc, &RunController::finished);
        QVERIFY(rc.startDiagnosis(localStudy, ledger));
        QVERIFY(finished.wait(240000));
        QVERIFY2(finished.first().at(0).value<RunController::Outcome>() ==
                     RunController::Outcome::Finished,
                 qPrintable(finished.first().at(1).toString()));
        QVERIFY(started.size() >= 10);
        {
            const auto rv = analysis::loadReview(ledger.toStdString());
            QVERIFY(rv.diagnosis.has_value());
            QCOMPARE(rv.diagnosis->ladder.size(), std::size_t(5)); // the cause rung last
            QCOMPARE(rv.diagnosis->ladder.back().step, std::string("cause"));
            QVERIFY(rv.reference_run && rv.diagnosis->reference_run == rv.reference_run->id);
        }
        EngineSettings{}.save();
        const QString here = dir.filePath(QStringLiteral("local-run.ledger"));
        QCOMPARE(
            runToEnd(rc, remoteStudy, here, {QStringLiteral("ref"), QStringLiteral("b4")}).outcome,
            RunController::Outcome::Finished);
        const ledger::Ledger remote(ledger.toStdString(), ledger::Ledger::Mode::Read);
        const ledger::Ledger local(here.toStdString(), ledger::Ledger::Mode::Read);
        QCOMPARE(remote.meta("recorded_on"), std::string("ssh://probaudit-test"));
        QCOMPARE(local.meta("recorded_on"), std::string());
        QVERIFY(remote.runs().size() > 10); // the two runs, then the probes
        for (std::size_t k = 0; k < 2; ++k) {
            QCOMPARE(remote.runs()[k].numerics_sha256, local.runs()[k].numerics_sha256);
        }
    }

    // An endpoint run's row ends with what the server did: items/s and requests in flight.
    void endpointRunShowsItsServing() {
        RunController rc;
        RunPanel panel(&rc);
        panel.begin({QStringLiteral("c4")});
        Q_EMIT rc.runStarted(7, QStringLiteral("c4"), 12, 0);
        Q_EMIT rc.servingMeasured(7, 3.5, 2.75);
        auto* rate = panel.findChild<QLabel*>(QStringLiteral("runRate-c4"));
        QVERIFY(rate);
        QVERIFY2(rate->text().contains(QStringLiteral("3.50 items/s")) &&
                     rate->text().contains(QStringLiteral("2.75 requests in flight")),
                 qPrintable(rate->text()));
    }

    // The Runs view of an endpoint ledger: each run's serving as its stored exchanges say
    // (items/s, requests in flight, in the tooltip latency and retries), and the environment's
    // tooltip is the server's (address, model, system_fingerprint, declared labels), not a
    // libtorch build. An engine-style run without exchanges has an empty Serving cell.
    void runsViewShowsEndpointServing() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("e.ledger")).toStdString();
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            std::vector<ledger::Item> items;
            for (int i = 0; i < 4; ++i) {
                items.push_back({i, "i" + std::to_string(i), "text", i % 2, i + 1});
            }
            led.initStudy(nlohmann::json{{"name", "e"},
                                         {"reference", "c2"},
                                         {"model",
                                          {{"endpoint", "http://127.0.0.1:9/v1"},
                                           {"format", "endpoint"},
                                           {"name", "m"}}},
                                         {"configs", {{"c2", {{"concurrency", 2}}}}},
                                         {"heads", {{"yes-no", {{"kind", "label_tokens"}}}}}},
                          "abc", items);
            led.putConfig("h2", "c2", nlohmann::json{{"concurrency", 2}});
            const std::string env = led.putEnvironment(
                {{"kind", "endpoint"},
                 {"endpoint",
                  {{"url", "http://127.0.0.1:9/v1"}, {"api", "completions"}, {"model", "m"}}},
                 {"server", {{"models", {"m"}}, {"system_fingerprint", "fp_42"}}},
                 {"labels", {{"server", "vllm 0.11 --enable-prefix-caching"}}}});
            const auto run = led.beginRun("yes-no", nlohmann::json{{"kind", "label_tokens"}}, "c2",
                                          "h2", env, "none", 4);
            std::vector<ledger::Record> recs;
            std::vector<ledger::RequestRecord> reqs;
            for (int i = 0; i < 4; ++i) {
                ledger::Record r;
                r.item = i;
                r.probs = {0.25f, 0.75f};
                r.logits = {-1.0f, -0.25f};
                r.decision = 1;
                r.margin = 0.75f;
                recs.push_back(r);
                // Two at a time, each 1 s: 4 items in 2 s, 2 in flight throughout.
                const double t = double(i / 2);
                reqs.push_back(
                    {i,
                     nlohmann::json{{"session", 1000},
                                    {"attempts", {{{"sent", t}, {"done", t + 1}, {"status", 200}}}}}
                         .dump()});
            }
            led.appendEndpointItems(run, recs, {}, reqs);
            led.finishRun(run);
        }
        const ReviewPtr rv = ReviewLoader::loadNow(QString::fromStdString(path));
        QVERIFY(rv);
        RunsModel model;
        QAbstractItemModelTester tester(&model);
        model.setReview(rv);
        QCOMPARE(model.rowCount(), 1);
        const QString serving = model.index(0, RunsModel::ServingColumn).data().toString();
        QVERIFY2(serving.contains(QStringLiteral("2.00 items/s")) &&
                     serving.contains(QStringLiteral("2.00 in flight")),
                 qPrintable(serving));
        const QString tip =
            model.index(0, RunsModel::ServingColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("latency median 1.000 s")), qPrintable(tip));
        const QString env =
            model.index(0, RunsModel::EnvironmentColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(env.contains(QStringLiteral("fp_42")) &&
                     env.contains(QStringLiteral("vllm 0.11 --enable-prefix-caching")) &&
                     !env.contains(QStringLiteral("libtorch")),
                 qPrintable(env));
        QCOMPARE(model.headerData(RunsModel::ServingColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Serving"));
    }

    // Study → Diagnose: the ladder runs in the engine, each probe reported by what it probes,
    // and the diagnosis is in the ledger afterwards.
    void diagnosisRunsInTheEngine() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 24);
        const QString ledger = dir.filePath(QStringLiteral("t.ledger"));
        RunController rc;
        QCOMPARE(
            int(runToEnd(rc, study, ledger, {QStringLiteral("ref"), QStringLiteral("b4")}).outcome),
            int(RunController::Outcome::Finished));
        QSignalSpy started(&rc, &RunController::runStarted);
        QSignalSpy finished(&rc, &RunController::finished);
        QVERIFY(rc.startDiagnosis(study, ledger));
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.first().at(0).value<RunController::Outcome>(),
                 RunController::Outcome::Finished);
        QStringList probes;
        for (const auto& args : started) {
            probes << args.at(1).toString();
        }
        QVERIFY2(probes.contains(QStringLiteral("reference, first")),
                 qPrintable(probes.join(u',')));
        QVERIFY(probes.size() >= 10);
        const auto rv = analysis::loadReview(ledger.toStdString());
        QVERIFY(rv.diagnosis.has_value());
        QCOMPARE(rv.diagnosis->ladder.size(), std::size_t(5)); // the cause rung last
        QCOMPARE(rv.diagnosis->ladder.back().step, std::string("cause"));
        QCOMPARE(rv.diagnosis->sample, std::int64_t(24));
        QVERIFY(rv.reference_run && rv.diagnosis->reference_run == rv.reference_run->id);
    }

    void cancelKeepsFinishedBatches() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 400);
        const QString ledger = dir.filePath(QStringLiteral("t.ledger"));
        RunController rc;
        rc.setExtraEnvironment({QStringLiteral("PROBAUDIT_TEST_BATCH_DELAY_MS=40")});
        QSignalSpy finished(&rc, &RunController::finished);
        connect(&rc, &RunController::progress, &rc, [&rc](qint64, qint64 done, qint64) {
            if (done >= 8) {
                rc.cancel();
            }
        });
        QVERIFY(rc.start(study, ledger, {QStringLiteral("ref")}));
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.first().at(0).value<RunController::Outcome>(),
                 RunController::Outcome::Cancelled);
        QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("kept")));
        const ledger::Ledger led(ledger.toStdString(), ledger::Ledger::Mode::Read);
        const auto runs = led.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, ledger::RunStatus::Interrupted);
        QVERIFY(runs[0].items_done >= 8 && runs[0].items_done < 400);
        QCOMPARE(std::int64_t(led.records(runs[0].id, false).size()), runs[0].items_done);
    }

    void engineErrorAndCrash_data() {
        QTest::addColumn<QString>("hook");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("says");
        QTest::newRow("error") << "PROBAUDIT_TEST_FAIL_AFTER_BATCHES=3"
                               << int(RunController::Outcome::Failed)
                               << "test failure after 3 batches";
        QTest::newRow("crash") << "PROBAUDIT_TEST_CRASH_AFTER_BATCHES=3"
                               << int(RunController::Outcome::Crashed) << "stopped unexpectedly";
    }
    void engineErrorAndCrash() {
        QFETCH(QString, hook);
        QFETCH(int, outcome);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 40);
        const QString ledger = dir.filePath(QStringLiteral("t.ledger"));
        RunController rc;
        RunPanel panel(&rc);
        panel.begin({QStringLiteral("b4")});
        rc.setExtraEnvironment({hook});
        const Ended end = runToEnd(rc, study, ledger, {QStringLiteral("b4")});
        QCOMPARE(int(end.outcome), outcome);
        QVERIFY2(end.message.contains(says), qPrintable(end.message));
        QVERIFY(end.message.contains(QStringLiteral("kept")));
        QCOMPARE(panel.statusText(), end.message);
        // Three committed batches of 4 stay in the ledger, and the ledger verifies.
        const ledger::Ledger led(ledger.toStdString(), ledger::Ledger::Mode::Read);
        const auto runs = led.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].items_done, std::int64_t(12));
        QCOMPARE(led.records(runs[0].id, false).size(), std::size_t(12));
        QVERIFY(led.verify().ok);
        // Run again without the hook: it resumes and finishes.
        RunController again;
        QCOMPARE(runToEnd(again, study, ledger, {QStringLiteral("b4")}).outcome,
                 RunController::Outcome::Finished);
    }

    // The main window runs configs, then shows the new results.
    void windowRunsAndReloads() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 16);
        const QString ledger = dir.filePath(QStringLiteral("t.ledger"));
        RunController first;
        QCOMPARE(runToEnd(first, study, ledger, {QStringLiteral("ref")}).outcome,
                 RunController::Outcome::Finished);
        MainWindow window;
        window.show();
        QSignalSpy loaded(window.loader(), &ReviewLoader::loaded);
        window.openStudyFile(ledger);
        QVERIFY(loaded.wait(30000));
        const auto* rows = window.reviewPage()->dashboardModel();
        QCOMPARE(rows->rowCount(), 2);
        QVERIFY(!window.reviewPage()->review()->rows[1].run); // b4 not run yet
        QSignalSpy done(window.runController(), &RunController::finished);
        QVERIFY(window.runConfigs({QStringLiteral("b4")}));
        QVERIFY(done.wait(240000));
        QVERIFY(loaded.wait(30000)); // reloaded after the run
        QVERIFY(window.reviewPage()->review()->rows[1].cmp.has_value());
    }

    // New Study validates as the fields change and writes a study the runner accepts.
    void newStudyForm() {
        QTemporaryDir dir;
        writeStudy(QDir(dir.path()), 8); // for its dataset
        NewStudyDialog d;
        QVERIFY(!d.validateNow()); // empty
        d.nameEdit()->setText(QStringLiteral("fresh"));
        d.modelEdit()->setText(QStringLiteral("/nonexistent/model"));
        d.datasetEdit()->setText(dir.filePath(QStringLiteral("data.jsonl")));
        d.labelsEdit()->setText(QStringLiteral("negative, positive"));
        d.headPathEdit()->setText(kFixtures +
                                  QStringLiteral("/adapters/tiny-bert-mean.safetensors"));
        d.outputEdit()->setText(dir.filePath(QStringLiteral("fresh.study.json")));
        QVERIFY(!d.validateNow());
        QVERIFY2(d.problems().join(u'\n').contains(QStringLiteral("/nonexistent/model")),
                 qPrintable(d.problems().join(u'\n')));
        d.modelEdit()->setText(kFixtures + QStringLiteral("/tiny-bert"));
        QVERIFY2(d.validateNow(), qPrintable(d.problems().join(u'\n')));
        // Label words need a prompt with {text}.
        d.headKind()->setCurrentIndex(d.headKind()->findData(QStringLiteral("label_tokens")));
        d.templateEdit()->setText(QStringLiteral("no placeholder"));
        QVERIFY(!d.validateNow());
        d.headKind()->setCurrentIndex(d.headKind()->findData(QStringLiteral("adapter")));
        QVERIFY(d.validateNow());
        QSignalSpy created(&d, &NewStudyDialog::created);
        const QString path = d.create();
        QCOMPARE(path, dir.filePath(QStringLiteral("fresh.study.json")));
        QCOMPARE(created.count(), 1);
        const auto s = study::Study::load(path.toStdString());
        QCOMPARE(s.name, std::string("fresh"));
        QCOMPARE(s.reference, std::string("reference"));
        QCOMPARE(s.configs.size(), std::size_t(8)); // the reference, six standard, the exact
        QCOMPARE(s.config("batch-8-left")->config.padding_side, PaddingSide::Left);
    }

    // A server as the model: its URL, model name, API and key variable; its request configs;
    // "Test connection" answers with one sentence (here: nobody listens there).
    void newStudyFormForAServer() {
        QTemporaryDir dir;
        writeStudy(QDir(dir.path()), 8); // for its dataset
        NewStudyDialog d;
        d.sourceBox()->setCurrentIndex(d.sourceBox()->findData(QStringLiteral("endpoint")));
        QVERIFY(!d.modelEdit()->isVisibleTo(&d));
        QCOMPARE(d.headKind()->currentData().toString(), QStringLiteral("label_tokens"));
        d.nameEdit()->setText(QStringLiteral("served"));
        d.urlEdit()->setText(QStringLiteral("http://user:pw@127.0.0.1:1/v1"));
        d.serverModelEdit()->setText(QStringLiteral("smollm2"));
        d.datasetEdit()->setText(dir.filePath(QStringLiteral("data.jsonl")));
        d.labelsEdit()->setText(QStringLiteral("No, Yes"));
        d.templateEdit()->setText(QStringLiteral("Review: {text}\nPositive?"));
        d.outputEdit()->setText(dir.filePath(QStringLiteral("served.study.json")));
        QVERIFY(!d.validateNow());
        QVERIFY2(d.problems().join(u'\n').contains(QStringLiteral("credentials")),
                 qPrintable(d.problems().join(u'\n')));
        const QString url =
            QStringLiteral("http://127.0.0.1:%1/v1").arg(probaudit::testing::freePort());
        d.urlEdit()->setText(url);
        QVERIFY2(d.validateNow(), qPrintable(d.problems().join(u'\n')));
        QSignalSpy tested(&d, &NewStudyDialog::connectionTested);
        d.testConnectionButton()->click();
        QVERIFY(tested.wait(30000));
        QCOMPARE(tested.first().at(0).toBool(), false);
        QVERIFY2(d.serverStatus()->text().contains(QStringLiteral("cannot reach")),
                 qPrintable(d.serverStatus()->text()));
        // The key's variable, when named, must be set before anything is sent.
        d.keyEnvEdit()->setText(QStringLiteral("PROBAUDIT_TEST_UNSET_KEY"));
        d.testConnectionButton()->click();
        QVERIFY(tested.wait(30000));
        QVERIFY2(d.serverStatus()->text().contains(QStringLiteral("PROBAUDIT_TEST_UNSET_KEY")),
                 qPrintable(d.serverStatus()->text()));
        const QString path = d.create();
        QVERIFY(!path.isEmpty());
        const auto s = study::Study::load(path.toStdString());
        QVERIFY(s.isEndpoint());
        QCOMPARE(s.endpoint.url, url.toStdString());
        QCOMPARE(s.endpoint.api_key_env, std::string("PROBAUDIT_TEST_UNSET_KEY"));
        QCOMPARE(s.configs.size(), std::size_t(5)); // the reference and four request configs
        QCOMPARE(s.config("concurrency-4")->config.concurrency, std::int64_t(4));
        QCOMPARE(s.config("warm-cache")->config.prefix_cache, PrefixCache::Warm);
    }

    // The transformers runner as the source: the interpreter is checked by starting the runner
    // there (it reports Python, torch and transformers, or says why not), every config runs in
    // that environment, and a model of any architecture is read by its config.json.
    void newStudyFormForTheTransformersRunner() {
        QTemporaryDir dir;
        writeStudy(QDir(dir.path()), 8); // for its dataset
        NewStudyDialog d;
        d.sourceBox()->setCurrentIndex(d.sourceBox()->findData(QStringLiteral("transformers")));
        QVERIFY(d.pythonEdit()->isVisibleTo(&d));
        QVERIFY(d.modelEdit()->isVisibleTo(&d));
        QVERIFY(!d.urlEdit()->isVisibleTo(&d));
        d.nameEdit()->setText(QStringLiteral("reference"));
        d.modelEdit()->setText(kFixtures + QStringLiteral("/tiny-bert"));
        d.datasetEdit()->setText(dir.filePath(QStringLiteral("data.jsonl")));
        d.labelsEdit()->setText(QStringLiteral("negative, positive"));
        d.headPathEdit()->setText(kFixtures +
                                  QStringLiteral("/adapters/tiny-bert-mean.safetensors"));
        d.outputEdit()->setText(dir.filePath(QStringLiteral("reference.study.json")));
        QSignalSpy checked(&d, &NewStudyDialog::interpreterChecked);
        d.pythonEdit()->setText(dir.filePath(QStringLiteral("no-such-python")));
        d.checkInterpreterButton()->click();
        QVERIFY(checked.wait(30000));
        QCOMPARE(checked.takeFirst().at(0).toBool(), false);
        QVERIFY2(d.interpreterStatus()->text().contains(QStringLiteral("no such interpreter")),
                 qPrintable(d.interpreterStatus()->text()));
        const QString python = QStringLiteral(PROBAUDIT_SOURCE_DIR "/.venv/bin/python");
        if (!QFileInfo::exists(python)) {
            QSKIP(".venv has no Python (./scripts/setup makes it)");
        }
        d.pythonEdit()->setText(python);
        d.checkInterpreterButton()->click();
        QVERIFY(checked.wait(120000));
        QVERIFY2(checked.takeFirst().at(0).toBool(), qPrintable(d.interpreterStatus()->text()));
        QVERIFY2(d.interpreterStatus()->text().contains(QStringLiteral("torch ")) &&
                     d.interpreterStatus()->text().contains(QStringLiteral("transformers ")),
                 qPrintable(d.interpreterStatus()->text()));
        QVERIFY2(d.validateNow(), qPrintable(d.problems().join(u'\n')));
        const QString path = d.create();
        QVERIFY(!path.isEmpty());
        const auto s = study::Study::load(path.toStdString());
        QCOMPARE(s.environments.size(), std::size_t(1));
        QCOMPARE(s.environments[0].python, python.toStdString());
        QCOMPARE(s.configs.size(), std::size_t(8));
        for (const auto& c : s.configs) {
            QCOMPARE(c.config.runner, Runner::Transformers);
            QCOMPARE(c.config.env, std::string("python"));
        }
    }

    void configEditor() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), 8);
        ConfigEditor editor(study);
        QVERIFY(editor.isLoaded());
        ConfigMatrixModel* m = editor.model();
        QAbstractItemModelTester tester(m);
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->reference(), QStringLiteral("ref"));
        const int b4 = m->configName(0) == QLatin1String("b4") ? 0 : 1;
        QCOMPARE(m->differences(b4), QStringList{QStringLiteral("batch_size")});
        const int dtypeCol = int(m->axes().indexOf(QStringLiteral("dtype"))) + 1;
        const int batchCol = int(m->axes().indexOf(QStringLiteral("batch_size"))) + 1;
        QVERIFY(m->index(b4, batchCol).data(ConfigMatrixModel::DiffersRole).toBool());
        QVERIFY(!m->index(b4, dtypeCol).data(ConfigMatrixModel::DiffersRole).toBool());
        // The engine's rules refuse what it could not run.
        QSignalSpy rejected(m, &ConfigMatrixModel::rejected);
        QVERIFY(!m->setData(m->index(b4, dtypeCol), QStringLiteral("float8")));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.first().at(0).toString().contains(QStringLiteral("float8")));
        QVERIFY(!m->setData(m->index(b4, batchCol), QStringLiteral("four")));
        // A new config: bfloat16, named, saved; the study loads with it.
        const int row = m->addConfig(m->configName(0) == QLatin1String("ref") ? 0 : 1);
        QVERIFY(m->setData(m->index(row, 0), QStringLiteral("bf16")));
        QVERIFY(m->setData(m->index(row, dtypeCol), QStringLiteral("bfloat16")));
        QCOMPARE(m->differences(row), QStringList{QStringLiteral("dtype")});
        // The serving simulation's axes are columns too; a decision study refuses them.
        const int concCol = int(m->axes().indexOf(QStringLiteral("concurrency"))) + 1;
        QVERIFY(concCol > 0);
        QVERIFY(m->setData(m->index(row, concCol), QStringLiteral("4")));
        QVERIFY(m->differences(row).contains(QStringLiteral("concurrency")));
        QVERIFY(!editor.save());
        QVERIFY(m->setData(m->index(row, concCol), QStringLiteral("1")));
        QVERIFY(!m->removeConfig(b4 == 0 ? 1 : 0)); // the reference stays
        QVERIFY(editor.save());
        const auto s = study::Study::load(study.toStdString());
        QCOMPARE(s.configs.size(), std::size_t(3));
        QVERIFY(s.config("bf16") != nullptr);
        QCOMPARE(s.config("bf16")->config.dtype, Dtype::BFloat16);
        QCOMPARE(s.config("b4")->config.batch_size, std::int64_t(4));
        QVERIFY(QFileInfo::exists(study + QStringLiteral(".bak")));
        // A study that would not load is not written: point the reference nowhere.
        m->setReference(row);
        QVERIFY(m->setData(m->index(row, 0), QStringLiteral("bf16-renamed")));
        QVERIFY(editor.save()); // renaming the reference renames it in "reference" too
        QCOMPARE(study::Study::load(study.toStdString()).reference, std::string("bf16-renamed"));
    }

    // An endpoint study's columns are its requests' axes; the server's settings are not columns.
    void configEditorOfAnEndpointStudy() {
        ConfigMatrixModel m;
        QAbstractItemModelTester tester(&m);
        const QStringList engine = m.axes();
        QVERIFY(engine.contains(QStringLiteral("dtype")));
        QVERIFY(!engine.contains(QStringLiteral("prefix_cache")));
        m.setStudyJson(nlohmann::ordered_json::parse(
            R"({"model": {"endpoint": "http:\/\/127.0.0.1:8000\/v1", "name": "m"},
                "configs": {"c1": {}, "c4": {"concurrency": 4, "prefix_cache": "warm"}},
                "reference": "c1"})"));
        QCOMPARE(m.axes(),
                 (QStringList{"arrival_seed", "concurrency", "prefix_cache", "repeat", "seed"}));
        QCOMPARE(m.columnCount(), 6);
        const int c4 = m.configName(0) == QLatin1String("c4") ? 0 : 1;
        QCOMPARE(m.differences(c4),
                 (QStringList{QStringLiteral("concurrency"), QStringLiteral("prefix_cache")}));
        const int cacheCol = int(m.axes().indexOf(QStringLiteral("prefix_cache"))) + 1;
        QCOMPARE(m.index(c4, cacheCol).data(ConfigMatrixModel::OptionsRole).toStringList(),
                 (QStringList{"cold", "warm"}));
        const auto out = m.studyJson();
        QCOMPARE(out["configs"]["c4"]["prefix_cache"].get<std::string>(), std::string("warm"));
    }
};

QTEST_MAIN(TestRuns)
#include "test_runs.moc"
