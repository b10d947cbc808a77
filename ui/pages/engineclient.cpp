#include "ui/pages/engineclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

namespace probaudit::ui {

EngineClient::EngineClient(QObject* parent) : QObject(parent) {}

EngineClient::~EngineClient() {
    if (m_process != nullptr) {
        // A window closed before the engine answered: stop the child rather than orphan it.
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString EngineClient::enginePath() {
    const QString fromEnv = qEnvironmentVariable("PROBAUDIT_ENGINE");
    if (!fromEnv.isEmpty()) {
        return fromEnv;
    }
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("probaudit"));
}

bool EngineClient::isBusy() const {
    return m_process != nullptr;
}

void EngineClient::requestFingerprint() {
    if (m_process != nullptr) {
        return;
    }
    const QString path = enginePath();
    if (!QFileInfo(path).isExecutable()) {
        Q_EMIT failed(tr("The engine was not found at %1.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, &EngineClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &EngineClient::onError);
    m_process->start(path, {QStringLiteral("env"), QStringLiteral("--json")});
}

void EngineClient::onFinished(int exitCode, QProcess::ExitStatus status) {
    QProcess* p = m_process;
    m_process = nullptr;
    p->deleteLater();
    if (status != QProcess::NormalExit || exitCode != 0) {
        const QString err = QString::fromUtf8(p->readAllStandardError()).trimmed();
        Q_EMIT failed(err.isEmpty() ? tr("The engine stopped with exit code %1.").arg(exitCode)
                                    : tr("The engine failed: %1").arg(err));
        return;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(p->readAllStandardOutput(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        Q_EMIT failed(
            tr("The engine's answer was not valid JSON (%1).").arg(parseError.errorString()));
        return;
    }
    Q_EMIT fingerprintReady(doc.object());
}

void EngineClient::onError(QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart || m_process == nullptr) {
        return; // crashes and exit codes are reported by onFinished
    }
    QProcess* p = m_process;
    m_process = nullptr;
    p->deleteLater();
    Q_EMIT failed(tr("The engine could not be started: %1").arg(p->errorString()));
}

} // namespace probaudit::ui
