#include "ui/pages/enginesettings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace probaudit::ui {

EngineSettings EngineSettings::load() {
    const QSettings s;
    EngineSettings e;
    e.url = s.value(QStringLiteral("engine/url")).toString();
    e.remoteProbaudit = s.value(QStringLiteral("engine/remote_probaudit")).toString();
    e.sshConfig = s.value(QStringLiteral("engine/ssh_config")).toString();
    e.localFolder = s.value(QStringLiteral("engine/local_folder")).toString();
    e.remoteFolder = s.value(QStringLiteral("engine/remote_folder")).toString();
    return e;
}

void EngineSettings::save() const {
    QSettings s;
    s.setValue(QStringLiteral("engine/url"), url);
    s.setValue(QStringLiteral("engine/remote_probaudit"), remoteProbaudit);
    s.setValue(QStringLiteral("engine/ssh_config"), sshConfig);
    s.setValue(QStringLiteral("engine/local_folder"), localFolder);
    s.setValue(QStringLiteral("engine/remote_folder"), remoteFolder);
}

QString EngineSettings::remoteStudyPath(const QString& localStudy) const {
    const QString path = QFileInfo(localStudy).absoluteFilePath();
    if (localFolder.isEmpty() || remoteFolder.isEmpty()) {
        return path;
    }
    const QString from = QDir::cleanPath(localFolder) + u'/';
    if (!path.startsWith(from)) {
        return path;
    }
    return QDir::cleanPath(remoteFolder) + u'/' + path.mid(from.size());
}

QStringList EngineSettings::engineArguments() const {
    if (!remote()) {
        return {};
    }
    QStringList args{QStringLiteral("--engine"), url};
    if (!remoteProbaudit.isEmpty()) {
        args << QStringLiteral("--remote-probaudit") << remoteProbaudit;
    }
    if (!sshConfig.isEmpty()) {
        args << QStringLiteral("--ssh-config") << sshConfig;
    }
    return args;
}

} // namespace probaudit::ui
