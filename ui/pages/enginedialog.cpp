#include "ui/pages/enginedialog.h"

#include "ui/pages/aboutdialog.h"
#include "ui/pages/engineclient.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace probaudit::ui {

EngineDialog::EngineDialog(const EngineSettings& current, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Engine"));
    auto* layout = new QVBoxLayout(this);
    m_local = new QRadioButton(tr("This computer"), this);
    m_remote =
        new QRadioButton(tr("Another host, over ssh (your keys and ssh configuration)"), this);
    layout->addWidget(m_local);
    layout->addWidget(m_remote);
    auto* form = new QFormLayout;
    m_url = new QLineEdit(current.url, this);
    m_url->setPlaceholderText(QStringLiteral("ssh://user@gpu-host"));
    m_probaudit = new QLineEdit(current.remoteProbaudit, this);
    m_probaudit->setPlaceholderText(tr("probaudit on that host's PATH"));
    m_sshConfig = new QLineEdit(current.sshConfig, this);
    m_sshConfig->setPlaceholderText(tr("your own (~/.ssh/config)"));
    m_localFolder = new QLineEdit(current.localFolder, this);
    m_localFolder->setPlaceholderText(tr("studies have the same path on both"));
    m_remoteFolder = new QLineEdit(current.remoteFolder, this);
    m_remoteFolder->setPlaceholderText(tr("studies have the same path on both"));
    form->addRow(tr("Host:"), m_url);
    form->addRow(tr("probaudit there:"), m_probaudit);
    form->addRow(tr("ssh configuration file:"), m_sshConfig);
    form->addRow(tr("Studies here under:"), m_localFolder);
    form->addRow(tr("are there under:"), m_remoteFolder);
    layout->addLayout(form);
    auto* note = new QLabel(tr("Studies, models and data are read on that host. Progress shows "
                               "here as it happens; finished runs come back into the ledger open "
                               "here. If the connection drops, run again: the run resumes."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    m_check = new QPushButton(tr("Check"), this);
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* checkRow = new QHBoxLayout;
    checkRow->addWidget(m_check);
    checkRow->addWidget(m_result, 1);
    layout->addLayout(checkRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &EngineDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EngineDialog::reject);
    connect(m_check, &QPushButton::clicked, this, &EngineDialog::check);
    (current.remote() ? m_remote : m_local)->setChecked(true);
    connect(m_remote, &QRadioButton::toggled, this, &EngineDialog::updateEnabled);
    updateEnabled();
    resize(620, sizeHint().height());
}

EngineSettings EngineDialog::settings() const {
    EngineSettings e;
    if (m_remote->isChecked()) {
        e.url = m_url->text().trimmed();
    }
    e.remoteProbaudit = m_probaudit->text().trimmed();
    e.sshConfig = m_sshConfig->text().trimmed();
    e.localFolder = m_localFolder->text().trimmed();
    e.remoteFolder = m_remoteFolder->text().trimmed();
    return e;
}

QString EngineDialog::checkResult() const {
    return m_result->text();
}

void EngineDialog::updateEnabled() {
    const bool remote = m_remote->isChecked();
    for (QWidget* w : {static_cast<QWidget*>(m_url), static_cast<QWidget*>(m_probaudit),
                       static_cast<QWidget*>(m_sshConfig), static_cast<QWidget*>(m_localFolder),
                       static_cast<QWidget*>(m_remoteFolder)}) {
        w->setEnabled(remote);
    }
}

QString EngineDialog::problem() const {
    if (!m_remote->isChecked()) {
        return {};
    }
    if (!m_url->text().trimmed().startsWith(QStringLiteral("ssh://"))) {
        return tr("The host is an ssh:// address, such as ssh://user@gpu-host or "
                  "ssh://gpu-host:2222.");
    }
    if (m_localFolder->text().trimmed().isEmpty() != m_remoteFolder->text().trimmed().isEmpty()) {
        return tr("Give both folders, or neither (then studies have the same path on both).");
    }
    return {};
}

void EngineDialog::accept() {
    if (const QString p = problem(); !p.isEmpty()) {
        m_result->setText(p);
        return;
    }
    settings().save();
    QDialog::accept();
}

void EngineDialog::check() {
    if (m_process != nullptr) {
        return;
    }
    if (const QString p = problem(); !p.isEmpty()) {
        m_result->setText(p);
        Q_EMIT checked(false);
        return;
    }
    m_result->setText(tr("Asking the engine…"));
    m_check->setEnabled(false);
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, &EngineDialog::onCheckFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            onCheckFinished();
        }
    });
    m_process->start(EngineClient::enginePath(),
                     QStringList{QStringLiteral("env"), QStringLiteral("--json")} +
                         settings().engineArguments());
}

void EngineDialog::onCheckFinished() {
    QProcess* p = m_process;
    m_process = nullptr;
    p->deleteLater();
    m_check->setEnabled(true);
    const QJsonObject env = QJsonDocument::fromJson(p->readAllStandardOutput()).object();
    if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0 || env.isEmpty()) {
        const QString why = QString::fromUtf8(p->readAllStandardError()).trimmed();
        m_result->setText(tr("No engine answered: %1")
                              .arg(why.isEmpty() ? p->errorString() : why.section(u'\n', 0, 0)));
        Q_EMIT checked(false);
        return;
    }
    const EnvFingerprint f = readFingerprint(env);
    const auto q = [](const std::optional<std::string>& s) {
        return QString::fromStdString(s.value_or(""));
    };
    const QString device =
        f.cuda.gpus.empty()
            ? tr("no GPU, CPU %1").arg(q(f.cpu.model))
            : tr("%n GPU(s): %1", "", int(f.cuda.gpus.size())).arg(q(f.cuda.gpus.front().name));
    m_result->setText(
        tr("Reached probaudit %1 with torch %2 (CUDA build %3); %4.")
            .arg(q(f.engine.version), q(f.torch.version), q(f.torch.cuda_build), device));
    Q_EMIT checked(true);
}

} // namespace probaudit::ui
