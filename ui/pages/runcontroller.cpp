#include "ui/pages/runcontroller.h"

#include "ui/pages/engineclient.h"
#include "ui/pages/enginesettings.h"

#include "common/protocol.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

namespace probaudit::ui {

RunController::RunController(QObject* parent) : QObject(parent) {}

RunController::~RunController() {
    if (m_process != nullptr) {
        m_process->disconnect(this);
        m_process->terminate(); // finishes the batch: the ledger stays consistent
        if (!m_process->waitForFinished(30000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

bool RunController::start(const QString& study, const QString& ledger, const QStringList& configs) {
    const EngineSettings engine = EngineSettings::load();
    QStringList args{
        QStringLiteral("run"),      engine.remote() ? engine.remoteStudyPath(study) : study,
        QStringLiteral("--ledger"), ledger,
        QStringLiteral("--events"), QStringLiteral("jsonl")};
    for (const QString& c : configs) {
        args << QStringLiteral("--config") << c;
    }
    return startEngine(args + engine.engineArguments(), ledger);
}

bool RunController::startDiagnosis(const QString& study, const QString& ledger) {
    const EngineSettings engine = EngineSettings::load();
    return startEngine(QStringList{QStringLiteral("diagnose"),
                                   engine.remote() ? engine.remoteStudyPath(study) : study,
                                   QStringLiteral("--ledger"), ledger, QStringLiteral("--events"),
                                   QStringLiteral("jsonl")} +
                           engine.engineArguments(),
                       ledger);
}

bool RunController::startEngine(const QStringList& args, const QString& ledger) {
    if (m_process != nullptr) {
        Q_EMIT finished(Outcome::Failed, tr("A run is already in progress."));
        return false;
    }
    const QString engine = EngineClient::enginePath();
    if (!QFileInfo(engine).isExecutable()) {
        Q_EMIT finished(
            Outcome::Failed,
            tr("The engine was not found at %1.").arg(QDir::toNativeSeparators(engine)));
        return false;
    }
    m_lastError.clear();
    m_cancelled = false;
    m_ledger = ledger;
    m_process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : m_extraEnv) {
        env.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    }
    m_process->setProcessEnvironment(env);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RunController::readEvents);
    connect(m_process, &QProcess::finished, this, &RunController::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_process != nullptr) {
            const QString why = m_process->errorString();
            m_process->deleteLater();
            m_process = nullptr;
            Q_EMIT finished(Outcome::Failed, tr("The engine could not be started: %1").arg(why));
        }
    });
    m_process->start(engine, args);
    return true;
}

void RunController::cancel() {
    if (m_process != nullptr && !m_cancelled) {
        m_cancelled = true;
        m_process->terminate();
    }
}

void RunController::readEvents() {
    while (m_process != nullptr && m_process->canReadLine()) {
        const QByteArray line = m_process->readLine();
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (!doc.isObject()) {
            continue;
        }
        const QJsonObject e = doc.object();
        const QString kind = e.value(u"event").toString();
        const qint64 run = e.value(u"run").toInteger(-1);
        if (kind == QLatin1String("started")) {
            // A diagnosis probe is named by what it probes ("shape: batch 8"), a run by its config.
            const QString label = e.value(u"label").toString();
            Q_EMIT runStarted(run, label.isEmpty() ? e.value(u"config").toString() : label,
                              e.value(u"items").toInteger(), e.value(u"resumed_items").toInteger());
        } else if (kind == QLatin1String("progress")) {
            Q_EMIT progress(run, e.value(u"done").toInteger(), e.value(u"total").toInteger(),
                            e.value(u"items_per_second").toDouble(),
                            e.value(u"eta_seconds").toDouble(-1));
        } else if (kind == QLatin1String("run-finished")) {
            const QString label = e.value(u"label").toString();
            if (e.contains(u"endpoint")) {
                const QJsonObject s = e.value(u"endpoint").toObject();
                Q_EMIT servingMeasured(run, s.value(u"items_per_second").toDouble(),
                                       s.value(u"achieved_concurrency").toDouble());
            }
            Q_EMIT runFinished(run, label.isEmpty() ? e.value(u"config").toString() : label,
                               e.value(u"status").toString());
        } else if (kind == QLatin1String("skipped")) {
            Q_EMIT runSkipped(run, e.value(u"config").toString(), e.value(u"reason").toString());
        } else if (kind == QLatin1String("warning")) {
            Q_EMIT warning(e.value(u"message").toString());
        } else if (kind == QLatin1String("error")) {
            m_lastError = e.value(u"message").toString();
        }
    }
}

void RunController::onFinished(int exitCode, QProcess::ExitStatus status) {
    readEvents();
    QProcess* p = m_process;
    m_process = nullptr;
    const QString stderrText = QString::fromUtf8(p->readAllStandardError()).trimmed();
    p->deleteLater();
    const QString kept =
        tr("Every batch finished before it is kept in %1.").arg(QDir::toNativeSeparators(m_ledger));
    if (status == QProcess::CrashExit) {
        Q_EMIT finished(
            Outcome::Crashed,
            tr("The engine stopped unexpectedly (it crashed or was killed). %1").arg(kept));
        return;
    }
    if (exitCode == 0) {
        Q_EMIT finished(Outcome::Finished, QString());
        return;
    }
    if (exitCode == protocol::kExitInterrupted || m_cancelled) {
        Q_EMIT finished(Outcome::Cancelled, tr("The run was cancelled. %1").arg(kept));
        return;
    }
    QString why = m_lastError;
    if (why.isEmpty()) {
        why = stderrText.section(u'\n', -1);
    }
    if (why.isEmpty()) {
        why = tr("exit code %1").arg(exitCode);
    }
    Q_EMIT finished(Outcome::Failed, tr("The engine failed: %1. %2").arg(why, kept));
}

} // namespace probaudit::ui
