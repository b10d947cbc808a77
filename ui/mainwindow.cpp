#include "ui/mainwindow.h"

#include "ui/aboutdialog.h"
#include "ui/emptystatepage.h"
#include "ui/engineclient.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>

namespace probaudit {
namespace ui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("ProbAudit Workbench"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/probaudit.svg")));
    resize(1100, 720);

    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_empty = new EmptyStatePage(m_pages);
    m_pages->addWidget(m_empty);
    setCentralWidget(m_pages);
    connect(m_empty, &EmptyStatePage::openStudyRequested, this, &MainWindow::openStudyDialog);
    connect(m_empty, &EmptyStatePage::openDemoRequested, this, &MainWindow::openDemoStudy);

    createActions();

    m_engineLabel = new QLabel(tr("Engine: checking…"), this);
    m_engineLabel->setObjectName(QStringLiteral("engineLabel"));
    m_pinBadge = new QLabel(this);
    m_pinBadge->setObjectName(QStringLiteral("pinBadge"));
    m_pinBadge->setMargin(2);
    statusBar()->addPermanentWidget(m_engineLabel);
    statusBar()->addPermanentWidget(m_pinBadge);
    setPinStatus(tr("Runtime: not pinned"),
                 tr("No runtime lock is loaded. A pinned runtime lists every difference between "
                    "this environment and the verified one."),
                 false);

    m_engine = new EngineClient(this);
    connect(m_engine, &EngineClient::fingerprintReady, this, &MainWindow::onFingerprint);
    connect(m_engine, &EngineClient::failed, this, &MainWindow::onEngineError);
    m_engine->requestFingerprint();
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Study or Ledger…"), this,
                                    &MainWindow::openStudyDialog);
    open->setObjectName(QStringLiteral("actionOpen"));
    open->setShortcut(QKeySequence::Open);
    QAction* demo = file->addAction(tr("Open the &Demo Study"), this, &MainWindow::openDemoStudy);
    demo->setObjectName(QStringLiteral("actionOpenDemo"));
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About ProbAudit"), this, [this] { showAbout(); });
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

AboutDialog* MainWindow::showAbout() {
    if (m_about == nullptr) {
        m_about = new AboutDialog(this);
        m_about->setAttribute(Qt::WA_DeleteOnClose);
        if (!m_fingerprint.isEmpty()) {
            m_about->setFingerprint(m_fingerprint);
        } else if (!m_engineError.isEmpty()) {
            m_about->setEngineError(m_engineError);
        }
    }
    m_about->show();
    m_about->raise();
    return m_about;
}

void MainWindow::openStudyDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Study or Ledger"), QDir::homePath(),
        tr("ProbAudit studies and ledgers (*.study.json *.ledger);;All files (*)"));
    if (!path.isEmpty()) {
        openStudyFile(path);
    }
}

void MainWindow::openStudyFile(const QString& path) {
    if (!QFileInfo(path).isReadable()) {
        QMessageBox::warning(this, tr("Open Study"),
                             tr("%1 cannot be read.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    addRecentFile(path);
    // Studies and ledgers are read by later versions (issue "Studies, runs and the ledger").
    QMessageBox::information(
        this, tr("Open Study"),
        tr("This version of ProbAudit cannot read studies or ledgers yet; it shows the engine's "
           "environment only. %1 was not opened.")
            .arg(QDir::toNativeSeparators(path)));
}

void MainWindow::openDemoStudy() {
    QMessageBox::information(
        this, tr("Demo Study"),
        tr("The demo study is created by ./scripts/demo. This version of ProbAudit runs the "
           "environment check only; the demo audit arrives with the engine."));
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    settings.setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this,
                                [this, f] { openStudyFile(f); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::onFingerprint(const QJsonObject& fp) {
    m_fingerprint = fp;
    m_engineError.clear();
    m_engineLabel->setText(tr("Engine: %1").arg(engineSummary(fp)));
    m_engineLabel->setToolTip(EngineClient::enginePath());
    if (m_about != nullptr) {
        m_about->setFingerprint(fp);
    }
}

void MainWindow::onEngineError(const QString& message) {
    m_engineError = message;
    m_engineLabel->setText(tr("Engine: not available"));
    m_engineLabel->setToolTip(message);
    statusBar()->showMessage(message);
    if (m_about != nullptr) {
        m_about->setEngineError(message);
    }
}

void MainWindow::setPinStatus(const QString& text, const QString& tooltip, bool ok) {
    m_pinBadge->setText(text);
    m_pinBadge->setToolTip(tooltip);
    m_pinBadge->setProperty("pinOk", ok);
    const QPalette pal = palette();
    const QColor border = ok ? QColor(0x2e, 0x7d, 0x32) : pal.color(QPalette::Mid);
    m_pinBadge->setStyleSheet(QStringLiteral("QLabel#pinBadge { border: 1px solid %1; "
                                             "border-radius: 4px; padding: 1px 6px; }")
                                  .arg(border.name()));
}

} // namespace ui
} // namespace probaudit
