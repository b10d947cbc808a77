#pragma once
// Where the workbench's runs are computed (Settings → Engine): this computer's engine, or the
// engine on another host over ssh (`probaudit run --engine ssh://…`: the study, its model and
// data as that host sees them; the finished runs come back into the ledger open here). Kept in
// QSettings under "engine/".
#include <QString>
#include <QStringList>

namespace probaudit::ui {

struct EngineSettings {
    QString url;             // "" = local; ssh://[user@]host[:port]
    QString remoteProbaudit; // the probaudit on that host ("" = probaudit on its PATH)
    QString sshConfig;       // ssh -F FILE ("" = the user's own ~/.ssh/config)
    QString localFolder;     // a study under this folder here …
    QString remoteFolder;    // … is under this one there ("" both: the same path)

    bool remote() const { return !url.isEmpty(); }
    static EngineSettings load();
    void save() const;
    // The study's path on the engine's host.
    QString remoteStudyPath(const QString& localStudy) const;
    // What `probaudit run` and `probaudit env` add to run on that host (none when local).
    QStringList engineArguments() const;
};

} // namespace probaudit::ui
