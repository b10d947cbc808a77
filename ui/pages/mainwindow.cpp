#include "ui/pages/mainwindow.h"

#include "core/analysis/export.h"
#include "core/bundle/lockfile.h"
#include "core/study/study.h"
#include "ui/models/pinstatus.h"
#include "ui/pages/aboutdialog.h"
#include "ui/pages/configeditor.h"
#include "ui/pages/emptystatepage.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/generationpage.h"
#include "ui/pages/newstudydialog.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/runcontroller.h"
#include "ui/pages/runpanel.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QIcon>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace probaudit::ui {

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
    m_generation = new GenerationPage(m_pages);
    m_pages->addWidget(m_generation);
    m_loader = new ReviewLoader(this);
    connect(m_loader, &ReviewLoader::loaded, this, &MainWindow::onReviewLoaded);
    connect(m_loader, &ReviewLoader::failed, this, &MainWindow::onReviewFailed);
    connect(m_review, &ReviewPage::headChangeRequested, this,
            [this](const QString& head) { openStudyFile(m_loadingPath, head); });
    // A tampered ledger is never shown silently: a red banner above every page says so.
    m_trustBanner = new QLabel(this);
    m_trustBanner->setObjectName(QStringLiteral("trustBanner"));
    m_trustBanner->setWordWrap(true);
    m_trustBanner->setMargin(8);
    m_trustBanner->setStyleSheet(
        QStringLiteral("QLabel { background-color: #c62828; color: white; font-weight: bold; }"));
    m_trustBanner->hide();
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_trustBanner);
    column->addWidget(m_pages, 1);
    setCentralWidget(central);
    connect(m_empty, &EmptyStatePage::openStudyRequested, this, &MainWindow::openStudyDialog);
    connect(m_empty, &EmptyStatePage::openDemoRequested, this, &MainWindow::openDemoStudy);

    m_runs = new RunController(this);
    m_runPanel = new RunPanel(m_runs, this);
    m_runDock = new QDockWidget(tr("Engine Runs"), this);
    m_runDock->setObjectName(QStringLiteral("runDock"));
    m_runDock->setWidget(m_runPanel);
    m_runDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::TopDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_runDock);
    m_runDock->hide();
    connect(m_runs, &RunController::finished, this, &MainWindow::onRunsFinished);
    connect(m_runs, &RunController::warning, this,
            [this](const QString& w) { statusBar()->showMessage(w, 8000); });

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
    m_trustBadge = new QLabel(this);
    m_trustBadge->setObjectName(QStringLiteral("trustBadge"));
    m_trustBadge->setMargin(2);
    m_trustBadge->hide();
    statusBar()->addPermanentWidget(m_trustBadge);
    statusBar()->addPermanentWidget(m_engineLabel);
    statusBar()->addPermanentWidget(m_pinBadge);
    updatePinStatus();

    m_engine = new EngineClient(this);
    connect(m_engine, &EngineClient::fingerprintReady, this, &MainWindow::onFingerprint);
    connect(m_engine, &EngineClient::failed, this, &MainWindow::onEngineError);
    m_engine->requestFingerprint();
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

void MainWindow::showTrust(const ledger::Trust& t) {
    using State = ledger::Trust::State;
    const QString line = QString::fromStdString(t.line());
    QString text, colour;
    if (t.state == State::Tampered) {
        text = tr("Ledger: TAMPERED");
        colour = QStringLiteral("#c62828");
    } else if (t.state == State::Signed) {
        text = tr("Ledger: verified, signed by %1").arg(QString::fromStdString(t.fingerprint));
        colour = QStringLiteral("#2e7d32");
    } else {
        text = tr("Ledger: verified, unsigned");
        colour = QStringLiteral("#ef6c00");
    }
    m_trustBadge->setText(text);
    m_trustBadge->setToolTip(line);
    m_trustBadge->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour));
    m_trustBadge->show();
    m_trustBanner->setText(
        tr("TAMPERED LEDGER: %1. The figures below come from a ledger that was changed after it "
           "was sealed; do not sign them off.")
            .arg(QString::fromStdString(t.problem)));
    m_trustBanner->setVisible(t.state == State::Tampered);
}

void MainWindow::verifyInBackground(const QString& ledgerPath) {
    m_verifying = ledgerPath;
    m_trustBadge->setText(tr("Ledger: verifying…"));
    m_trustBadge->setToolTip(QString());
    m_trustBadge->setStyleSheet(QString());
    m_trustBadge->show();
    m_trustBanner->hide();
    auto* watcher = new QFutureWatcher<ledger::Trust>(this);
    connect(watcher, &QFutureWatcher<ledger::Trust>::finished, this, [this, watcher, ledgerPath] {
        watcher->deleteLater();
        if (ledgerPath == m_verifying) {
            showTrust(watcher->result());
        }
    });
    watcher->setFuture(QtConcurrent::run([path = ledgerPath.toStdString()] {
        try {
            const ledger::Ledger led(path, ledger::Ledger::Mode::Read);
            return ledger::assessTrust(led);
        } catch (const std::exception& e) { // it could be opened a moment ago: gone or locked
            ledger::Trust t;
            t.state = ledger::Trust::State::Tampered;
            t.problem = std::string("the chain could not be verified: ") + e.what();
            return t;
        }
    }));
}

void MainWindow::showReview(const ReviewPtr& review) {
    // The review shown until now is let go on a pool thread once every page holds the new one:
    // freeing two 100,000-item runs took 24-48 ms, on the GUI thread, in whichever page let go
    // of it last (workbench_bench's re-opening).
    ReviewPtr previous = m_review->review();
    showReviewPages(review);
    if (previous) {
        (void)QtConcurrent::run([](ReviewPtr last) { last.reset(); }, std::move(previous));
    }
}

void MainWindow::showReviewPages(const ReviewPtr& review) {
    m_review->setReview(review);
    if (m_lockPath.isEmpty()) {
        const QString lockFile = bundle::findLockFile(*review);
        if (!lockFile.isEmpty()) {
            loadLockFile(lockFile);
        }
    }
    // A generation study has no decisions to compare: its own page shows its agreement table.
    m_generation->setReview(review->generation ? review : ReviewPtr());
    m_pages->setCurrentWidget(review->generation ? static_cast<QWidget*>(m_generation)
                                                 : static_cast<QWidget*>(m_review));
    setWindowTitle(tr("%1 — ProbAudit Workbench").arg(QString::fromStdString(review->facts.name)));
    // Last: the pages are filled before the verification takes the cores.
    if (review->trust_checked) {
        m_verifying.clear();
        showTrust(review->trust);
    } else {
        verifyInBackground(QString::fromStdString(review->path));
    }
}

void MainWindow::onReviewFailed(const QString& message) {
    m_progress->hide();
    m_cancelLoad->hide();
    statusBar()->clearMessage();
    QMessageBox::warning(this, tr("Open Ledger"), message);
}

QString MainWindow::studyPathForRuns() {
    const ReviewPtr& rv = m_review->review();
    if (!rv) {
        return {};
    }
    if (!m_studyPath.isEmpty() && QFileInfo::exists(m_studyPath)) {
        return m_studyPath;
    }
    const QString recorded = QString::fromStdString(rv->study_path);
    if (!recorded.isEmpty() && QFileInfo::exists(recorded)) {
        return recorded;
    }
    const QString chosen = QFileDialog::getOpenFileName(
        this, tr("Where is the study file of this ledger?"), QFileInfo(m_loadingPath).path(),
        tr("ProbAudit studies (*.study.json *.json)"));
    if (!chosen.isEmpty()) {
        m_studyPath = chosen;
    }
    return chosen;
}

bool MainWindow::runConfigs(const QStringList& configs) {
    const QString study = studyPathForRuns();
    if (study.isEmpty() || configs.isEmpty()) {
        return false;
    }
    m_runPanel->begin(configs);
    m_runDock->show();
    return m_runs->start(study, m_loadingPath, configs);
}

bool MainWindow::diagnoseStudy() {
    if (!m_review->review()) {
        QMessageBox::information(this, tr("Diagnose"), tr("Open a study or ledger first."));
        return false;
    }
    if (m_runs->isRunning()) {
        QMessageBox::information(this, tr("Diagnose"), tr("Wait for the current run to end."));
        return false;
    }
    const QString study = studyPathForRuns();
    if (study.isEmpty()) {
        return false;
    }
    m_runPanel->begin({});
    m_runDock->show();
    return m_runs->startDiagnosis(study, m_loadingPath);
}

ConfigEditor* MainWindow::editConfigs() {
    if (!m_review->review()) {
        QMessageBox::information(this, tr("Edit Configs"), tr("Open a study or ledger first."));
        return nullptr;
    }
    const QString study = studyPathForRuns();
    if (study.isEmpty()) {
        return nullptr;
    }
    auto* editor = new ConfigEditor(study, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &ConfigEditor::runRequested, this, &MainWindow::runConfigs);
    editor->show();
    return editor;
}

bool MainWindow::runNewStudy(const QString& studyPath) {
    if (m_runs->isRunning()) {
        QMessageBox::information(this, tr("New Study"), tr("Wait for the current run to end."));
        return false;
    }
    QString base = studyPath;
    base.chop(base.endsWith(QStringLiteral(".study.json")) ? 11 : 5);
    m_loadingPath = base + QStringLiteral(".ledger");
    m_studyPath = studyPath;
    addRecentFile(studyPath);
    QStringList configs;
    try {
        for (const auto& c : study::Study::load(studyPath.toStdString()).configs) {
            configs << QString::fromStdString(c.name);
        }
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("New Study"), QString::fromStdString(e.what()));
        return false;
    }
    m_runPanel->begin(configs);
    m_runDock->show();
    return m_runs->start(studyPath, m_loadingPath, configs);
}

void MainWindow::chooseAndRunConfigs() {
    const ReviewPtr& rv = m_review->review();
    if (!rv) {
        QMessageBox::information(this, tr("Run Configs"), tr("Open a study or ledger first."));
        return;
    }
    if (m_runs->isRunning()) {
        m_runDock->show();
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Run Configs"));
    auto* list = new QListWidget(&dialog);
    list->setObjectName(QStringLiteral("configChoice"));
    for (const auto& row : rv->rows) {
        if (row.other_env) { // the same config, recorded elsewhere: its own row is in the list
            continue;
        }
        auto* it = new QListWidgetItem(row.run ? tr("%1 (recorded in run %2)")
                                                     .arg(QString::fromStdString(row.config))
                                                     .arg(row.run->id)
                                               : QString::fromStdString(row.config),
                                       list);
        it->setData(Qt::UserRole, QString::fromStdString(row.config));
        it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        it->setCheckState(row.run ? Qt::Unchecked : Qt::Checked);
    }
    auto* note = new QLabel(tr("Configs already recorded in this environment are skipped by the "
                               "engine; unfinished runs resume where they stopped."),
                            &dialog);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* v = new QVBoxLayout(&dialog);
    v->addWidget(list);
    v->addWidget(note);
    v->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QStringList chosen;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->checkState() == Qt::Checked) {
            chosen << list->item(i)->data(Qt::UserRole).toString();
        }
    }
    runConfigs(chosen);
}

void MainWindow::onRunsFinished() {
    // Whatever happened, the ledger has every finished batch: show it.
    if (!m_loadingPath.isEmpty() && QFileInfo::exists(m_loadingPath)) {
        m_loader->load(m_loadingPath, m_review->review()
                                          ? QString::fromStdString(m_review->review()->head)
                                          : QString());
    }
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

bool MainWindow::loadLockFile(const QString& path) {
    QFile f(path);
    QJsonParseError err{};
    const QJsonDocument doc =
        f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll(), &err) : QJsonDocument();
    if (!doc.isObject() || !doc.object().contains(u"probaudit_lock")) {
        statusBar()->showMessage(tr("%1 is not a runtime lock (made by probaudit pin).")
                                     .arg(QDir::toNativeSeparators(path)),
                                 8000);
        return false;
    }
    m_lockPath = path;
    m_lock = doc.object();
    updatePinStatus();
    return true;
}

void MainWindow::chooseLockFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Load Runtime Lock"), QFileInfo(m_loadingPath).path(),
                                     tr("Runtime locks (*.lock.json);;All files (*)"));
    if (!path.isEmpty()) {
        loadLockFile(path);
    }
}

void MainWindow::updatePinStatus() {
    const PinStatus st = pinStatus(m_lockPath, m_lock, m_fingerprint);
    setPinStatus(st.text, st.tooltip, st.state == PinStatus::State::Matches);
    m_pinBadge->setProperty("pinState", int(st.state));
    if (st.state == PinStatus::State::Differs) {
        m_pinBadge->setStyleSheet(QStringLiteral("QLabel#pinBadge { border: 1px solid %1; "
                                                 "border-radius: 4px; padding: 1px 6px; "
                                                 "color: white; background: %1; }")
                                      .arg(QColor(0xc6, 0x28, 0x28).name()));
    }
}

void MainWindow::onFingerprint(const QJsonObject& fp) {
    m_fingerprint = fp;
    updatePinStatus();
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

} // namespace probaudit::ui
