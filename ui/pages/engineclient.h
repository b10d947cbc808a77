#pragma once
// Talks to the engine (`probaudit`) as a child process. The GUI never links libtorch: every
// engine fact, starting with the environment fingerprint, arrives through this class.
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QString>

namespace probaudit::ui {

class EngineClient : public QObject {
    Q_OBJECT
public:
    explicit EngineClient(QObject* parent = nullptr);
    ~EngineClient() override;

    // The engine executable: $PROBAUDIT_ENGINE, else `probaudit` next to this executable.
    static QString enginePath();

    // Starts `probaudit env --json`; answers with fingerprintReady or failed.
    void requestFingerprint();
    bool isBusy() const;

Q_SIGNALS:
    void fingerprintReady(const QJsonObject& fingerprint);
    void failed(const QString& message);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);

    QProcess* m_process = nullptr;
};

} // namespace probaudit::ui
