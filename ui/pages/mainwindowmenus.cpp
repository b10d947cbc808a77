// The main window's menus and what the File menu's exports and imports do.
#include "ui/pages/mainwindow.h"

#include "core/analysis/export.h"
#include "core/bundle/bundle.h"
#include "ui/charts/theme.h"
#include "ui/pages/aboutdialog.h"
#include "ui/pages/enginedialog.h"
#include "ui/pages/generationpage.h"
#include "ui/pages/itemstable.h"
#include "ui/pages/newstudydialog.h"
#include "ui/pages/presentation.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/runcontroller.h"
#include "ui/pages/seedtablesdialog.h"
#include "ui/report/report.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>

#include <fstream>

namespace probaudit::ui {

void MainWindow::createActions() {
    createFileMenu();
    createStudyMenu();
    createViewMenu();
    QMenu* settings = menuBar()->addMenu(tr("Se&ttings"));
    QAction* engine = settings->addAction(tr("&Engine…"), this, [this] {
        EngineDialog dialog(EngineSettings::load(), this);
        dialog.exec();
    });
    engine->setObjectName(QStringLiteral("actionEngineSettings"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About ProbAudit"), this, [this] { showAbout(); });
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createFileMenu() {
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
    QAction* exportAction =
        file->addAction(tr("&Export Report…"), this, &MainWindow::exportReportDialog);
    exportAction->setObjectName(QStringLiteral("actionExportReport"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    QAction* exportItemsAction = file->addAction(tr("Export &Items of This Comparison…"), this,
                                                 &MainWindow::exportItemsDialog);
    exportItemsAction->setObjectName(QStringLiteral("actionExportItems"));
    QAction* bundleAction =
        file->addAction(tr("Export Audit &Bundle…"), this, &MainWindow::exportBundleDialog);
    bundleAction->setObjectName(QStringLiteral("actionExportBundle"));
    QAction* importAction =
        file->addAction(tr("&Import Audit Bundle…"), this, &MainWindow::importBundleDialog);
    importAction->setObjectName(QStringLiteral("actionImportBundle"));
    QAction* exportHeadlineAction =
        file->addAction(tr("Export &Headline Table…"), this, &MainWindow::exportHeadlineDialog);
    exportHeadlineAction->setObjectName(QStringLiteral("actionExportHeadline"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::createStudyMenu() {
    QMenu* study = menuBar()->addMenu(tr("&Study"));
    QAction* run = study->addAction(tr("&Run Configs…"), this, &MainWindow::chooseAndRunConfigs);
    run->setObjectName(QStringLiteral("actionRunConfigs"));
    run->setShortcut(QKeySequence(Qt::Key_F5));
    QAction* diagnose = study->addAction(tr("&Diagnose"), this, &MainWindow::diagnoseStudy);
    diagnose->setObjectName(QStringLiteral("actionDiagnose"));
    diagnose->setShortcut(QKeySequence(Qt::Key_F6));
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
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QList<std::pair<QString, ReviewPage::Tab>> tabs = {
        {tr("&Items"), ReviewPage::ItemsTab},
        {tr("&Charts"), ReviewPage::ChartsTab},
        {tr("&Layers Heatmap"), ReviewPage::LayersTab},
        {tr("&Diagnosis"), ReviewPage::DiagnosisTab},
        {tr("C&ause"), ReviewPage::CauseTab},
        {tr("&Runs"), ReviewPage::RunsTab},
        {tr("&Variants"), ReviewPage::VariantsTab}};
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
    QAction* nextCfg = view->addAction(tr("&Next Config"), this, [this] { stepConfig(+1); });
    nextCfg->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    QAction* prevCfg = view->addAction(tr("&Previous Config"), this, [this] { stepConfig(-1); });
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
    QAction* tables =
        view->addAction(tr("Field Report &Tables…"), this, &MainWindow::showSeedTables);
    tables->setObjectName(QStringLiteral("actionSeedTables"));
    tables->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    QAction* present =
        view->addAction(tr("&Presentation Mode"), this, &MainWindow::startPresentation);
    present->setObjectName(QStringLiteral("actionPresentation"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    createThemeAndLanguageMenus(view);
}

void MainWindow::createThemeAndLanguageMenus(QMenu* view) {
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
}

// View → Next / Previous Config: the next comparison of the page that is shown.
void MainWindow::stepConfig(int step) {
    auto to = [step](int row, std::size_t rows) {
        return step > 0 ? std::min(row + 1, int(rows) - 1) : std::max(0, row - 1);
    };
    if (m_pages->currentWidget() == m_generation) { // the next comparison of the table
        m_generation->setComparisonRow(
            to(m_generation->comparisonRow(), m_generation->review()->generation_rows.size()));
    } else if (m_review->review()) {
        m_review->setComparisonRow(to(m_review->comparisonRow(), m_review->review()->rows.size()));
    }
}

SeedTablesDialog* MainWindow::showSeedTables() {
    if (!m_review->review()) {
        return nullptr;
    }
    auto* dialog = new SeedTablesDialog(m_review->review(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void MainWindow::startPresentation() {
    if (!m_review->review()) {
        return;
    }
    auto* show = new PresentationWindow(m_review->review(), m_review->comparisonRow());
    show->setAttribute(Qt::WA_DeleteOnClose);
    show->showFullScreen();
}

// --- File: exports and imports

// The ledger's path without ".ledger", for the names the save dialogs suggest.
QString MainWindow::reviewBaseName() const {
    QString base = QString::fromStdString(m_review->review()->path);
    base.replace(QStringLiteral(".ledger"), QString());
    return base;
}

void MainWindow::exportReportDialog() {
    if (!m_review->review()) {
        QMessageBox::information(this, tr("Export Report"), tr("Open a study or ledger first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Report"), reviewBaseName() + QStringLiteral(".report.pdf"),
        tr("PDF (*.pdf)"));
    if (!path.isEmpty()) {
        exportReport(path);
    }
}

void MainWindow::exportItemsDialog() {
    if (!m_review->review()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Items"), QString(),
                                                      tr("CSV (*.csv);;JSON lines (*.jsonl)"));
    if (!path.isEmpty()) {
        exportItems(path);
    }
}

void MainWindow::exportBundleDialog() {
    if (!m_review->review()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Audit Bundle"), reviewBaseName() + QStringLiteral(".audit.zip"),
        tr("Audit bundles (*.zip)"));
    if (!path.isEmpty()) {
        exportBundle(path);
    }
}

void MainWindow::importBundleDialog() {
    const QString zip = QFileDialog::getOpenFileName(this, tr("Import Audit Bundle"), QString(),
                                                     tr("Audit bundles (*.zip)"));
    if (zip.isEmpty()) {
        return;
    }
    // Into the open ledger (runs from another machine compare with the local ones), or a new
    // one.
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
}

void MainWindow::exportHeadlineDialog() {
    if (!m_review->review()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Headline"), QString(),
                                                      tr("Markdown (*.md);;CSV (*.csv)"));
    if (!path.isEmpty()) {
        exportHeadline(path);
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
    // The study file goes in only when the user gave it to this window (New Study, or chosen
    // for runs) and it is the file the runs were recorded from; never the path a row names.
    QString studyNote;
    if (!m_studyPath.isEmpty()) {
        studyNote =
            bundle::studyFileProblem(m_studyPath, QString::fromStdString(m_review->review()->path));
        if (studyNote.isEmpty()) {
            o.studyPath = m_studyPath;
        }
    }
    if (!tmp.isValid() || !writeReportPdf(o.reportPdf, &error) ||
        !bundle::writeBundle(*m_review->review(), o, &error)) {
        QMessageBox::warning(this, tr("Export Audit Bundle"), error);
        return false;
    }
    const QString written = tr("Audit bundle written to %1").arg(QDir::toNativeSeparators(path));
    statusBar()->showMessage(o.studyPath.isEmpty() && !studyNote.isEmpty()
                                 ? tr("%1, without the study file: %2").arg(written, studyNote)
                                 : written,
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

} // namespace probaudit::ui
