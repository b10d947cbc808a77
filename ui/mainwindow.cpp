#include "ui/mainwindow.h"

#include "ui/aboutdialog.h"
#include "ui/configeditor.h"
#include "ui/emptystatepage.h"
#include "ui/engineclient.h"
#include "ui/generationview.h"
#include "ui/itemstable.h"
#include "ui/newstudydialog.h"
#include "ui/pinstatus.h"
#include "ui/presentation.h"
#include "ui/report.h"

#include "analysis/export.h"
#include "bundle/bundle.h"
#include "bundle/lockfile.h"

#include "ui/reviewpage.h"
#include "ui/runcontroller.h"
#include "ui/runpanel.h"
#include "ui/theme.h"
#include <fstream>

#include "study/study.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
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
    m_generation = new GenerationPage(m_pages);
    m_pages->addWidget(m_generation);
    m_loader = new ReviewLoader(this);
    connect(m_loader, &ReviewLoader::loaded, this, &MainWindow::onReviewLoaded);
    connect(m_loader, &ReviewLoader::failed, this, &MainWindow::onReviewFailed);
    connect(m_review, &ReviewPage::headChangeRequested, this,
            [this](const QString& head) { openStudyFile(m_loadingPath, head); });
    setCentralWidget(m_pages);
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
    statusBar()->addPermanentWidget(m_engineLabel);
    statusBar()->addPermanentWidget(m_pinBadge);
    updatePinStatus();

    m_engine = new EngineClient(this);
    connect(m_engine, &EngineClient::fingerprintReady, this, &MainWindow::onFingerprint);
    connect(m_engine, &EngineClient::failed, this, &MainWindow::onEngineError);
    m_engine->requestFingerprint();
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newStudy = file->addAction(tr("&New Study…"), this, [this] {
        auto* dialog = new NewStudyDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &NewStudyDialog::created, this, &MainWindow::runNewStudy);
        dialog->show();
    });
    newStudy->setObjectName(QStringLiteral("actionNewStudy"));
    newStudy->setShortcut(QKeySequence::New);
    QAction* open =
        file->addAction(tr("&Open Study or Ledger…"), this, &MainWindow::openStudyDialog);
    open->setObjectName(QStringLiteral("actionOpen"));
    open->setShortcut(QKeySequence::Open);
    QAction* demo = file->addAction(tr("Open the &Demo Study"), this, &MainWindow::openDemoStudy);
    demo->setObjectName(QStringLiteral("actionOpenDemo"));
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    QAction* exportAction = file->addAction(tr("&Export Report…"), this, [this] {
        if (!m_review->review()) {
            QMessageBox::information(this, tr("Export Report"),
                                     tr("Open a study or ledger first."));
            return;
        }
        QString base = QString::fromStdString(m_review->review()->path);
        base.replace(QStringLiteral(".ledger"), QString());
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Report"), base + QStringLiteral(".report.pdf"), tr("PDF (*.pdf)"));
        if (!path.isEmpty()) {
            exportReport(path);
        }
    });
    exportAction->setObjectName(QStringLiteral("actionExportReport"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    QAction* exportItemsAction =
        file->addAction(tr("Export &Items of This Comparison…"), this, [this] {
            if (!m_review->review()) {
                return;
            }
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export Items"), QString(), tr("CSV (*.csv);;JSON lines (*.jsonl)"));
            if (!path.isEmpty()) {
                exportItems(path);
            }
        });
    exportItemsAction->setObjectName(QStringLiteral("actionExportItems"));
    QAction* bundleAction = file->addAction(tr("Export Audit &Bundle…"), this, [this] {
        if (!m_review->review()) {
            return;
        }
        QString base = QString::fromStdString(m_review->review()->path);
        base.replace(QStringLiteral(".ledger"), QString());
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Audit Bundle"),
                                                          base + QStringLiteral(".audit.zip"),
                                                          tr("Audit bundles (*.zip)"));
        if (path.isEmpty()) {
            return;
        }
        exportBundle(path);
    });
    bundleAction->setObjectName(QStringLiteral("actionExportBundle"));
    QAction* importAction = file->addAction(tr("&Import Audit Bundle…"), this, [this] {
        const QString zip = QFileDialog::getOpenFileName(this, tr("Import Audit Bundle"), QString(),
                                                         tr("Audit bundles (*.zip)"));
        if (zip.isEmpty()) {
            return;
        }
        // Into the open ledger (runs from another machine compare with the local ones), or a
        // new one.
        QString target =
            m_review->review() ? QString::fromStdString(m_review->review()->path) : QString();
        if (target.isEmpty()) {
            target = QFileDialog::getSaveFileName(this, tr("Import Into Ledger"), QString(),
                                                  tr("Ledgers (*.ledger)"));
        }
        if (target.isEmpty()) {
            return;
        }
        bundle::ImportResult r;
        QString error;
        if (!bundle::importBundle(zip, target, &r, &error)) {
            QMessageBox::warning(this, tr("Import Audit Bundle"), error);
            return;
        }
        statusBar()->showMessage(
            tr("%1 runs imported, %2 already there").arg(r.imported).arg(r.already), 8000);
        openStudyFile(target);
    });
    importAction->setObjectName(QStringLiteral("actionImportBundle"));
    QAction* exportHeadlineAction = file->addAction(tr("Export &Headline Table…"), this, [this] {
        if (!m_review->review()) {
            return;
        }
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Headline"), QString(),
                                                          tr("Markdown (*.md);;CSV (*.csv)"));
        if (!path.isEmpty()) {
            exportHeadline(path);
        }
    });
    exportHeadlineAction->setObjectName(QStringLiteral("actionExportHeadline"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);

    QMenu* study = menuBar()->addMenu(tr("&Study"));
    QAction* run = study->addAction(tr("&Run Configs…"), this, &MainWindow::chooseAndRunConfigs);
    run->setObjectName(QStringLiteral("actionRunConfigs"));
    run->setShortcut(QKeySequence(Qt::Key_F5));
    QAction* edit = study->addAction(tr("&Edit Configs…"), this, &MainWindow::editConfigs);
    edit->setObjectName(QStringLiteral("actionEditConfigs"));
    edit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* lock = study->addAction(tr("Load Runtime &Lock…"), this, &MainWindow::chooseLockFile);
    lock->setObjectName(QStringLiteral("actionLoadLock"));
    QAction* cancelRun = study->addAction(tr("&Cancel Run"), this, [this] { m_runs->cancel(); });
    cancelRun->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    QAction* runsPanel = m_runDock->toggleViewAction();
    runsPanel->setText(tr("Show Engine &Runs Panel"));
    study->addAction(runsPanel);

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
        if (m_pages->currentWidget() == m_generation) { // the next comparison of the table
            const auto& rows = m_generation->review()->generation_rows;
            m_generation->setComparisonRow(
                std::min(m_generation->comparisonRow() + 1, int(rows.size()) - 1));
        } else if (m_review->review()) {
            m_review->setComparisonRow(
                std::min(m_review->comparisonRow() + 1, int(m_review->review()->rows.size()) - 1));
        }
    });
    nextCfg->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    QAction* prevCfg = view->addAction(tr("&Previous Config"), this, [this] {
        if (m_pages->currentWidget() == m_generation) {
            m_generation->setComparisonRow(std::max(0, m_generation->comparisonRow() - 1));
        } else if (m_review->review()) {
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

    view->addSeparator();
    QAction* present = view->addAction(tr("&Presentation Mode"), this, [this] {
        if (!m_review->review()) {
            return;
        }
        if (m_review->review()->generation) {
            statusBar()->showMessage(tr("Presentation mode shows decision studies; a generation "
                                        "study's table and outputs are on its page."),
                                     8000);
            return;
        }
        auto* show = new PresentationWindow(m_review->review(), m_review->comparisonRow());
        show->setAttribute(Qt::WA_DeleteOnClose);
        show->showFullScreen();
    });
    present->setObjectName(QStringLiteral("actionPresentation"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    QMenu* themeMenu = view->addMenu(tr("&Theme"));
    for (const auto& [label, name] : {std::pair{tr("Follow the &System"), QStringLiteral("system")},
                                      std::pair{tr("&Light"), QStringLiteral("light")},
                                      std::pair{tr("&Dark"), QStringLiteral("dark")}}) {
        themeMenu->addAction(label, this, [this, name = name] {
            QSettings().setValue(QStringLiteral("ui/theme"), name);
            applyTheme(themeFromName(name));
            if (m_review->review()) {
                m_review->setReview(m_review->review()); // colours are read when views build
                if (m_review->review()->generation) {
                    m_generation->setReview(m_review->review());
                }
            }
        });
    }
    QMenu* languageMenu = view->addMenu(tr("&Language"));
    for (const auto& [label, code] : {std::pair{QStringLiteral("English"), QStringLiteral("en")},
                                      std::pair{QStringLiteral("Deutsch"), QStringLiteral("de")},
                                      std::pair{QStringLiteral("한국어"), QStringLiteral("ko")}}) {
        languageMenu->addAction(label, this, [this, code = code] {
            QSettings().setValue(QStringLiteral("ui/language"), code);
            QMessageBox::information(this, tr("Language"),
                                     tr("The workbench uses the new language from its next "
                                        "start."));
        });
    }

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
    setWindowTitle(tr("%1 — ProbAudit Workbench")
                       .arg(QString::fromStdString(review->study.value("name", ""))));
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

bool MainWindow::writeReportPdf(const QString& path, QString* error) const {
    ReportOptions o;
    o.output = path;
    o.lockPath = m_lockPath;
    // Print colours: the report is drawn in the light palette, then the theme comes back.
    const QPalette before = QApplication::palette();
    QApplication::setPalette(QApplication::style()->standardPalette());
    const bool ok = writeReport(*m_review->review(), o, error);
    QApplication::setPalette(before);
    return ok;
}

bool MainWindow::exportReport(const QString& path) {
    if (!m_review->review()) {
        return false;
    }
    QString error;
    if (!writeReportPdf(path, &error)) {
        QMessageBox::warning(this, tr("Export Report"), error);
        return false;
    }
    statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

bool MainWindow::exportBundle(const QString& path) {
    if (!m_review->review()) {
        return false;
    }
    // The report first (the PDF writer), then the bundle packs it with the ledger.
    QTemporaryDir tmp;
    QString error = QStringLiteral("%1: no temporary folder for the report").arg(path);
    bundle::BundleOptions o;
    o.output = path;
    o.lockPath = m_lockPath;
    o.reportPdf = tmp.filePath(QStringLiteral("report.pdf"));
    if (!tmp.isValid() || !writeReportPdf(o.reportPdf, &error) ||
        !bundle::writeBundle(*m_review->review(), o, &error)) {
        QMessageBox::warning(this, tr("Export Audit Bundle"), error);
        return false;
    }
    statusBar()->showMessage(tr("Audit bundle written to %1").arg(QDir::toNativeSeparators(path)),
                             8000);
    return true;
}

bool MainWindow::exportItems(const QString& path) {
    const ReviewPtr& rv = m_review->review();
    const int row = m_review->comparisonRow();
    if (!rv || row < 0 || !rv->rows[std::size_t(row)].cmp) {
        return false;
    }
    std::ofstream out(path.toStdString());
    if (path.endsWith(QStringLiteral(".jsonl"))) {
        analysis::writeItemsJsonl(out, *rv->rows[std::size_t(row)].cmp, rv->items);
    } else {
        analysis::writeItemsCsv(out, *rv->rows[std::size_t(row)].cmp, rv->items);
    }
    out.close();
    if (!out) {
        QMessageBox::warning(this, tr("Export Items"),
                             tr("%1 cannot be written.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    statusBar()->showMessage(tr("Items written to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

bool MainWindow::exportHeadline(const QString& path) {
    const ReviewPtr& rv = m_review->review();
    if (!rv) {
        return false;
    }
    std::ofstream out(path.toStdString());
    if (path.endsWith(QStringLiteral(".csv"))) {
        analysis::writeHeadlineCsv(out, *rv);
    } else {
        analysis::writeHeadlineMarkdown(out, *rv);
    }
    out.close();
    if (!out) {
        QMessageBox::warning(this, tr("Export Headline"),
                             tr("%1 cannot be written.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    statusBar()->showMessage(tr("Headline written to %1").arg(QDir::toNativeSeparators(path)),
                             8000);
    return true;
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

} // namespace ui
} // namespace probaudit
