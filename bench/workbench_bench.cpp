// Workbench responsiveness (issue "The workbench" bars): a ledger with two 100,000-item runs
// (a reference and a config that moves a third of the items and flips the near-ties), opened
// through the main window as a user opens it: time until the dashboard is shown, the longest
// stretch the GUI thread was blocked meanwhile (a 5 ms timer probe), and the time to re-filter
// and re-sort the items table with the view repainted. Prints one JSON object.
//
//   QT_QPA_PLATFORM=offscreen build/default/bin/workbench_bench [--items 100000] [--reps 5]
#include "review_fixture.h"
#include "ui/models/itemsmodel.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/itemstable.h"
#include "ui/pages/mainwindow.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/runcontroller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

using namespace probaudit;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The longest gap between two ticks of a 5 ms timer: how long the GUI thread was busy.
class BlockProbe : public QObject {
public:
    BlockProbe() {
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_max = std::max(m_max, now - m_last);
            m_last = now;
        });
    }
    void start() {
        m_max = 0;
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    double stopMs() {
        m_timer.stop();
        return double(m_max) / 1e6;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_max = 0;
};

struct Options {
    std::int64_t items = 100000;
    int reps = 5;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--items") {
            o.items = std::atoll(argv[i + 1]);
        } else if (a == "--reps") {
            o.reps = std::atoi(argv[i + 1]);
        }
    }
    return o;
}

void waitForFingerprint(ui::MainWindow& window) {
    // The engine's fingerprint arrives from a child process; let it land first.
    QEventLoop loop;
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    QObject::connect(window.engine(), &ui::EngineClient::fingerprintReady, &loop,
                     &QEventLoop::quit);
    QObject::connect(window.engine(), &ui::EngineClient::failed, &loop, &QEventLoop::quit);
    loop.exec();
}

// Opens the ledger `reps` times: time until the dashboard is painted, the GUI thread's longest
// block meanwhile. False when it does not open.
bool measureOpening(ui::MainWindow& window, const QString& path, int reps, BlockProbe& probe,
                    QElapsedTimer& t, nlohmann::json& out) {
    std::vector<double> opens, blocks;
    for (int r = 0; r < reps; ++r) {
        QSignalSpy loaded(window.loader(), &ui::ReviewLoader::loaded);
        probe.start();
        t.restart();
        window.openStudyFile(path);
        if (!loaded.wait(60000)) {
            std::cerr << "workbench_bench: the ledger did not open\n";
            return false;
        }
        QCoreApplication::processEvents();
        window.reviewPage()->dashboardView()->viewport()->repaint();
        opens.push_back(double(t.nsecsElapsed()) / 1e9);
        QCoreApplication::processEvents();
        blocks.push_back(probe.stopMs());
    }
    out["open_to_dashboard_seconds"] = {{"median", median(opens)},
                                        {"min", *std::min_element(opens.begin(), opens.end())},
                                        {"max", *std::max_element(opens.begin(), opens.end())}};
    out["gui_max_block_ms_while_opening"] = *std::max_element(blocks.begin(), blocks.end());
    return true;
}

void measureChartsTab(ui::MainWindow& window, int reps, QElapsedTimer& t, nlohmann::json& out) {
    // The charts are built when their tab is first shown after a change.
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        window.reviewPage()->showTab(ui::ReviewPage::ItemsTab);
        window.reviewPage()->setComparisonRow(1);
        QCoreApplication::processEvents();
        t.restart();
        window.reviewPage()->showTab(ui::ReviewPage::ChartsTab);
        window.reviewPage()->repaint();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    out["charts_tab_shown_ms"] = {{"median", median(ms)},
                                  {"max", *std::max_element(ms.begin(), ms.end())}};
    window.reviewPage()->showTab(ui::ReviewPage::ItemsTab);
}

// Re-filtering and re-sorting the items table, the view repainted.
void measureRefilter(ui::MainWindow& window, int reps, QElapsedTimer& t, nlohmann::json& out) {
    ui::ItemsTable* table = window.reviewPage()->itemsTable();
    QTableView* view = table->view();
    auto timed = [&](const char* name, const std::function<void()>& action) {
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            table->model()->setFilter(ui::ItemFilter());
            QCoreApplication::processEvents();
            t.restart();
            action();
            view->viewport()->repaint();
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        out["refilter_ms"][name] = {{"median", median(ms)},
                                    {"max", *std::max_element(ms.begin(), ms.end())},
                                    {"shown", table->model()->rowCount()}};
    };
    timed("flips_only", [&] {
        ui::ItemFilter x;
        x.flipsOnly = true;
        table->model()->setFilter(x);
    });
    timed("changed_only", [&] {
        ui::ItemFilter x;
        x.changedOnly = true;
        table->model()->setFilter(x);
    });
    timed("dp_above", [&] {
        ui::ItemFilter x;
        x.dpAbove = 1e-4;
        table->model()->setFilter(x);
    });
    timed("margin_below", [&] {
        ui::ItemFilter x;
        x.marginBelow = 0.5;
        table->model()->setFilter(x);
    });
    timed("text_search", [&] {
        ui::ItemFilter x;
        x.text = QStringLiteral("SOUP");
        table->model()->setFilter(x);
    });
    timed("sort_by_dp",
          [&] { table->model()->sort(ui::ItemsModel::DpColumn, Qt::DescendingOrder); });
    timed("sort_by_text",
          [&] { table->model()->sort(ui::ItemsModel::TextColumn, Qt::AscendingOrder); });
}

// The study of the engine run: all-MiniLM-L6-v2 with its mean adapter on the 1,000 yelp
// sentences, the reference config and batch 8.
void writeRunStudy(const QString& study) {
    const QString root = QStringLiteral(PROBAUDIT_SOURCE_DIR);
    QFile sf(study);
    sf.open(QIODevice::WriteOnly);
    sf.write(QStringLiteral(
                 "{\"name\":\"bench\",\"model\":{\"path\":\"%1/.cache/models/all-MiniLM-L6-v2\"},"
                 "\"heads\":{\"mean\":{\"kind\":\"adapter\",\"path\":\"%1/tests/fixtures/"
                 "adapters/all-MiniLM-L6-v2-mean.safetensors\",\"labels\":[\"negative\","
                 "\"positive\"]}},\"dataset\":{\"path\":\"%1/resources/demo/"
                 "sentiment-sentences/yelp.jsonl\"},\"capture\":\"hashes\",\"configs\":{"
                 "\"ref\":{},\"b8\":{\"batch_size\":8}},\"reference\":\"ref\"}")
                 .arg(root)
                 .toUtf8());
    sf.close();
}

// The GUI thread while the engine runs: a real `probaudit run` of all-MiniLM-L6-v2 (the demo
// model) on the 1,000 yelp sentences under two configs, driven by the window as a user drives
// it, ending with the review reloaded. False when the run does not end.
bool measureEngineRun(const QTemporaryDir& dir, BlockProbe& probe, QElapsedTimer& t,
                      nlohmann::json& out) {
    const QString study = dir.filePath(QStringLiteral("run.study.json"));
    writeRunStudy(study);
    ui::MainWindow runWindow;
    runWindow.resize(1500, 940);
    runWindow.show();
    QSignalSpy ended(runWindow.runController(), &ui::RunController::finished);
    QSignalSpy progressEvents(runWindow.runController(), &ui::RunController::progress);
    QSignalSpy reloaded(runWindow.loader(), &ui::ReviewLoader::loaded);
    probe.start();
    t.restart();
    runWindow.runNewStudy(study);
    if (!ended.wait(600000)) {
        std::cerr << "workbench_bench: the engine run did not end\n";
        return false;
    }
    reloaded.wait(60000);
    out["engine_run"] = {{"items", 2000},
                         {"seconds", double(t.nsecsElapsed()) / 1e9},
                         {"progress_events", progressEvents.count()},
                         {"gui_max_block_ms", probe.stopMs()}};
    return true;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const Options o = parseOptions(argc, argv);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.ledger"));
    testing::Fixture f = testing::defaultFixture(o.items);
    f.layers = 32;
    f.configs.resize(2); // the reference and batch-8
    QElapsedTimer t;
    t.start();
    testing::writeFixtureLedger(path.toStdString(), f);
    nlohmann::json out{{"items", o.items}, {"runs", 2}, {"hidden_states", f.layers + 1}};
    out["write_seconds"] = double(t.nsecsElapsed()) / 1e9;

    ui::MainWindow window;
    window.resize(1500, 940);
    window.show();
    waitForFingerprint(window);
    BlockProbe probe;
    if (!measureOpening(window, path, o.reps, probe, t, out)) {
        return 1;
    }
    measureChartsTab(window, o.reps, t, out);
    measureRefilter(window, o.reps, t, out);
    if (!measureEngineRun(dir, probe, t, out)) {
        return 1;
    }
    std::cout << out.dump(2) << "\n";
    return 0;
}
