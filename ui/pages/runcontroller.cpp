#include "ui/pages/runcontroller.h"

#include "ui/pages/engineclient.h"
#include "ui/pages/enginesettings.h"

#include "core/common/json_read.h"
#include "core/common/protocol.h"
#include "core/common/run_event.h"

#include <QDir>
#include <QFileInfo>
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
        const auto parsed =
            tryParseJson(std::string_view(line.constData(), std::size_t(line.size())));
        if (!parsed || !parsed->is_object()) {
            continue;
        }
        const RunEvent e = RunEvent::read(*parsed);
        const qint64 run = e.run.value_or(-1);
        const auto q = [](const std::string& s) { return QString::fromStdString(s); };
        switch (e.kind) {
        case EventKind::Started:
            // A diagnosis probe is named by what it probes ("shape: batch 8"), a run by its config.
            Q_EMIT runStarted(run, q(e.labelOrConfig()), e.items, e.resumed_items);
            break;
        case EventKind::Progress:
            Q_EMIT progress(run, qint64(e.done), qint64(e.total), e.items_per_second,
                            e.eta_seconds);
            break;
        case EventKind::RunFinished:
            if (e.endpoint) {
                Q_EMIT servingMeasured(run, e.endpoint->items_per_second,
                                       e.endpoint->achieved_concurrency);
            }
            Q_EMIT runFinished(run, q(e.labelOrConfig()), q(e.status));
            break;
        case EventKind::Skipped:
            Q_EMIT runSkipped(run, q(e.config), q(e.reason));
            break;
        case EventKind::Warning:
            Q_EMIT warning(q(e.message));
            break;
        case EventKind::Error:
            m_lastError = q(e.message);
            break;
        default:
            break;
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
