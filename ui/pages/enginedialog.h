#pragma once
// Settings → Engine: run on this computer, or on another host over ssh (EngineSettings). "Check"
// asks that host's engine for its fingerprint (`probaudit env --json --engine ssh://…`) and says
// what answered: version, torch and CUDA build, GPUs, CPU; or why nothing did.
#include "ui/pages/enginesettings.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QProcess;
class QPushButton;
class QRadioButton;

namespace probaudit::ui {

class EngineDialog : public QDialog {
    Q_OBJECT
public:
    explicit EngineDialog(const EngineSettings& current, QWidget* parent = nullptr);
    EngineSettings settings() const;
    // Starts the check (the button does the same); checked() when it has an answer.
    void check();
    QString checkResult() const;

Q_SIGNALS:
    void checked(bool ok);

protected:
    void accept() override;

private:
    void updateEnabled();
    void onCheckFinished();
    QString problem() const; // what keeps the settings from being saved, or ""

    QRadioButton* m_local = nullptr;
    QRadioButton* m_remote = nullptr;
    QLineEdit* m_url = nullptr;
    QLineEdit* m_probaudit = nullptr;
    QLineEdit* m_sshConfig = nullptr;
    QLineEdit* m_localFolder = nullptr;
    QLineEdit* m_remoteFolder = nullptr;
    QPushButton* m_check = nullptr;
    QLabel* m_result = nullptr;
    QProcess* m_process = nullptr;
};

} // namespace probaudit::ui
