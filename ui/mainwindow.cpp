#include "ui/mainwindow.h"

#include "ui/aboutdialog.h"
#include "ui/emptystatepage.h"
#include "ui/engineclient.h"
#include "ui/itemstable.h"
#include "ui/reviewpage.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>

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
    m_review = new ReviewPage(m_pages);
    m_pages->addWidget(m_review);
    m_loader = new ReviewLoader(this);
    connect(m_loader, &ReviewLoader::loaded, this, &MainWindow::onReviewLoaded);
    connect(m_loader, &ReviewLoader::failed, this, &MainWindow::onReviewFailed);
    connect(m_review, &ReviewPage::headChangeRequested, this,
            [this](const QString& head) { openStudyFile(m_loadingPath, head); });
    setCentralWidget(m_pages);
    connect(m_empty, &EmptyStatePage::openStudyRequested, this, &MainWindow::openStudyDialog);
    connect(m_empty, &EmptyStatePage::openDemoRequested, this, &MainWindow::openDemoStudy);

    createActions();

    m_engineLabel = new QLabel(tr("Engine: checking…"), this);
    m_engineLabel->setObjectName(QStringLiteral("engineLabel"));
    m_pinBadge = new QLabel(this);
    m_pinBadge->setObjectName(QStringLiteral("pinBadge"));
    m_pinBadge->setMargin(2);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancelLoad = new QToolButton(this);
    m_cancelLoad->setObjectName(QStringLiteral("cancelLoad"));
    m_cancelLoad->setText(tr("Cancel"));
    m_cancelLoad->hide();
    connect(m_loader, &ReviewLoader::progress, m_progress, &QProgressBar::setValue);
    connect(m_cancelLoad, &QToolButton::clicked, this, [this] {
        m_loader->cancel();
        m_progress->hide();
        m_cancelLoad->hide();
        statusBar()->showMessage(tr("Opening cancelled."), 5000);
    });
    statusBar()->addWidget(m_progress);
    statusBar()->addWidget(m_cancelLoad);
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
    QAction* open =
        file->addAction(tr("&Open Study or Ledger…"), this, &MainWindow::openStudyDialog);
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

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QList<std::pair<QString, ReviewPage::Tab>> tabs = {
        {tr("&Items"), ReviewPage::ItemsTab},
        {tr("&Charts"), ReviewPage::ChartsTab},
        {tr("&Layers Heatmap"), ReviewPage::LayersTab},
        {tr("&Diagnosis"), ReviewPage::DiagnosisTab},
        {tr("&Runs"), ReviewPage::RunsTab}};
    int key = 0;
    for (const auto& [name, tab] : tabs) {
        QAction* a = view->addAction(name, this, [this, tab = tab] {
            if (m_pages->currentWidget() == m_review) {
                m_review->showTab(tab);
            }
        });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + key++)));
    }
    view->addSeparator();
    QAction* nextCfg = view->addAction(tr("&Next Config"), this, [this] {
        if (m_review->review()) {
            m_review->setComparisonRow(
                std::min(m_review->comparisonRow() + 1, int(m_review->review()->rows.size()) - 1));
        }
    });
    nextCfg->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    QAction* prevCfg = view->addAction(tr("&Previous Config"), this, [this] {
        if (m_review->review()) {
            m_review->setComparisonRow(std::max(0, m_review->comparisonRow() - 1));
        }
    });
    prevCfg->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    QAction* flips = view->addAction(tr("Show &Flipped Items Only"));
    flips->setObjectName(QStringLiteral("actionFlipsOnly"));
    flips->setCheckable(true);
    flips->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    connect(flips, &QAction::toggled, this, [this](bool on) {
        m_review->itemsTable()->setFlipsOnly(on);
        m_review->showTab(ReviewPage::ItemsTab);
    });
    QAction* find = view->addAction(tr("&Search Items…"), this, [this] {
        m_review->showTab(ReviewPage::ItemsTab);
        if (auto* search = m_review->findChild<QLineEdit*>(QStringLiteral("searchText"))) {
            search->setFocus();
            search->selectAll();
        }
    });
    find->setShortcut(QKeySequence::Find);

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

void MainWindow::openStudyFile(const QString& path, const QString& head) {
    QString ledger = path;
    if (path.endsWith(QStringLiteral(".json"))) {
        // A study: its ledger is NAME.ledger next to it (as `probaudit run` writes it).
        QString base = path;
        base.chop(base.endsWith(QStringLiteral(".study.json")) ? 11 : 5);
        ledger = base + QStringLiteral(".ledger");
        if (!QFileInfo::exists(ledger)) {
            QMessageBox::information(
                this, tr("Open Study"),
                tr("%1 has no ledger yet (%2). Run it first:\n  probaudit run %1 --all")
                    .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(ledger)));
            return;
        }
    }
    if (!QFileInfo(ledger).isReadable()) {
        QMessageBox::warning(this, tr("Open Ledger"),
                             tr("%1 cannot be read.").arg(QDir::toNativeSeparators(ledger)));
        return;
    }
    addRecentFile(path);
    m_loadingPath = ledger;
    m_progress->setValue(0);
    m_progress->show();
    m_cancelLoad->show();
    statusBar()->showMessage(tr("Opening %1…").arg(QDir::toNativeSeparators(ledger)));
    m_loader->load(ledger, head);
}

void MainWindow::onReviewLoaded(const ReviewPtr& review) {
    m_progress->hide();
    m_cancelLoad->hide();
    statusBar()->clearMessage();
    showReview(review);
}

void MainWindow::showReview(const ReviewPtr& review) {
    m_review->setReview(review);
    m_pages->setCurrentWidget(m_review);
    setWindowTitle(tr("%1 — ProbAudit Workbench")
                       .arg(QString::fromStdString(review->study.value("name", ""))));
}

void MainWindow::onReviewFailed(const QString& message) {
    m_progress->hide();
    m_cancelLoad->hide();
    statusBar()->clearMessage();
    QMessageBox::warning(this, tr("Open Ledger"), message);
}

QString MainWindow::demoLedgerPath() {
    const QString rel = QStringLiteral("out/demo/demo-a-minilm.ledger");
    // From the repository root, or from the build tree's bin/ (build/default/bin).
    for (const QString& dir : {QDir::currentPath(), QCoreApplication::applicationDirPath() +
                                                        QStringLiteral("/../../..")}) {
        const QString p = QDir(dir).filePath(rel);
        if (QFileInfo::exists(p)) {
            return QDir::cleanPath(p);
        }
    }
    return {};
}

void MainWindow::openDemoStudy() {
    const QString path = demoLedgerPath();
    if (path.isEmpty()) {
        QMessageBox::information(
            this, tr("Demo Study"),
            tr("The demo ledger is made by ./scripts/demo (about two minutes): it trains the "
               "demo adapter, runs demo study A under seven configs and diagnoses it. Run it, "
               "then open the demo again."));
        return;
    }
    openStudyFile(path);
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
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openStudyFile(f); });
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
