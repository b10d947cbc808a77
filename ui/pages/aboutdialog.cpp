#include "ui/pages/aboutdialog.h"

#include "core/common/build_info.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QJsonDocument>
#include <QLabel>
#include <QVBoxLayout>

namespace probaudit::ui {

EnvFingerprint readFingerprint(const QJsonObject& fingerprint) {
    const QByteArray text = QJsonDocument(fingerprint).toJson(QJsonDocument::Compact);
    return EnvFingerprint::read(
        nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false));
}

QString engineSummary(const QJsonObject& fp) {
    const EnvFingerprint f = readFingerprint(fp);
    const QString cudaBuild = QString::fromStdString(f.torch.cuda_build.value_or(""));
    QStringList parts;
    parts
        << AboutDialog::tr("libtorch %1").arg(QString::fromStdString(f.torch.version.value_or("")));
    parts << (cudaBuild.isEmpty() ? AboutDialog::tr("CPU-only build")
                                  : AboutDialog::tr("CUDA build %1").arg(cudaBuild));
    const int gpus = int(f.cuda.gpus.size());
    parts << (gpus == 0 ? AboutDialog::tr("no GPU") : AboutDialog::tr("%n GPU(s)", "", gpus));
    parts << AboutDialog::tr("CPU kernels %1")
                 .arg(QString::fromStdString(f.cpu.aten_capability.value_or("")));
    return parts.join(QStringLiteral(" · "));
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About ProbAudit"));

    auto* icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/probaudit.svg")).pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);

    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("aboutText"));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setMinimumWidth(460);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* top = new QHBoxLayout;
    top->addWidget(icon);
    top->addSpacing(12);
    top->addWidget(m_text, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buttons);

    m_engine = tr("Engine: asking the engine for its fingerprint…");
    refresh();
}

void AboutDialog::setFingerprint(const QJsonObject& fp) {
    m_engine = tr("Engine: ProbAudit %1, %2")
                   .arg(QString::fromStdString(readFingerprint(fp).engine.version.value_or("")),
                        engineSummary(fp));
    refresh();
}

void AboutDialog::setEngineError(const QString& message) {
    m_engine = tr("Engine: not available (%1)").arg(message.toHtmlEscaped());
    refresh();
}

QString AboutDialog::text() const {
    return m_text->text();
}

void AboutDialog::refresh() {
    const QString commit = QString::fromLatin1(probaudit::gitCommit()).left(12);
    m_text->setText(
        QStringLiteral("<h2>ProbAudit %1</h2><p>%2</p><p>%3</p><p>%4</p><p><small>%5</small></p>")
            .arg(QString::fromLatin1(probaudit::engineVersion()).toHtmlEscaped(),
                 tr("Audits whether a model's decisions and decision probabilities reproduce "
                    "across runtime configurations.")
                     .toHtmlEscaped(),
                 tr("Workbench built from commit %1%2 with Qt %3.")
                     .arg(commit, probaudit::gitDirty() ? tr(" (modified)") : QString(),
                          QString::fromLatin1(qVersion()))
                     .toHtmlEscaped(),
                 m_engine.toHtmlEscaped(),
                 tr("Demo data: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), "
                    "CC BY 4.0.")
                     .toHtmlEscaped()));
}

} // namespace probaudit::ui
