// The workbench's review views on a synthetic ledger whose differences are known by
// construction (tests/review_fixture.h): formatting, the dashboard, the items table's
// filters and sorting (every model under QAbstractItemModelTester), chart and heatmap
// click-through, the inspector, opening a ledger in the background, and the screenshot tour.
#include "cli_support.h"
#include "core/bundle/lockfile.h"
#include "core/common/error.h"
#include "core/ledger/policy_record.h"
#include "core/policy/gate.h"
#include "private_settings.h"
#include "review_fixture.h"
#include "ui/charts/charts.h"
#include "ui/charts/heatmapwidget.h"
#include "ui/charts/neartiechart.h"
#include "ui/models/dashboardmodel.h"
#include "ui/models/format.h"
#include "ui/models/generationmodels.h"
#include "ui/models/inspectormodels.h"
#include "ui/models/itemsmodel.h"
#include "ui/models/pinstatus.h"
#include "ui/models/runsmodel.h"
#include "ui/models/variantsmodel.h"
#include "ui/pages/causeview.h"
#include "ui/pages/chartspanel.h"
#include "ui/pages/generationpage.h"
#include "ui/pages/inspector.h"
#include "ui/pages/itemstable.h"
#include "ui/pages/language.h"
#include "ui/pages/mainwindow.h"
#include "ui/pages/presentation.h"
#include "ui/pages/reviewpage.h"
#include "ui/pages/screenshottour.h"
#include "ui/pages/seedtablesdialog.h"
#include "ui/pages/verdictstrip.h"
#include "variant_fixtures.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>

#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <memory>

#include <SQLiteCpp/SQLiteCpp.h>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <sstream>

#include <set>

using namespace probaudit;
using namespace probaudit::ui;
using probaudit::testing::Fixture;

namespace {

const Fixture& fixture() {
    static const Fixture f = probaudit::testing::defaultFixture(40);
    return f;
}

const testing::FixtureConfig& config(const QString& name) {
    for (const auto& c : fixture().configs) {
        if (QString::fromStdString(c.name) == name) {
            return c;
        }
    }
    qFatal("no fixture config");
}

double deltaOf(const testing::FixtureConfig& c, std::int64_t i) {
    return c.delta ? c.delta(i) : 0;
}

// What the fixture wrote for item i under config c, recomputed here.
ledger::Record recordOf(const testing::FixtureConfig& c, std::int64_t i) {
    return testing::fixtureRecord(fixture(), i, deltaOf(c, i), c.first_layer, 0);
}

int rowOf(const analysis::Review& rv, const QString& name) {
    for (std::size_t r = 0; r < rv.rows.size(); ++r) {
        if (QString::fromStdString(rv.rows[r].config) == name) {
            return int(r);
        }
    }
    return -1;
}

std::set<std::int64_t> shownItems(const ItemsModel& m) {
    std::set<std::int64_t> out;
    for (int r = 0; r < m.rowCount(); ++r) {
        out.insert(m.itemAt(r));
    }
    return out;
}

} // namespace

class TestReview : public QObject {
    Q_OBJECT
    probaudit::testing::PrivateSettings m_settings;

    QTemporaryDir m_dir;
    QString m_ledger;
    ReviewPtr m_review;

    // A copy of the fixture ledger named `name`, with `edit` (SQL) applied; "" when it failed.
    QString editedCopy(const QString& name, const QString& edit) {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        if (!QFile::copy(m_ledger, path)) {
            return {};
        }
        QFile(path).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        SQLite::Database db(path.toStdString(), SQLite::OPEN_READWRITE);
        db.exec(edit.toStdString());
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ProbAuditTest"));
        QVERIFY(m_settings.active());
        QVERIFY(m_dir.isValid());
        m_ledger = m_dir.filePath(QStringLiteral("fixture.ledger"));
        testing::writeFixtureLedger(m_ledger.toStdString(), fixture());
        m_review = ReviewLoader::loadNow(m_ledger);
        QVERIFY(m_review);
    }

    void formatting_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("share exact 1") << "share" << 1.0 << "100%";
        QTest::newRow("share just below 1") << "share" << 0.9996 << "> 99.9%";
        QTest::newRow("share exact 0") << "share" << 0.0 << "0%";
        QTest::newRow("share just above 0") << "share" << 0.0004 << "< 0.1%";
        QTest::newRow("share") << "share" << 0.723 << "72.3%";
        QTest::newRow("points 0") << "points" << 0.0 << "0";
        QTest::newRow("points tiny") << "points" << 9.239e-05 << "9.24e-05";
        QTest::newRow("points") << "points" << 2.0412 << "2.04";
        QTest::newRow("layer none") << "layer" << -1.0 << "none";
        QTest::newRow("layer n/a") << "layer" << -2.0 << "not captured";
        QTest::newRow("layer 0") << "layer" << 0.0 << "embeddings";
        QTest::newRow("layer 3") << "layer" << 3.0 << "layer 3";
    }
    void formatting() {
        QFETCH(QString, kind);
        QFETCH(double, value);
        QFETCH(QString, expected);
        const QString got = kind == QLatin1String("share")    ? formatShare(value)
                            : kind == QLatin1String("points") ? formatPoints(value)
                                                              : formatLayer(int(value));
        QCOMPARE(got, expected);
    }

    void intervalIsSignedInPoints() {
        QCOMPARE(formatInterval(-0.0007, -0.0015, 0.0001),
                 QStringLiteral("\u22120.07 [\u22120.15, +0.01]"));
    }

    // The review: the reference first, each config compared with it, the axes that differ.
    void reviewRows() {
        const auto& rv = *m_review;
        QCOMPARE(rv.rows.size(), std::size_t(4));
        QCOMPARE(rv.rows.front().config, std::string("reference"));
        QVERIFY(rv.rows.front().reference);
        const auto& b8 = rv.rows[std::size_t(rowOf(rv, QStringLiteral("batch-8")))];
        QCOMPARE(b8.differs_in, std::vector<std::string>{"batch_size"});
        std::int64_t flips = 0;
        for (std::int64_t i = 0; i < fixture().items; ++i) {
            flips += std::abs(Fixture::gap(i)) < 0.05;
        }
        QVERIFY(flips > 0);
        QCOMPARE(b8.cmp->flips, flips);
        QCOMPARE(b8.modal_first_layer, 2);
        QCOMPARE(rv.rows[std::size_t(rowOf(rv, QStringLiteral("bfloat16")))].modal_first_layer, 0);
        const auto& t2 = rv.rows[std::size_t(rowOf(rv, QStringLiteral("threads-2")))];
        QCOMPARE(t2.cmp->bit_identical_share, 1.0);
        QCOMPARE(t2.modal_first_layer, -1);
    }

    void dashboard() {
        DashboardModel model;
        QAbstractItemModelTester tester(&model);
        model.setReview(m_review);
        QCOMPARE(model.rowCount(), 4);
        auto severity = [&](const QString& name) {
            return Severity(
                model.index(rowOf(*m_review, name), 0).data(DashboardModel::SeverityRole).toInt());
        };
        QCOMPARE(severity(QStringLiteral("reference")), Severity::BitIdentical);
        QCOMPARE(severity(QStringLiteral("batch-8")), Severity::Flips);
        QCOMPARE(severity(QStringLiteral("bfloat16")), Severity::Numbers);
        QCOMPARE(severity(QStringLiteral("threads-2")), Severity::BitIdentical);
        const int b8 = rowOf(*m_review, QStringLiteral("batch-8"));
        QCOMPARE(model.index(b8, DashboardModel::FlipsColumn).data().toString(),
                 QStringLiteral("%1 / 40").arg(m_review->rows[std::size_t(b8)].cmp->flips));
        const QVariantList verdict = model.index(b8, DashboardModel::VerdictColumn)
                                         .data(DashboardModel::VerdictRole)
                                         .toList();
        QCOMPARE(verdict.size(), 3);
        QCOMPARE(verdict[1].toBool(), false); // decisions do not reproduce
        QCOMPARE(verdict[2].toBool(), false); // nor the bits
        QCOMPARE(model.index(b8, DashboardModel::FirstLayerColumn).data().toString(),
                 QStringLiteral("layer 2"));
        // Severity colours the row.
        QVERIFY(model.index(b8, 0).data(Qt::BackgroundRole).isValid());
    }

    void runsModel() {
        RunsModel model;
        QAbstractItemModelTester tester(&model);
        model.setReview(m_review);
        QCOMPARE(model.rowCount(), 4);
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(model.index(r, RunsModel::StatusColumn).data().toString(),
                     QStringLiteral("finished"));
            QCOMPARE(model.index(r, RunsModel::SealColumn).data().toString().size(), 12);
            // The environment's fingerprint is one hover away (the fixture's is minimal).
            QVERIFY(model.index(r, RunsModel::EnvironmentColumn)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("libtorch")));
        }
    }

    // A study with model variants (tiny-llama, an identical copy and a build with its output
    // head rounded to bfloat16; the head records its vocabulary): the Variants tab shows each
    // variant against its baseline with the KL columns, the Runs view names every run's
    // variant, and a study of one model has no Variants tab.
    void variantsTab() {
        QTemporaryDir dir;
        const QString fixtures = test::kVariantFixtures;
        const QString study = dir.filePath(QStringLiteral("v.study.json"));
        QVERIFY(test::writeFile(
            study,
            QStringLiteral(
                R"({"name":"variants","models":{"full":{"path":"%1/tiny-llama"},"rounded":)"
                R"({"path":"%2"},"copy":{"path":"%3"}},"heads":{"h":{"kind":"label_tokens",)"
                R"("template":"Review: {text} Verdict:","labels":[" a"," b"],"vocabulary":true}},)"
                R"("dataset":{"path":"%4/resources/demo/sentiment-sentences/yelp.jsonl",)"
                R"("limit":12},"reference":"ref","configs":{"ref":{},"ref-b4":{"batch_size":4},)"
                R"("rounded":{"model":"rounded"},"copy":{"model":"copy"}}})")
                .arg(fixtures, test::writeRoundedVariant(dir.path()),
                     test::copyOfTinyLlama(dir.path()), QStringLiteral(PROBAUDIT_SOURCE_DIR))
                .toUtf8()));
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        const auto ran = test::cli({QStringLiteral("run"), study, QStringLiteral("--all"),
                                    QStringLiteral("--ledger"), ledger});
        QVERIFY2(ran.code == 0, ran.err);
        const ReviewPtr rv = ReviewLoader::loadNow(ledger);
        QVERIFY(rv->variants);

        VariantsModel model;
        QAbstractItemModelTester tester(&model);
        model.setReview(rv);
        QCOMPARE(model.rowCount(), 2);
        QMap<QString, int> row;
        for (int r = 0; r < 2; ++r) {
            row[model.index(r, VariantsModel::ConfigColumn).data().toString()] = r;
        }
        const auto cell = [&](const char* config, int column) {
            return model.index(row[QString::fromLatin1(config)], column).data().toString();
        };
        QCOMPARE(cell("copy", VariantsModel::FlipsColumn), QStringLiteral("0"));
        QCOMPARE(cell("copy", VariantsModel::KlMeanColumn), QStringLiteral("0.0000"));
        QVERIFY(cell("copy", VariantsModel::SameTopColumn).startsWith(QStringLiteral("100.0% [")));
        QCOMPARE(cell("copy", VariantsModel::BaselineColumn), QStringLiteral("ref"));
        QVERIFY(cell("rounded", VariantsModel::KlMeanColumn) != QStringLiteral("0.0000"));
        QVERIFY2(model.floorText().contains(QStringLiteral(
                     "the reference variant \"full\" under 1 other runtime config(s)")),
                 qPrintable(model.floorText()));

        RunsModel runs;
        runs.setReview(rv);
        QCOMPARE(runs.rowCount(), 4);
        const QMap<QString, QString> variantOf{
            {QStringLiteral("ref"), QStringLiteral("full")},
            {QStringLiteral("ref-b4"), QStringLiteral("full")},
            {QStringLiteral("rounded"), QStringLiteral("rounded")},
            {QStringLiteral("copy"), QStringLiteral("copy")}};
        for (int r = 0; r < runs.rowCount(); ++r) {
            const QString config = runs.index(r, RunsModel::ConfigColumn).data().toString();
            QCOMPARE(runs.index(r, RunsModel::ModelColumn).data().toString(), variantOf[config]);
        }

        ReviewPage page;
        page.setReview(rv);
        QVERIFY(page.tabs()->isTabVisible(ReviewPage::VariantsTab));
        page.setReview(m_review); // the fixture: one model
        QVERIFY(!page.tabs()->isTabVisible(ReviewPage::VariantsTab));
        QCOMPARE(RunsModel().headerData(RunsModel::ModelColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Model variant"));
    }

    // Each filter shows exactly the items the fixture's construction says it must.
    void itemFilters_data() {
        QTest::addColumn<QString>("configName");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("value");
        QTest::newRow("none") << "batch-8"
                              << "none" << 0.0;
        QTest::newRow("flips only") << "batch-8"
                                    << "flips" << 0.0;
        QTest::newRow("changed only") << "batch-8"
                                      << "changed" << 0.0;
        QTest::newRow("dp above 0.02") << "bfloat16"
                                       << "dpAbove" << 0.02;
        QTest::newRow("margin below 0.5") << "bfloat16"
                                          << "marginBelow" << 0.5;
        QTest::newRow("label positive") << "batch-8"
                                        << "label" << 1.0;
        QTest::newRow("text SOUP") << "batch-8"
                                   << "text" << 0.0;
        QTest::newRow("layer 1 differs") << "batch-8"
                                         << "layer" << 1.0;
        QTest::newRow("layer 2 differs") << "batch-8"
                                         << "layer" << 2.0;
        QTest::newRow("flips in threads-2") << "threads-2"
                                            << "flips" << 0.0;
    }
    void itemFilters() {
        QFETCH(QString, configName);
        QFETCH(QString, kind);
        QFETCH(double, value);
        ItemsModel model;
        QAbstractItemModelTester tester(&model);
        model.setComparison(m_review, rowOf(*m_review, configName));
        const auto& cfg = config(configName);
        const auto& ref = config(QStringLiteral("reference"));
        ItemFilter f;
        std::set<std::int64_t> expected;
        for (std::int64_t i = 0; i < fixture().items; ++i) {
            const ledger::Record a = recordOf(ref, i), b = recordOf(cfg, i);
            const double dp = 100.0 * std::max(std::abs(double(a.probs[0]) - double(b.probs[0])),
                                               std::abs(double(a.probs[1]) - double(b.probs[1])));
            bool keep = true;
            if (kind == QLatin1String("flips")) {
                keep = a.decision != b.decision;
            } else if (kind == QLatin1String("changed")) {
                keep = deltaOf(cfg, i) != 0;
            } else if (kind == QLatin1String("dpAbove")) {
                keep = dp > value;
            } else if (kind == QLatin1String("marginBelow")) {
                keep = std::abs(a.margin) < value;
            } else if (kind == QLatin1String("label")) {
                keep = Fixture::label(i) == int(value);
            } else if (kind == QLatin1String("text")) {
                keep = Fixture::text(i).find("soup") != std::string::npos;
            } else if (kind == QLatin1String("layer")) {
                keep = deltaOf(cfg, i) != 0 && cfg.first_layer <= int(value);
            }
            if (keep) {
                expected.insert(i);
            }
        }
        if (kind == QLatin1String("flips")) {
            f.flipsOnly = true;
        } else if (kind == QLatin1String("changed")) {
            f.changedOnly = true;
        } else if (kind == QLatin1String("dpAbove")) {
            f.dpAbove = value;
        } else if (kind == QLatin1String("marginBelow")) {
            f.marginBelow = value;
        } else if (kind == QLatin1String("label")) {
            f.label = int(value);
        } else if (kind == QLatin1String("text")) {
            f.text = QStringLiteral("SOUP");
        } else if (kind == QLatin1String("layer")) {
            f.layerDiffers = int(value);
        }
        QSignalSpy counts(&model, &ItemsModel::countsChanged);
        model.setFilter(f);
        QCOMPARE(shownItems(model), expected);
        QCOMPARE(counts.count(), 1);
        QCOMPARE(counts.first().at(0).toInt(), int(expected.size()));
        QCOMPARE(counts.first().at(1).toInt(), int(fixture().items));
    }

    void itemSorting() {
        ItemsModel model;
        QAbstractItemModelTester tester(&model);
        model.setComparison(m_review, rowOf(*m_review, QStringLiteral("bfloat16")));
        model.sort(ItemsModel::DpColumn, Qt::DescendingOrder);
        for (int r = 1; r < model.rowCount(); ++r) {
            QVERIFY(model.index(r - 1, 0).data(ItemsModel::DpRole).toDouble() >=
                    model.index(r, 0).data(ItemsModel::DpRole).toDouble());
        }
        model.sort(ItemsModel::MarginColumn, Qt::AscendingOrder);
        double least = 1e9;
        std::int64_t leastItem = -1;
        for (std::int64_t i = 0; i < fixture().items; ++i) {
            const float m = recordOf(config(QStringLiteral("reference")), i).margin;
            if (m < least) {
                least = m;
                leastItem = i;
            }
        }
        QCOMPARE(model.itemAt(0), leastItem);
        // The sort survives a new filter.
        ItemFilter f;
        f.label = 1;
        model.setFilter(f);
        for (int r = 1; r < model.rowCount(); ++r) {
            QVERIFY(model.index(r - 1, ItemsModel::MarginColumn)
                        .data(ItemsModel::SortRole)
                        .toDouble() <=
                    model.index(r, ItemsModel::MarginColumn).data(ItemsModel::SortRole).toDouble());
        }
    }

    // Flipped rows are tinted, and say which way the decision went.
    void flippedRowsStandOut() {
        ItemsModel model;
        model.setComparison(m_review, rowOf(*m_review, QStringLiteral("batch-8")));
        ItemFilter f;
        f.flipsOnly = true;
        model.setFilter(f);
        QVERIFY(model.rowCount() > 0);
        for (int c = 0; c < ItemsModel::NUM_COLUMNS; ++c) {
            QVERIFY(model.index(0, c).data(Qt::BackgroundRole).isValid());
        }
        QVERIFY(model.index(0, ItemsModel::FlipColumn).data().toString().contains(u'→'));
    }

    void copyRows() {
        ItemsTable table;
        table.setComparison(m_review, rowOf(*m_review, QStringLiteral("batch-8")));
        table.view()->selectRow(0);
        table.view()->selectionModel()->select(
            table.model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table.copySelection();
        const QStringList lines =
            QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // header + 2 rows
        QVERIFY(lines[0].startsWith(QStringLiteral("Id\tText\tLabel")));
        QCOMPARE(lines[1].section(u'\t', 0, 0),
                 QString::fromStdString(m_review->items[std::size_t(table.model()->itemAt(0))].id));
    }

    // A study with a float64 run: the items table's "To exact" column (shown, with both sides
    // in its tooltip), its copy, and the charts' distance-to-exact chart; hidden without one.
    void distanceToExactInTheWorkbench() {
        QTemporaryDir dir;
        const testing::Fixture f = testing::exactFixture();
        const QString path = dir.filePath(QStringLiteral("exact.ledger"));
        testing::writeFixtureLedger(path.toStdString(), f);
        const ReviewPtr rv = ReviewLoader::loadNow(path);
        QCOMPARE(rv->exact_config, std::string("exact"));
        const int row = rowOf(*rv, QStringLiteral("near"));
        const auto& exact = *rv->rows[std::size_t(row)].exact;
        ItemsTable table;
        table.setComparison(rv, row);
        QVERIFY(!table.view()->isColumnHidden(ItemsModel::ExactColumn));
        const ItemsModel& model = *table.model();
        int closer = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex cell = model.index(r, ItemsModel::ExactColumn);
            const double shown = cell.data(ItemsModel::SortRole).toDouble();
            const std::int64_t item = model.itemAt(r);
            // The item's own distance, from its diff in the comparison.
            const auto& diffs = rv->rows[std::size_t(row)].cmp->diffs;
            const auto at = std::find_if(diffs.begin(), diffs.end(),
                                         [&](const auto& d) { return d.item == item; });
            QCOMPARE(shown, exact.item_b[std::size_t(at - diffs.begin())]);
            if (cell.data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("this config is "
                                             "closer"))) {
                ++closer;
            }
        }
        QCOMPARE(closer, int(exact.b_closer));
        QVERIFY(closer > 0);
        table.view()->selectRow(0);
        table.copySelection();
        QVERIFY(QApplication::clipboard()
                    ->text()
                    .section(u'\n', 0, 0)
                    .endsWith(QStringLiteral("\tTo exact")));
        ChartsPanel panel;
        panel.show();
        panel.setComparison(rv, row);
        QVERIFY(panel.exactView()->isVisible());
        QVERIFY(panel.exactView()->chart()->title().contains(QStringLiteral("Distance to exact")));
        // The fixture study of the other tests has no float64 run.
        table.setComparison(m_review, rowOf(*m_review, QStringLiteral("batch-8")));
        QVERIFY(table.view()->isColumnHidden(ItemsModel::ExactColumn));
        panel.setComparison(m_review, rowOf(*m_review, QStringLiteral("batch-8")));
        QVERIFY(!panel.exactView()->isVisible());
    }

    // A click on the margin histogram's flipped segment filters the table to those items.
    void marginChartClickFilters() {
        const int row = rowOf(*m_review, QStringLiteral("batch-8"));
        const auto& c = *m_review->rows[std::size_t(row)].cmp;
        QString description;
        ItemFilter got;
        std::unique_ptr<QChart> chart(
            makeMarginHistogram(c, [&](const QString& d, const ItemFilter& f) {
                description = d;
                got = f;
            }));
        auto* series = qobject_cast<QStackedBarSeries*>(chart->series().front());
        QVERIFY(series);
        QBarSet* flipped = series->barSets().back();
        int bin = -1;
        for (std::size_t b = 0; b < c.margin_bins.size(); ++b) {
            if (c.margin_bins[b].flips > 0) {
                bin = int(b);
            }
        }
        QVERIFY(bin >= 0);
        Q_EMIT series->clicked(bin, flipped);
        QVERIFY(got.flipsOnly);
        QVERIFY(got.marginRange.has_value());
        QVERIFY(description.contains(QStringLiteral("flipped")));
        ItemsModel model;
        model.setComparison(m_review, row);
        model.setFilter(got);
        QCOMPARE(model.rowCount(), int(c.margin_bins[std::size_t(bin)].flips));
    }

    // The flip-rate chart: each config that flipped is drawn (batch-8 in the fixture); its point
    // in the bin of the flip is the flip rate there, its whisker the Wilson interval.
    void nearTieChartPlacesTheFlips() {
        const auto rows = analysis::nearTies(*m_review);
        std::unique_ptr<QChart> chart(makeNearTieChart(rows));
        QList<QScatterSeries*> points;
        for (QAbstractSeries* s : chart->series()) {
            if (auto* p = qobject_cast<QScatterSeries*>(s)) {
                points << p;
            }
        }
        // batch-8 on its own, the configs that did not flip as one series at 0.
        QCOMPARE(points.size(), 2);
        QVERIFY(points[0]->name().startsWith(QStringLiteral("batch-8 (")));
        QCOMPARE(points[1]->name(), QStringLiteral("%1 configs, no flip").arg(rows.size() - 1));
        for (const QPointF& p : points[1]->points()) {
            QCOMPARE(p.y(), 0.0);
        }
        const auto& b8 = *std::find_if(rows.begin(), rows.end(),
                                       [](const auto& r) { return r.config == "batch-8"; });
        int k = 0, hits = 0;
        for (const auto& bin : b8.bins) {
            if (bin.items == 0) {
                continue;
            }
            const QPointF p = points[0]->at(k++);
            QCOMPARE(p.y(), 100 * double(bin.flips) / double(bin.items));
            hits += bin.flips > 0 && p.y() > 0;
        }
        QCOMPARE(k, points[0]->count());
        QVERIFY(hits > 0);
        // The panel shows it beside the margin histogram.
        ChartsPanel panel;
        panel.show();
        panel.setComparison(m_review, rowOf(*m_review, QStringLiteral("batch-8")));
        QVERIFY(panel.nearTieView()->chart() != nullptr);
        QVERIFY(panel.nearTieView()->chart()->title().contains(QStringLiteral("Wilson")));
    }

    // View → Field Report Tables: the Markdown of `summary --seed-tables`, rendered as tables.
    void seedTablesDialog() {
        SeedTablesDialog dialog(m_review);
        QVERIFY(dialog.markdown().contains(QStringLiteral("## Flips at near ties")));
        std::ostringstream md;
        analysis::writeSeedTablesMarkdown(md, {m_review.get()}, {});
        QVERIFY(dialog.markdown().endsWith(QString::fromStdString(md.str())));
        const QString shown = dialog.browser()->toPlainText();
        QVERIFY2(!shown.contains(QStringLiteral("|---")), qPrintable(shown)); // tables, not pipes
        QVERIFY(shown.contains(QStringLiteral("batch-8")));
    }

    // The policy's verdict strip: evaluated in the background, saying when the policy was
    // registered (here: changed after the runs), each failed check a link to its items.
    void policyVerdictStrip() {
        Fixture f = fixture();
        f.policy = nlohmann::json::parse(
            R"({"rules": [{"name": "shape", "configs": [{"class": "shape"}], "max_flips": 5},
                          {"name": "bits", "configs": ["threads-2"], "bit_identical": true}]})");
        const QString path = m_dir.filePath(QStringLiteral("policy.ledger"));
        testing::writeFixtureLedger(path.toStdString(), f);
        {
            ledger::Ledger led(path.toStdString(), ledger::Ledger::Mode::Write);
            nlohmann::json study = led.study();
            study["policy"]["rules"][0]["max_flips"] = 0; // tightened after the runs
            ledger::registerPolicy(led, led.study(), study);
            led.updateStudy(study);
        }
        ReviewPage page;
        page.resize(1400, 900);
        page.show();
        QSignalSpy evaluated(page.verdict(), &VerdictStrip::evaluated);
        page.setReview(ReviewLoader::loadNow(path));
        QVERIFY(page.verdict()->isVisible());
        QVERIFY(evaluated.wait(30000));
        const QString text = page.verdict()->text();
        QVERIFY2(text.contains(QStringLiteral("<b>FAIL</b>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("registered after runs 1\u20132, 4")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("shape / max_flips / batch-8")));
        std::set<std::int64_t> flipped;
        for (std::int64_t i = 0; i < f.items; ++i) {
            if (std::abs(Fixture::gap(i)) < 0.05) {
                flipped.insert(i);
            }
        }
        QVERIFY(!flipped.empty());
        const auto& rows = page.verdict()->result()->rows;
        const auto failed = std::find_if(rows.begin(), rows.end(), [](const auto& r) {
            return r.outcome == policy::Outcome::Fail;
        });
        Q_EMIT page.verdict()->linkActivated(QString::number(failed - rows.begin()));
        QCOMPARE(page.comparisonRow(), rowOf(*page.review(), QStringLiteral("batch-8")));
        QCOMPARE(shownItems(*page.itemsTable()->model()), flipped);
        // Without a policy there is no strip.
        page.setReview(m_review);
        QVERIFY(!page.verdict()->isVisible());
    }

    // The page: the worst config is selected first; a heatmap click lists the items behind the
    // cell; the inspector shows one item under every config.
    void reviewPage() {
        ReviewPage page;
        page.resize(1400, 900);
        page.show();
        page.setReview(m_review);
        const int b8 = rowOf(*m_review, QStringLiteral("batch-8"));
        QCOMPARE(page.comparisonRow(), b8); // the only config with flips
        const auto& hm = page.heatmap()->rows();
        QCOMPARE(int(hm.size()), 3); // every config but the reference
        const int hmRow = int(std::find(hm.begin(), hm.end(), b8) - hm.begin());
        QVERIFY(page.heatmap()->cellText(hmRow, 2).contains(QStringLiteral("batch-8")));
        Q_EMIT page.heatmap()->cellClicked(b8, 2);
        std::set<std::int64_t> moved;
        for (std::int64_t i = 0; i < fixture().items; ++i) {
            if (deltaOf(config(QStringLiteral("batch-8")), i) != 0) {
                moved.insert(i);
            }
        }
        QCOMPARE(shownItems(*page.itemsTable()->model()), moved);
        // Rows = items: the most-moved items of batch-8, the flip first; a cell is that item's
        // own layer; a click opens the item.
        page.heatmap()->showItems(b8);
        QCOMPARE(page.heatmap()->rowTotal(), int(moved.size()));
        const std::int64_t top = page.heatmap()->itemOfRow(0);
        QVERIFY(std::abs(Fixture::gap(top)) < 0.05); // the flipped item leads
        QVERIFY(page.heatmap()->cellText(0, 2).contains(QStringLiteral("differ bitwise")));
        QVERIFY(page.heatmap()->cellText(0, 1).contains(QStringLiteral("the same bits")));
        QSignalSpy opened(page.heatmap(), &HeatmapWidget::itemClicked);
        QTest::mouseClick(page.heatmap(), Qt::LeftButton, {},
                          page.heatmap()->cellRect(0, 2).center());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toLongLong(), top);
        page.heatmap()->showConfigs();
        auto* chip = page.findChild<QToolButton*>(QStringLiteral("chartFilterChip"));
        QVERIFY(chip && chip->isVisible());
        chip->click();
        QCOMPARE(page.itemsTable()->model()->rowCount(), int(fixture().items));

        // Another dashboard row: every view follows.
        const int bf = rowOf(*m_review, QStringLiteral("bfloat16"));
        QSignalSpy changed(&page, &ReviewPage::comparisonChanged);
        page.setComparisonRow(bf);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(page.itemsTable()->model()->rowCount(), int(fixture().items));
        ItemFilter f;
        f.changedOnly = true;
        page.itemsTable()->model()->setFilter(f);
        QCOMPARE(page.itemsTable()->model()->rowCount(), int(fixture().items)); // all moved

        // The inspector on the flipped item.
        std::int64_t flippedItem = -1;
        for (std::int64_t i = 0; i < fixture().items; ++i) {
            if (std::abs(Fixture::gap(i)) < 0.05) {
                flippedItem = i;
            }
        }
        page.inspectItem(flippedItem);
        const ItemNumbersModel* numbers = page.inspector()->numbersModel();
        QCOMPARE(page.inspector()->numbersView()->model(), numbers);
        QCOMPARE(numbers->rowCount(), 4);
        bool sawFlip = false;
        for (int r = 0; r < numbers->rowCount(); ++r) {
            if (numbers->index(r, 0).data().toString() == QLatin1String("batch-8")) {
                sawFlip =
                    numbers->index(r, 4).data().toString().contains(QStringLiteral("flipped"));
            }
        }
        QVERIFY(sawFlip);
        const LayerHashModel* hashes = page.inspector()->hashModel();
        QCOMPARE(page.inspector()->hashView()->model(), hashes);
        QCOMPARE(hashes->columnCount(), fixture().layers + 1);
        for (int r = 0; r < hashes->rowCount(); ++r) {
            const QString name = hashes->headerData(r, Qt::Vertical).toString();
            const auto& cfg = config(name);
            for (int l = 0; l <= fixture().layers; ++l) {
                const bool differs = deltaOf(cfg, flippedItem) != 0 && l >= cfg.first_layer;
                QCOMPARE(hashes->index(r, l).data().toString(),
                         differs ? QStringLiteral("≠") : QStringLiteral("="));
            }
        }
        // The fixture's model does not exist: the inspector says why there are no tokens.
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("tokenNote"))
                    ->text()
                    .startsWith(QStringLiteral("Tokens not shown")));
    }

    // The Cause tab: it follows the dashboard's config, a click on a grid cell lists the items
    // whose cause that cell is, and activating one opens it in the inspector.
    void causeView() {
        auto rv = std::make_shared<analysis::Review>(*m_review);
        analysis::Localization l;
        l.config_a = "reference";
        l.config_b = "batch-8";
        l.layers = fixture().layers;
        l.items = {testing::fixtureCause(2, 1, OpClass::Attention, 1.0),
                   testing::fixtureCause(6, 1, OpClass::Mlp, 1.0)};
        analysis::Diagnosis d;
        d.reference = "reference";
        d.sample = 16;
        d.causes = {{"threads-2", "another CPU capability", {}}, {"batch-8", "", l}};
        rv->diagnosis = d;
        ReviewPage page;
        page.resize(1400, 900);
        page.show();
        page.setReview(rv);
        page.showTab(ReviewPage::CauseTab);
        CauseView* view = page.cause();
        auto* config = view->findChild<QComboBox*>(QStringLiteral("causeConfig"));
        QCOMPARE(page.comparisonRow(), rowOf(*m_review, QStringLiteral("batch-8")));
        QCOMPARE(config->currentText(), QStringLiteral("batch-8")); // the dashboard's config
        QCOMPARE(view->grid()->model()->rowCount(), 1);
        view->selectCell(0, 3 + int(OpClass::Mlp)); // the MLP's column
        QCOMPARE(view->items()->model()->rowCount(), 1);
        QCOMPARE(view->items()->model()->index(0, 0).data().toString(), QStringLiteral("item-6"));
        Q_EMIT view->items()->activated(view->items()->model()->index(0, 0));
        QCOMPARE(page.inspector()->item(), std::int64_t(6));
        config->setCurrentIndex(config->findText(QStringLiteral("threads-2")));
        QCOMPARE(view->grid()->model()->rowCount(), 0);
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("causeSummary"))
                    ->text()
                    .startsWith(QStringLiteral("Not localised: another CPU capability")));
    }

    // A generation study's review: its agreement table and outputs, from a ledger whose
    // differences are known by construction (review_fixture.h), shown on the generation page
    // by the main window.
    void generationPage() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gen.ledger"));
        testing::writeGenerationFixtureLedger(path.toStdString(), 12);
        const ReviewPtr rv = ReviewLoader::loadNow(path);
        QVERIFY(rv->generation);
        QCOMPARE(rv->generation_rows.size(), std::size_t(2));
        const auto& repeat = rv->generation_rows[0];
        QVERIFY(repeat.kind == GenerationPairKind::Repeat);
        QCOMPARE(repeat.b, std::string("serial-reordered"));
        QCOMPARE(repeat.cmp.identical, std::size_t(12));
        const auto& serving = rv->generation_rows[1];
        QVERIFY(serving.kind == GenerationPairKind::Serving);
        QCOMPARE(serving.a, std::string("serial"));
        QCOMPARE(serving.b, std::string("c4"));
        QCOMPARE(serving.cmp.identical, std::size_t(8));     // 4 of 12 items fork
        QCOMPARE(serving.cmp.pooled_jaccard, 32.0 / 40.0);   // 8 x 3 + 4 x 2 of 8 x 3 + 4 x 4
        QCOMPARE(serving.cmp.answers_agree, std::size_t(8)); // "fine" against "bad"
        QCOMPARE(serving.cmp.gaps.at_divergence[0], std::int64_t(4)); // all at gap 5e-5

        GenerationTableModel table;
        QAbstractItemModelTester tableTester(&table);
        table.setReview(rv);
        QCOMPARE(table.rowCount(), 2);
        QCOMPARE(table.index(1, GenerationTableModel::ComparisonColumn).data().toString(),
                 QStringLiteral("c4 vs serial"));
        QCOMPARE(table.index(1, GenerationTableModel::IdenticalColumn).data().toString(),
                 QStringLiteral("8 / 12 (%1)").arg(formatShare(8.0 / 12.0)));
        QCOMPARE(table.index(1, GenerationTableModel::JaccardColumn).data().toString(),
                 QStringLiteral("0.8000"));
        QCOMPARE(table.index(1, GenerationTableModel::AnswersColumn).data().toString(),
                 QStringLiteral("8 / 12"));
        QVERIFY(table.index(0, 0).data(GenerationTableModel::IdenticalRole).toBool());
        QVERIFY(!table.index(1, 0).data(GenerationTableModel::IdenticalRole).toBool());

        GenerationItemsModel items;
        QAbstractItemModelTester itemsTester(&items);
        items.setComparison(rv, 1);
        QCOMPARE(items.rowCount(), 12);
        int forks = 0;
        for (int r = 0; r < items.rowCount(); ++r) {
            const auto item =
                items.index(r, 0).data(GenerationItemsModel::ItemIndexRole).toLongLong();
            const bool fork = item % 3 == 0;
            forks += fork;
            QCOMPARE(items.index(r, GenerationItemsModel::DivergenceColumn).data().toString(),
                     fork ? QStringLiteral("2") : QStringLiteral("—"));
            QCOMPARE(items.index(r, GenerationItemsModel::AnswerBColumn).data().toString(),
                     fork ? QStringLiteral("bad") : QStringLiteral("fine"));
        }
        QCOMPARE(forks, 4);

        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.showReview(rv);
        QCOMPARE(window.findChild<QStackedWidget*>(QStringLiteral("pages"))->currentWidget(),
                 static_cast<QWidget*>(window.generationPage()));
        GenerationPage* page = window.generationPage();
        QCOMPARE(page->comparisonRow(), 1);  // the serving comparison whose outputs differ
        QVERIFY(page->shownItem() % 3 == 0); // a forked item first
        const QString outputs = page->outputsBrowser()->toPlainText();
        QVERIFY2(outputs.contains(QStringLiteral("diverge at generated token 2")),
                 qPrintable(outputs));
        QVERIFY(outputs.contains(QStringLiteral("5e-05")));
        const QString records = page->recordsBrowser()->toPlainText();
        QVERIFY2(records.contains(QStringLiteral("only here: fine")), qPrintable(records));
        QVERIFY(records.contains(QStringLiteral("only here: bad")));
        QVERIFY(records.contains(QStringLiteral("2 shared of 4")));
        // The gap histogram: all four forks in the lowest bin, the steps spread.
        auto* bars = qobject_cast<QBarSeries*>(page->gapsView()->chart()->series().at(0));
        QVERIFY(bars != nullptr);
        QCOMPARE(bars->barSets().at(0)->at(0), 100.0);
        // Another comparison: every view follows.
        page->setComparisonRow(0);
        QVERIFY(page->outputsBrowser()->toPlainText().contains(QStringLiteral("Byte-identical")));

        // Presentation mode of a generation study: the table, a forked prompt, the gaps.
        QCOMPARE(tellingGenerationRow(*rv), 1);
        QVERIFY(tellingGenerationItem(*rv, 1) % 3 == 0);
        QCOMPARE(tellingGenerationItem(*rv, 0), std::int64_t(-1)); // nothing differs there
        PresentationWindow show(rv, -1);
        QCOMPARE(show.slideCount(), 3);
        QCOMPARE(show.slideTitle(1), QStringLiteral("One prompt, two outputs"));
        bool sameToken = false; // the subtitle counts tokens as the outputs do (from 1)
        for (const QLabel* l : show.findChildren<QLabel*>()) {
            sameToken |= l->text().contains(QStringLiteral("part at generated token 2,"));
        }
        QVERIFY(sameToken);
        auto* shown = show.findChild<QTextBrowser*>();
        QVERIFY(shown != nullptr);
        QVERIFY2(shown->toPlainText().contains(QStringLiteral("diverge at generated token 2")),
                 qPrintable(shown->toPlainText()));
        auto* gapView = show.findChild<QChartView*>();
        QVERIFY(gapView != nullptr && gapView->chart() != nullptr);
        QCOMPARE(
            qobject_cast<QBarSeries*>(gapView->chart()->series().at(0))->barSets().at(0)->at(0),
            100.0);
    }

    // Opening through the window happens in the background and ends on the review page.
    void openInBackground() {
        MainWindow window;
        window.show();
        QSignalSpy loaded(window.loader(), &ReviewLoader::loaded);
        QSignalSpy progress(window.loader(), &ReviewLoader::progress);
        window.openStudyFile(m_ledger);
        QVERIFY(loaded.wait(30000));
        auto* pages = window.findChild<QStackedWidget*>(QStringLiteral("pages"));
        QCOMPARE(pages->currentWidget(), static_cast<QWidget*>(window.reviewPage()));
        QCOMPARE(window.reviewPage()->dashboardModel()->rowCount(), 4);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 1000);
    }

    void openingGarbageSaysWhy() {
        const QString bad = m_dir.filePath(QStringLiteral("garbage.ledger"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database, just text that goes on for a while........");
        f.close();
        ReviewLoader loader;
        QSignalSpy failed(&loader, &ReviewLoader::failed);
        loader.load(bad);
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.first().at(0).toString().contains(bad),
                 qPrintable(failed.first().at(0).toString()));
    }

    // A row this ledger cannot have written (an edit, damage) is one sentence naming the run
    // and the item for the workbench's loader, `compare` and `summary` (exit 1); `verify`
    // reports the run as tampered (exit 2). Unchecked, each of them read out of range.
    // A study row of the wrong shape, or a run whose config is gone (the fuzzer's second ledger
    // finding: a JSON type error out of the generation table): one sentence for the loader and
    // `summary` (exit 1), tampering for `verify` (exit 2).
    void malformedStudyRowsAreOneSentence_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("says");
        QTest::newRow("study is an array") << "UPDATE study SET json = '[1]'"
                                           << "the study row is not a JSON object";
        QTest::newRow("config is a number")
            << "UPDATE study SET json = json_set(json, '$.configs.reference', 5)"
            << "has configs entry \"reference\" that is not an object";
        QTest::newRow("reference is a number")
            << "UPDATE study SET json = json_set(json, '$.reference', 5)"
            << "names no reference config";
        QTest::newRow("a run's config is gone")
            << "UPDATE runs SET config_name = 'gone', config_hash = 'nohash' WHERE id = 2"
            << "run 2: its config nohash is not in the ledger";
    }
    void malformedStudyRowsAreOneSentence() {
        QFETCH(QString, edit);
        QFETCH(QString, says);
        const QString path = editedCopy(QStringLiteral("malformed-study.ledger"), edit);
        QVERIFY(!path.isEmpty());
        try {
            ReviewLoader::loadNow(path);
            QFAIL("the workbench's loader read the malformed study");
        } catch (const probaudit::Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(says), e.what());
        }
        const auto r = test::cli({QStringLiteral("summary"), path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QCOMPARE(test::cli({QStringLiteral("verify"), path}).code, 2);
    }

    void malformedRowsSayWhich_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("says");
        QTest::newRow("item out of range")
            << "UPDATE records SET item = 100000 WHERE run = 2 AND item = 3"
            << "run 2, item 100000: item index 100000 is outside the study's";
        QTest::newRow("layers row missing") << "DELETE FROM layers WHERE run = 2 AND item = 5"
                                            << "run 2, item 5: 0 layer hashes";
        QTest::newRow("decision out of range")
            << "UPDATE records SET decision = 7 WHERE run = 2 AND item = 1"
            << "run 2, item 1: decision 7 of 2 classes";
        QTest::newRow("probabilities cut")
            << "UPDATE records SET probs = substr(probs, 1, 7) WHERE run = 2 AND item = 2"
            << "run 2, item 2: probs holds 7 bytes";
    }
    void malformedRowsSayWhich() {
        QFETCH(QString, edit);
        QFETCH(QString, says);
        const QString path = editedCopy(QStringLiteral("malformed.ledger"), edit);
        QVERIFY(!path.isEmpty());
        try {
            ReviewLoader::loadNow(path);
            QFAIL("the workbench's loader read the malformed row");
        } catch (const probaudit::Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(path) && msg.contains(says), qPrintable(msg));
        }
        for (const QStringList& args : {QStringList{QStringLiteral("compare"), path,
                                                    QStringLiteral("1"), QStringLiteral("2")},
                                        QStringList{QStringLiteral("summary"), path}}) {
            const auto r = test::cli(args);
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(says.toUtf8()) && r.err.trimmed().count('\n') == 0,
                     r.err.constData());
        }
        const auto v = test::cli({QStringLiteral("verify"), path});
        QCOMPARE(v.code, 2);
        QVERIFY2(v.err.contains("TAMPERED") && v.err.contains("run 2"), v.err.constData());
    }

    // Every view says what the ledger's chain says: the status bar (verified, unsigned), and
    // for a ledger edited after sealing a red banner over the pages, a red block on the report
    // cover and a warning from summary and compare, never silence.
    void tamperedLedgerIsShownInRed() {
        const QString path = m_dir.filePath(QStringLiteral("tampered.ledger"));
        QFile::remove(path);
        QVERIFY(QFile::copy(m_ledger, path));
        QFile(path).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        const auto open = [](const QString& ledger, QLabel** badge, QLabel** banner) {
            auto* window = new MainWindow;
            QSignalSpy loaded(window->loader(), &ReviewLoader::loaded);
            window->openStudyFile(ledger);
            if (!loaded.wait(30000)) {
                qFatal("not loaded");
            }
            *badge = window->findChild<QLabel*>(QStringLiteral("trustBadge"));
            *banner = window->findChild<QLabel*>(QStringLiteral("trustBanner"));
            return window;
        };
        QLabel *badge = nullptr, *banner = nullptr;
        {
            // Verified in the background after the dashboard shows.
            std::unique_ptr<MainWindow> intact(open(path, &badge, &banner));
            QTRY_COMPARE_WITH_TIMEOUT(badge->text(), QStringLiteral("Ledger: verified, unsigned"),
                                      30000);
            QVERIFY(banner->isHidden());
        }
        {
            SQLite::Database db(path.toStdString(), SQLite::OPEN_READWRITE);
            db.exec("UPDATE records SET decision = 1 - decision WHERE item = 3 AND run = 2");
        }
        std::unique_ptr<MainWindow> window(open(path, &badge, &banner));
        window->resize(1100, 720);
        window->show();
        QTRY_COMPARE_WITH_TIMEOUT(badge->text(), QStringLiteral("Ledger: TAMPERED"), 30000);
        QVERIFY(!banner->isHidden());
        QVERIFY2(banner->text().contains(QStringLiteral("run 2")) &&
                     banner->text().contains(QStringLiteral("records changed")),
                 qPrintable(banner->text()));
        if (const QByteArray shots = qgetenv("PROBAUDIT_SCREENSHOTS"); !shots.isEmpty()) {
            window->grab().save(QString::fromUtf8(shots) + QStringLiteral("/tampered.png"));
        }
        const auto summary = test::cli({QStringLiteral("summary"), path});
        QCOMPARE(summary.code, 0);
        QVERIFY2(summary.err.contains("ledger TAMPERED: run 2") &&
                     summary.err.contains("do not sign them off"),
                 summary.err.constData());
        const auto cmp = test::cli({QStringLiteral("compare"), path, QStringLiteral("1"),
                                    QStringLiteral("2"), QStringLiteral("--json")});
        QCOMPARE(cmp.code, 0);
        QCOMPARE(QJsonDocument::fromJson(cmp.out)
                     .object()
                     .value(u"ledger")
                     .toObject()
                     .value(u"state")
                     .toString(),
                 QStringLiteral("tampered"));
        const QString pdf = m_dir.filePath(QStringLiteral("tampered.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), path, QStringLiteral("-o"), pdf}).code, 0);
        QProcess text;
        text.start(QStringLiteral("pdftotext"),
                   {QStringLiteral("-l"), QStringLiteral("1"), pdf, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(60000));
        const QByteArray cover = text.readAllStandardOutput();
        QVERIFY2(cover.contains("TAMPERED LEDGER") && cover.contains("Ledger integrity"),
                 cover.constData());
    }

    // The badge compares the lock's fingerprint with the engine's, as `probaudit check` does.
    void pinBadge() {
        const QJsonObject current{
            {QStringLiteral("torch"),
             QJsonObject{{QStringLiteral("version"), QStringLiteral("2.11.0")},
                         {QStringLiteral("cuda"), QStringLiteral("13.0")}}},
            {QStringLiteral("cpu"),
             QJsonObject{{QStringLiteral("model"), QStringLiteral("EPYC")}}}};
        QJsonObject lock{{QStringLiteral("probaudit_lock"), 1},
                         {QStringLiteral("environment"), current}};
        QCOMPARE(pinStatus(QString(), {}, current).state, PinStatus::State::NotPinned);
        QCOMPARE(pinStatus(QStringLiteral("r.lock.json"), lock, {}).state,
                 PinStatus::State::Unknown);
        const PinStatus same = pinStatus(QStringLiteral("r.lock.json"), lock, current);
        QCOMPARE(same.state, PinStatus::State::Matches);
        QVERIFY(same.differences.isEmpty());
        QJsonObject torch = current[u"torch"].toObject();
        torch[u"cuda"] = QStringLiteral("12.8");
        QJsonObject other = current;
        other[u"torch"] = torch;
        const PinStatus differs = pinStatus(QStringLiteral("r.lock.json"), lock, other);
        QCOMPARE(differs.state, PinStatus::State::Differs);
        QCOMPARE(differs.differences.size(), 1);
        QVERIFY2(differs.differences.front().contains(QStringLiteral("torch.cuda")),
                 qPrintable(differs.differences.front()));
        QVERIFY(differs.text.contains(QStringLiteral("(1)")));

        // The window finds runtime.lock.json beside the ledger and loads it.
        QTemporaryDir dir;
        const QString ledger = dir.filePath(QStringLiteral("l.ledger"));
        QVERIFY(QFile::copy(m_ledger, ledger));
        QFile f(dir.filePath(QStringLiteral("runtime.lock.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(lock).toJson());
        f.close();
        MainWindow window;
        QSignalSpy loaded(window.loader(), &ReviewLoader::loaded);
        window.openStudyFile(ledger);
        QVERIFY(loaded.wait(30000));
        auto* badge = window.findChild<QLabel*>(QStringLiteral("pinBadge"));
        // Pinned: waiting for the engine's fingerprint (the lock named), or compared with it.
        const auto state = PinStatus::State(badge->property("pinState").toInt());
        const QString text = badge->text();
        QVERIFY2(state != PinStatus::State::NotPinned, qPrintable(text));
        QVERIFY2(state == PinStatus::State::Unknown
                     ? text.contains(QStringLiteral("runtime.lock.json"))
                     : text.startsWith(QStringLiteral("Runtime: matches")) ||
                           text.startsWith(QStringLiteral("Runtime: differs")),
                 qPrintable(text));

        // Two ledgers' locks in one folder: each ledger takes its own (LEDGER.runtime.lock.json);
        // a ledger with none of its own gets none (two others: which one is not known).
        for (const char* name : {"l.runtime.lock.json", "other.runtime.lock.json"}) {
            QVERIFY(QFile::copy(dir.filePath(QStringLiteral("runtime.lock.json")),
                                dir.filePath(QString::fromLatin1(name))));
        }
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("runtime.lock.json"))));
        analysis::Review own;
        own.path = ledger.toStdString();
        QCOMPARE(bundle::findLockFile(own), dir.filePath(QStringLiteral("l.runtime.lock.json")));
        analysis::Review stranger;
        stranger.path = dir.filePath(QStringLiteral("third.ledger")).toStdString();
        QCOMPARE(bundle::findLockFile(stranger), QString());
    }

    // Presentation mode: six slides in the guided order, arrow keys move, Esc closes.
    void presentation() {
        const int b8 = rowOf(*m_review, QStringLiteral("batch-8"));
        PresentationWindow show(m_review, b8);
        show.resize(1400, 900);
        show.show();
        QVERIFY(QTest::qWaitForWindowExposed(&show));
        QCOMPARE(show.slideCount(), 6);
        QCOMPARE(show.currentSlide(), 0);
        QTest::keyClick(&show, Qt::Key_Right);
        QTest::keyClick(&show, Qt::Key_Right);
        QCOMPARE(show.currentSlide(), 2);
        QCOMPARE(show.slideTitle(2), QStringLiteral("Do the flips sit at near ties?"));
        QTest::keyClick(&show, Qt::Key_Right);
        QCOMPARE(show.slideTitle(3), QStringLiteral("One input, two decisions")); // batch-8 flips
        QTest::keyClick(&show, Qt::Key_Left);
        QCOMPARE(show.currentSlide(), 2);
        QTest::keyClick(&show, Qt::Key_End);
        QCOMPARE(show.currentSlide(), 5);
        QTest::keyClick(&show, Qt::Key_Right); // stays on the last slide
        QCOMPARE(show.currentSlide(), 5);
        QTest::keyClick(&show, Qt::Key_Escape);
        QVERIFY(!show.isVisible());
        QCOMPARE(tellingItem(*m_review, b8), [] {
            std::int64_t flipped = -1;
            for (std::int64_t i = 0; i < fixture().items; ++i) {
                if (std::abs(Fixture::gap(i)) < 0.05) {
                    flipped = i;
                }
            }
            return flipped;
        }());
    }

    // File → Export Report writes the PDF in-process, in print colours even in the dark theme.
    void exportReportFromTheWindow() {
        MainWindow window;
        window.showReview(m_review);
        const QString pdf = m_dir.filePath(QStringLiteral("from-window.pdf"));
        QVERIFY(window.exportReport(pdf));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QVERIFY(f.size() > 20000); // charts and the heatmap are in it
    }

    // File → Export Audit Bundle: the report from the PDF writer, packed by the bundle library
    // with the ledger and the manifest.
    void exportBundleFromTheWindow() {
        MainWindow window;
        window.showReview(m_review);
        const QString path = m_dir.filePath(QStringLiteral("from-window.zip"));
        QVERIFY(window.exportBundle(path));
        QuaZip zip(path);
        QVERIFY(zip.open(QuaZip::mdUnzip));
        const QStringList names = zip.getFileNameList();
        for (const char* name : {"MANIFEST.json", "ledger.ledger", "report.pdf"}) {
            QVERIFY2(names.contains(QString::fromLatin1(name)), name);
        }
        QVERIFY(zip.setCurrentFile(QStringLiteral("report.pdf")));
        QuaZipFile pdf(&zip);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    }

    // The report is English even from a German workbench (its charts and the generation
    // view's pieces are shared with the translated views).
    void reportIsEnglishFromAGermanWorkbench() {
        QVERIFY(installTranslations(*qApp, QStringLiteral("de")).startsWith(QStringLiteral("de")));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("gen.ledger"));
        testing::writeGenerationFixtureLedger(path.toStdString(), 12);
        MainWindow window;
        window.showReview(ReviewLoader::loadNow(path));
        QCOMPARE(generationKindName(GenerationPairKind::Repeat),
                 QStringLiteral("Lauf zu Lauf")); // German UI
        const QString pdf = dir.filePath(QStringLiteral("de.pdf"));
        const bool ok = window.exportReport(pdf);
        installTranslations(*qApp, QStringLiteral("en"));
        QVERIFY(ok);
        QProcess text;
        text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(60000));
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("The outputs diverge at generated token 2")),
                 qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("run to run")));
        QVERIFY(!out.contains(QStringLiteral("Lauf zu Lauf")));
    }

    // The exports: items of the current comparison (CSV, JSON lines) and the headline.
    void exportsFromTheWindow() {
        MainWindow window;
        window.showReview(m_review);
        const int row = window.reviewPage()->comparisonRow();
        const auto& c = *m_review->rows[std::size_t(row)].cmp;
        const QString csv = m_dir.filePath(QStringLiteral("items.csv"));
        const QString jsonl = m_dir.filePath(QStringLiteral("items.jsonl"));
        const QString md = m_dir.filePath(QStringLiteral("headline.md"));
        const QString hcsv = m_dir.filePath(QStringLiteral("headline.csv"));
        QVERIFY(window.exportItems(csv) && window.exportItems(jsonl));
        QVERIFY(window.exportHeadline(md) && window.exportHeadline(hcsv));
        auto lines = [](const QString& path) {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
        };
        const QStringList csvLines = lines(csv);
        QCOMPARE(csvLines.size(), int(c.items) + 1);
        QVERIFY(csvLines.front().startsWith(QStringLiteral("item,id,label,p_a,p_b")));
        const QStringList jl = lines(jsonl);
        QCOMPARE(jl.size(), int(c.items));
        std::int64_t flips = 0;
        for (const QString& l : jl) {
            flips += QJsonDocument::fromJson(l.toUtf8()).object()[u"flip"].toBool();
        }
        QCOMPARE(flips, c.flips);
        QCOMPARE(lines(md).size(), int(m_review->rows.size()) + 2); // header, rule, rows
        QCOMPARE(lines(hcsv).size(), int(m_review->rows.size()) + 1);
    }

    void screenshotTour() {
        const QString dir = m_dir.filePath(QStringLiteral("tour"));
        QCOMPARE(runScreenshotTour(dir, m_ledger, QStringLiteral("-test")), 0);
        const QStringList files = QDir(dir).entryList({QStringLiteral("*-test.png")}, QDir::Files);
        QCOMPARE(files.size(), 25); // 12 views + 6 presentation slides + 6 forms + the tables
        for (const char* form :
             {"10-new-study-test.png", "10b-new-study-server-test.png",
              "10d-new-study-transformers-test.png", "10c-engine-settings-test.png",
              "11-config-editor-test.png", "12-engine-runs-test.png", "09-presentation-3-test.png",
              "13-field-report-tables-test.png"}) {
            QVERIFY2(files.contains(QString::fromLatin1(form)), form);
        }
        for (const QString& name : files) {
            QVERIFY2(QFileInfo(QDir(dir).filePath(name)).size() > 2000, qPrintable(name));
        }
    }
};

QTEST_MAIN(TestReview)
#include "test_review.moc"
