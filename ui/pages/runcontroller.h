#pragma once
// Runs configs of a study in the engine, as a child process (`probaudit run STUDY --config …
// --ledger L --events jsonl`, with `--engine ssh://…` when Settings → Engine names another
// host: the CLI runs it there and brings the finished runs back into L), and turns its
// JSON-lines events into typed signals. The GUI
// thread only reads lines when they arrive (the engine sends at most five progress events a
// second), so it never waits on the engine. Cancel asks the engine to stop after the current
// batch (SIGTERM; the ledger keeps every finished batch); a crash or an error becomes one
// sentence for the user.
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace probaudit::ui {

class RunController : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Finished, Cancelled, Failed, Crashed };
    Q_ENUM(Outcome)

    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Starts the engine; false (and failed()) when one is already running or it cannot start.
    bool start(const QString& study, const QString& ledger, const QStringList& configs);
    // Runs the diagnosis ladder in the engine (`probaudit diagnose STUDY --ledger L --events
    // jsonl`, on the engine of Settings → Engine): each probe run reports like a config run,
    // named by what it probes; the diagnosis is stored in the ledger when it finishes.
    bool startDiagnosis(const QString& study, const QString& ledger);
    void cancel();
    bool isRunning() const { return m_process != nullptr; }
    // Extra environment for the engine (tests use the engine's failure hooks).
    void setExtraEnvironment(const QStringList& keyValues) { m_extraEnv = keyValues; }

Q_SIGNALS:
    void runStarted(qint64 run, const QString& config, qint64 items, qint64 resumedItems);
    void runSkipped(qint64 run, const QString& config, const QString& reason);
    void progress(qint64 run, qint64 done, qint64 total, double itemsPerSecond, double etaSeconds);
    void runFinished(qint64 run, const QString& config, const QString& status);
    // An endpoint run ended: how the server served it (items per second over the time its
    // requests took, and the requests in flight on average).
    void servingMeasured(qint64 run, double itemsPerSecond, double inFlight);
    void warning(const QString& message);
    // Once per start(): how it ended, and a sentence for the user (empty when finished).
    void finished(probaudit::ui::RunController::Outcome outcome, const QString& message);

private:
    bool startEngine(const QStringList& args, const QString& ledger);
    void readEvents();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess* m_process = nullptr;
    QString m_lastError;
    QString m_ledger;
    QStringList m_extraEnv;
    bool m_cancelled = false;
};

} // namespace probaudit::ui
