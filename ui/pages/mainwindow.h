#pragma once
// The workbench's main window: menus, the page stack (empty state for now), and the status
// bar with the engine summary and the pin-status badge.
#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>

#include "ui/models/reviewloader.h"

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;
class QStackedWidget;

namespace probaudit::ui {

class AboutDialog;
class ConfigEditor;
class EmptyStatePage;
class EngineClient;
class GenerationPage;
class ReviewLoader;
class ReviewPage;
class RunController;
class RunPanel;
class SeedTablesDialog;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens Help → About without blocking (the dialog is modeless); returns it.
    AboutDialog* showAbout();
    // View → Field Report Tables: the dialog, or null without a review.
    SeedTablesDialog* showSeedTables();

    EngineClient* engine() const { return m_engine; }
    const QJsonObject& fingerprint() const { return m_fingerprint; }

    static constexpr int kMaxRecentFiles = 8;

    // Opens a ledger (or a study's ledger, NAME.ledger next to NAME.study.json) in the
    // background; the review page appears when it is loaded.
    void openStudyFile(const QString& path, const QString& head = QString());
    ReviewLoader* loader() const { return m_loader; }
    // Shows a loaded review (what a finished background open does).
    void showReview(const ReviewPtr& review);
    ReviewPage* reviewPage() const { return m_review; }
    // What a generation study's review shows instead of the review page.
    GenerationPage* generationPage() const { return m_generation; }
    // The demo ledger written by ./scripts/demo, or "" when there is none yet.
    static QString demoLedgerPath();

    // Runs configs of the open review's study in the engine (a child process); the review is
    // reloaded when the engine stops, however it stops.
    bool runConfigs(const QStringList& configs);
    // Study → Diagnose: the diagnosis ladder in the engine, its probes in the Engine Runs panel;
    // the review reloads with the stored diagnosis when it ends.
    bool diagnoseStudy();
    // Runs every config of a new study into NAME.ledger beside it, then opens that ledger.
    bool runNewStudy(const QString& studyPath);
    // The study file of the open review: recorded in the ledger, else asked for.
    QString studyPathForRuns();
    // Writes the open review's PDF report (File → Export Report).
    bool exportReport(const QString& path);
    // Writes the open review's audit bundle, its report included (File → Export Audit Bundle).
    bool exportBundle(const QString& path);
    // The current comparison's per-item differences (.csv, else .jsonl) and the headline table
    // (.csv, else Markdown).
    bool exportItems(const QString& path);
    bool exportHeadline(const QString& path);
    // Opens the config matrix editor on the open review's study (modeless).
    ConfigEditor* editConfigs();
    RunController* runController() const { return m_runs; }
    // Loads a runtime lock (probaudit pin) for the pin-status badge; false when unreadable.
    bool loadLockFile(const QString& path);
    RunPanel* runPanel() const { return m_runPanel; }

private:
    // Every page shown with `review` (showReview frees the one before off the GUI thread).
    void showReviewPages(const ReviewPtr& review);
    // mainwindowmenus.cpp: the menus and the File menu's dialogs
    void createActions();
    void createFileMenu();
    void createStudyMenu();
    void createViewMenu();
    void createThemeAndLanguageMenus(QMenu* view);
    void stepConfig(int step);
    void startPresentation();
    QString reviewBaseName() const;
    void exportReportDialog();
    void exportItemsDialog();
    void exportBundleDialog();
    void importBundleDialog();
    void exportHeadlineDialog();
    bool writeReportPdf(const QString& path, QString* error) const;

    void openStudyDialog();
    void openDemoStudy();
    void chooseAndRunConfigs();
    void onRunsFinished();
    void onReviewLoaded(const ReviewPtr& review);
    void onReviewFailed(const QString& message);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void onFingerprint(const QJsonObject& fp);
    void onEngineError(const QString& message);
    void setPinStatus(const QString& text, const QString& tooltip, bool ok);
    void updatePinStatus();
    void chooseLockFile();

    QStackedWidget* m_pages = nullptr;
    ReviewPage* m_review = nullptr;
    GenerationPage* m_generation = nullptr;
    ReviewLoader* m_loader = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelLoad = nullptr;
    QString m_loadingPath;
    RunController* m_runs = nullptr;
    RunPanel* m_runPanel = nullptr;
    QDockWidget* m_runDock = nullptr;
    QString m_studyPath;
    QString m_lockPath;
    QJsonObject m_lock;
    EmptyStatePage* m_empty = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_engineLabel = nullptr;
    QLabel* m_pinBadge = nullptr;
    QLabel* m_trustBadge = nullptr;  // the open ledger: verified / unsigned / signed / TAMPERED
    QLabel* m_trustBanner = nullptr; // red, above the pages, while a tampered ledger is open
    void showTrust(const ledger::Trust& trust);
    // Verifies the open ledger's chain on a worker thread; the badge says "verifying…" until
    // the result arrives (a result for a ledger no longer open is dropped).
    void verifyInBackground(const QString& ledgerPath);
    QString m_verifying; // the ledger being verified
    EngineClient* m_engine = nullptr;
    QPointer<AboutDialog> m_about;
    QJsonObject m_fingerprint;
    QString m_engineError;
};

} // namespace probaudit::ui
