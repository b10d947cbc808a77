#pragma once
// A workbench test process keeps its settings (the engine, recent files, column layouts) in a
// folder of its own. ctest runs tests in parallel, and test_runs and test_runs_remote are one
// binary: without this, the remote test's "the engine runs on another host" reached the local
// test's runs while both ran (a cancelled run left "running", an injected error unseen).
#include <QSettings>
#include <QString>
#include <QTemporaryDir>

namespace probaudit::testing {

class PrivateSettings {
public:
    PrivateSettings() {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    }
    // True when QSettings() now reads and writes inside this process's own folder.
    bool active() const {
        return m_dir.isValid() && QSettings().fileName().startsWith(m_dir.path() + u'/');
    }

private:
    QTemporaryDir m_dir;
};

} // namespace probaudit::testing
