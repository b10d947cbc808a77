#include "ui/pages/screenshottour.h"

#include "ui/charts/heatmapwidget.h"
#include "ui/pages/aboutdialog.h"
#include "ui/pages/configeditor.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/enginedialog.h"
#include "ui/pages/generationpage.h"
#include "ui/pages/inspector.h"
#include "ui/pages/itemstable.h"
#include "ui/pages/mainwindow.h"
#include "ui/pages/newstudydialog.h"
#include "ui/pages/presentation.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/runpanel.h"
#include "ui/pages/seedtablesdialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <exception>

namespace probaudit::ui {

namespace {

void settle(int ms = 150) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool save(QWidget* w, const QString& dir, const QString& name, const QString& suffix) {
    settle();
    const QString path = QDir(dir).filePath(name + suffix + QStringLiteral(".png"));
    const bool ok = w->grab().save(path);
    std::printf("%s %s\n", ok ? "saved" : "FAILED", qPrintable(QDir::toNativeSeparators(path)));
    return ok;
}

bool savePresentation(const ReviewPtr& review, int row, const QString& dir, const QString& suffix);

// A decision study's views: dashboard and items, charts, layers, diagnosis, runs, the
// inspector, the near-boundary items, and the presentation's slides.
bool saveReviewViews(MainWindow& window, const ReviewPtr& review, const QString& dir,
                     const QString& suffix) {
    bool ok = true;
    ReviewPage* page = window.reviewPage();
    ok &= save(&window, dir, QStringLiteral("01-dashboard-items"), suffix);
    page->showTab(ReviewPage::ChartsTab);
    ok &= save(&window, dir, QStringLiteral("02-charts"), suffix);
    page->showTab(ReviewPage::LayersTab);
    ok &= save(&window, dir, QStringLiteral("03-layers"), suffix);
    auto* rows = page->findChild<QComboBox*>(QStringLiteral("heatmapRows"));
    rows->setCurrentIndex(1);
    ok &= save(&window, dir, QStringLiteral("03b-layers-items"), suffix);
    rows->setCurrentIndex(0);
    page->showTab(ReviewPage::DiagnosisTab);
    ok &= save(&window, dir, QStringLiteral("04-diagnosis"), suffix);
    page->showTab(ReviewPage::CauseTab);
    ok &= save(&window, dir, QStringLiteral("04b-cause"), suffix);
    page->showTab(ReviewPage::RunsTab);
    ok &= save(&window, dir, QStringLiteral("05-runs"), suffix);
    if (review->variants) { // a study with model variants
        page->showTab(ReviewPage::VariantsTab);
        ok &= save(&window, dir, QStringLiteral("05b-variants"), suffix);
    }
    page->showTab(ReviewPage::ItemsTab);
    const std::int64_t item = tellingItem(*review, page->comparisonRow());
    page->inspectItem(item);
    ok &= save(&window, dir, QStringLiteral("06-inspector"), suffix);
    {
        // The whole inspector, not just what its scroll area shows.
        Inspector* inspector = page->inspector();
        QWidget* scroll = inspector->parentWidget();
        const QSize before = inspector->size();
        inspector->resize(std::max(560, inspector->width()), inspector->sizeHint().height());
        ok &= save(inspector, dir, QStringLiteral("06b-inspector-full"), suffix);
        inspector->resize(before);
        scroll->update();
    }
    // The near-boundary view: the items table filtered to the smallest reference margins.
    ItemFilter nearBoundary;
    nearBoundary.marginBelow = 1.0;
    page->itemsTable()->setExternalFilter(QApplication::translate("ScreenshotTour", "|margin| < 1"),
                                          nearBoundary);
    ok &= save(&window, dir, QStringLiteral("07-items-near-boundary"), suffix);
    page->itemsTable()->clearExternalFilter();
    ok &= savePresentation(review, page->comparisonRow(), dir, suffix);
    return ok;
}

// The presentation's slides, in order.
bool savePresentation(const ReviewPtr& review, int row, const QString& dir, const QString& suffix) {
    bool ok = true;
    PresentationWindow show(review, row);
    show.resize(1600, 1000);
    show.show();
    for (int k = 0; k < show.slideCount(); ++k) {
        show.showSlide(k);
        ok &= save(&show, dir, QStringLiteral("09-presentation-%1").arg(k + 1), suffix);
    }
    return ok;
}

// The forms: New Study, Settings → Engine, the config editor on the study (the file the runs came
// from, or, when it is not on this machine, the study as the ledger records it, written beside the
// PNGs), and the engine-runs panel as a run of every config begins.
bool saveForms(MainWindow& window, const ReviewPtr& review, const QString& dir,
               const QString& suffix) {
    bool ok = true;
    {
        NewStudyDialog form(&window);
        form.show();
        ok &= save(&form, dir, QStringLiteral("10-new-study"), suffix);
        // The same form for a server (an OpenAI-compatible endpoint).
        form.sourceBox()->setCurrentIndex(form.sourceBox()->findData(QStringLiteral("endpoint")));
        ok &= save(&form, dir, QStringLiteral("10b-new-study-server"), suffix);
        // And for the transformers runner in a Python environment.
        form.sourceBox()->setCurrentIndex(
            form.sourceBox()->findData(QStringLiteral("transformers")));
        form.pythonEdit()->setText(QStringLiteral("/opt/venv-cu130/bin/python"));
        ok &= save(&form, dir, QStringLiteral("10d-new-study-transformers"), suffix);
        form.close();
    }
    {
        // Settings → Engine, set to a GPU host over ssh (nothing is asked of it here).
        EngineSettings remote;
        remote.url = QStringLiteral("ssh://auditor@gpu-node-7");
        remote.remoteProbaudit = QStringLiteral("/opt/probaudit/bin/probaudit");
        remote.localFolder = QStringLiteral("/home/auditor/studies");
        remote.remoteFolder = QStringLiteral("/data/studies");
        EngineDialog engine(remote, &window);
        engine.show();
        ok &= save(&engine, dir, QStringLiteral("10c-engine-settings"), suffix);
        engine.close();
    }
    QString study = QString::fromStdString(review->study_path);
    if (study.isEmpty() || !QFileInfo::exists(study)) {
        study = QDir(dir).filePath(QStringLiteral("study-of-the-ledger.study.json"));
        QFile f(study);
        ok &= f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
              f.write(QByteArray::fromStdString(review->study.dump(2))) > 0;
    }
    {
        ConfigEditor editor(study, &window);
        editor.show();
        ok &= editor.isLoaded();
        ok &= save(&editor, dir, QStringLiteral("11-config-editor"), suffix);
        editor.close();
    }
    QStringList configs;
    for (const auto& r : review->rows) {
        configs << QString::fromStdString(r.config);
    }
    window.runPanel()->begin(configs);
    QWidget* dock = window.runPanel()->parentWidget();
    dock->show();
    ok &= save(&window, dir, QStringLiteral("12-engine-runs"), suffix);
    dock->hide();
    if (SeedTablesDialog* tables = window.showSeedTables()) {
        ok &= save(tables, dir, QStringLiteral("13-field-report-tables"), suffix);
        tables->close();
    }
    return ok;
}

} // namespace

int runScreenshotTour(const QString& dir, const QString& ledger, const QString& suffix) {
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "probaudit-workbench: cannot create %s\n", qPrintable(dir));
        return 1;
    }
    ReviewPtr review;
    try {
        review = ReviewLoader::loadNow(ledger);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "probaudit-workbench: %s\n", e.what());
        return 1;
    }
    bool ok = true;
    {
        MainWindow empty;
        empty.resize(1100, 720);
        empty.show();
        ok &= save(&empty, dir, QStringLiteral("00-empty-state"), suffix);
    }
    MainWindow window;
    window.resize(1500, 940);
    window.show();
    // Wait for the engine's fingerprint, so the status bar shows what a user sees.
    {
        QEventLoop loop;
        QObject::connect(window.engine(), &EngineClient::fingerprintReady, &loop,
                         &QEventLoop::quit);
        QObject::connect(window.engine(), &EngineClient::failed, &loop, &QEventLoop::quit);
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        if (window.fingerprint().isEmpty()) {
            loop.exec();
        }
    }
    window.showReview(review);
    if (review->generation) {
        // A generation study: its agreement table with the worst comparison's outputs, then
        // the logit-gap histogram.
        GenerationPage* gen = window.generationPage();
        ok &= save(&window, dir, QStringLiteral("01-generation-outputs"), suffix);
        gen->showGapsTab();
        ok &= save(&window, dir, QStringLiteral("02-generation-gaps"), suffix);
        ok &= savePresentation(review, -1, dir, suffix);
        ok &= saveForms(window, review, dir, suffix);
        AboutDialog* about = window.showAbout();
        ok &= save(about, dir, QStringLiteral("08-about"), suffix);
        about->close();
        return ok ? 0 : 1;
    }
    ok &= saveReviewViews(window, review, dir, suffix);
    ok &= saveForms(window, review, dir, suffix);
    AboutDialog* about = window.showAbout();
    ok &= save(about, dir, QStringLiteral("08-about"), suffix);
    about->close();
    return ok ? 0 : 1;
}

} // namespace probaudit::ui
