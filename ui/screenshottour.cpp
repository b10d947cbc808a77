#include "ui/screenshottour.h"

#include "ui/aboutdialog.h"
#include "ui/engineclient.h"
#include "ui/heatmapwidget.h"
#include "ui/inspector.h"
#include "ui/itemstable.h"
#include "ui/mainwindow.h"
#include "ui/reviewpage.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <exception>

namespace probaudit {
namespace ui {

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

// The item an auditor opens first: a flip with the largest Δp, else the largest Δp.
std::int64_t tellingItem(const analysis::Review& rv, int row) {
    if (row < 0 || !rv.rows[std::size_t(row)].cmp) {
        return rv.items.empty() ? -1 : 0;
    }
    const auto& diffs = rv.rows[std::size_t(row)].cmp->diffs;
    std::int64_t best = -1;
    std::pair<bool, double> key{false, -1};
    for (const auto& d : diffs) {
        const std::pair<bool, double> k{d.flip, d.dp};
        if (k > key) {
            key = k;
            best = d.item;
        }
    }
    return best;
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
    ReviewPage* page = window.reviewPage();
    ok &= save(&window, dir, QStringLiteral("01-dashboard-items"), suffix);
    page->showTab(ReviewPage::ChartsTab);
    ok &= save(&window, dir, QStringLiteral("02-charts"), suffix);
    page->showTab(ReviewPage::LayersTab);
    ok &= save(&window, dir, QStringLiteral("03-layers"), suffix);
    page->showTab(ReviewPage::DiagnosisTab);
    ok &= save(&window, dir, QStringLiteral("04-diagnosis"), suffix);
    page->showTab(ReviewPage::RunsTab);
    ok &= save(&window, dir, QStringLiteral("05-runs"), suffix);
    page->showTab(ReviewPage::ItemsTab);
    const std::int64_t item = tellingItem(*review, page->comparisonRow());
    page->inspectItem(item);
    ok &= save(&window, dir, QStringLiteral("06-inspector"), suffix);
    // The near-boundary view: the items table filtered to the smallest reference margins.
    ItemFilter nearBoundary;
    nearBoundary.marginBelow = 1.0;
    page->itemsTable()->setExternalFilter(QApplication::translate("ScreenshotTour", "|margin| < 1"),
                                          nearBoundary);
    ok &= save(&window, dir, QStringLiteral("07-items-near-boundary"), suffix);
    page->itemsTable()->clearExternalFilter();
    AboutDialog* about = window.showAbout();
    ok &= save(about, dir, QStringLiteral("08-about"), suffix);
    about->close();
    return ok ? 0 : 1;
}

} // namespace ui
} // namespace probaudit
