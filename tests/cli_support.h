#pragma once
// Running the `probaudit` CLI from a test: exit code, stdout, stderr and the JSON-lines events
// on stdout (when there are any). PROBAUDIT_CLI is the built executable.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QStringList>

namespace probaudit::test {

struct CliResult {
    int code = -1; // -1: killed or crashed
    QByteArray out, err;
    QList<QJsonObject> events;
};

inline QList<QJsonObject> parseEvents(const QByteArray& out) {
    QList<QJsonObject> events;
    for (const QByteArray& line : out.split('\n')) {
        if (!line.trimmed().isEmpty()) {
            events.push_back(QJsonDocument::fromJson(line).object());
        }
    }
    return events;
}

inline CliResult cli(const QStringList& args,
                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PROBAUDIT_CLI), args);
    p.waitForFinished(900000);
    CliResult r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.events = parseEvents(r.out);
    return r;
}

inline bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace probaudit::test
