// The models behind the inspector's and the diagnosis view's tables (ui/models), without a
// widget (this suite links the models library only: Qt Core and Gui). Each model runs under
// QAbstractItemModelTester; what it shows is checked against what the fixture ledger
// (review_fixture.h) and a typed diagnosis hold by construction.
#include "review_fixture.h"
#include "ui/models/causemodels.h"
#include "ui/models/diagnosismodels.h"
#include "ui/models/format.h"
#include "ui/models/inspectormodels.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace probaudit;
using namespace probaudit::ui;
using probaudit::testing::Fixture;

namespace {

const Fixture& fixture() {
    static const Fixture f = probaudit::testing::defaultFixture(40);
    return f;
}

double deltaOf(const testing::FixtureConfig& c, std::int64_t i) {
    return c.delta ? c.delta(i) : 0;
}

// Items of the fixture by what batch-8 does to them.
std::int64_t flippedItem() {
    for (std::int64_t i = 0; i < fixture().items; ++i) {
        if (std::abs(Fixture::gap(i)) < 0.05) {
            return i;
        }
    }
    return -1;
}

QString text(const QAbstractItemModel& m, int row, int column) {
    return m.index(row, column).data().toString();
}

// The headers every table answers alike (TableModel): its titles, horizontally and in the
// order of its columns; nothing for sections out of range, for the vertical header or for
// tooltips (these models have none).
void checkHeaders(const QAbstractItemModel& m, const QStringList& titles) {
    QCOMPARE(m.columnCount(), int(titles.size()));
    for (int c = 0; c < m.columnCount(); ++c) {
        QCOMPARE(m.headerData(c, Qt::Horizontal), QVariant(titles[c]));
        QVERIFY(!m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).isValid());
        QVERIFY(!m.headerData(c, Qt::Horizontal, Qt::DecorationRole).isValid());
        QVERIFY(!m.headerData(c, Qt::Vertical).isValid());
    }
    QVERIFY(!m.headerData(-1, Qt::Horizontal).isValid());
    QVERIFY(!m.headerData(m.columnCount(), Qt::Horizontal).isValid());
}

// A typed diagnosis on the fixture's runs: two probes (the reference twice, batch 8), two
// configs (one not run) and their forecasts.
analysis::Diagnosis fixtureDiagnosis(const analysis::Review& rv) {
    analysis::Diagnosis d;
    d.reference = "reference";
    d.sample = 16;
    d.seed = 3;
    d.batch = 8;
    d.ladder = {{"loader and repeatability", "bit-identical", "not the loader",
                 analysis::StepStatus::Clean},
                {"shape", "3.92 points, from layer 2", "the batch shape moves numbers",
                 analysis::StepStatus::Explains}};
    d.table = {
        {"loader", "the reference twice", rv.runs[0].id, rv.runs[3].id, 16, 0.0, "none", 0, 1.0},
        {"shape", "batch size 8", rv.runs[0].id, rv.runs[1].id, 16, 3.92, "layer 2", 2, 0.5}};
    analysis::ConfigResult result;
    result.run = rv.runs[1].id;
    result.flips = 1;
    result.max_dp = 3.92;
    result.bit_identical = 0.5;
    result.first_layer = "layer 2";
    d.configs = {{"batch-8", {"batch_size"}, {"shape"}, result, {}},
                 {"bfloat16", {"dtype"}, {"kernels"}, std::nullopt, {}}};
    d.forecast = {{"batch-8", 1.3, 16, 1}, {"bfloat16", 0.4, 16, std::nullopt}};
    return d;
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    ReviewPtr m_review;

    // The fixture's review with a typed diagnosis stored (fixtureDiagnosis()).
    std::shared_ptr<analysis::Review> diagnosedReview() const {
        auto rv = std::make_shared<analysis::Review>(*m_review);
        rv->diagnosis = fixtureDiagnosis(*rv);
        return rv;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("fixture.ledger"));
        testing::writeFixtureLedger(path.toStdString(), fixture());
        m_review = ReviewLoader::loadNow(path);
        QCOMPARE(m_review->rows.size(), fixture().configs.size());
    }

    // The inspector's numbers: every config's p, Δp, decision and first divergent layer for
    // one item, as the fixture made them.
    void itemNumbers_data() {
        QTest::addColumn<qlonglong>("item");
        QTest::newRow("flipped under batch-8") << qlonglong(flippedItem());
        QTest::newRow("moved by batch-8") << qlonglong(3);
        QTest::newRow("bit-identical under batch-8") << qlonglong(1);
    }
    void itemNumbers() {
        QFETCH(qlonglong, item);
        QVERIFY(std::abs(Fixture::gap(3)) >= 0.05 && std::abs(Fixture::gap(1)) >= 0.05);
        ItemNumbersModel model;
        QAbstractItemModelTester tester(&model);
        model.setItem(m_review, item);
        QCOMPARE(model.rowCount(), int(fixture().configs.size()));
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& c = fixture().configs[std::size_t(r)];
            const QString name = QString::fromStdString(c.name);
            const bool reference = r == 0;
            const double delta = deltaOf(c, item);
            const ledger::Record rec = testing::fixtureRecord(fixture(), item, delta, 1, 0);
            const bool flips = (Fixture::gap(item) >= 0) != (Fixture::gap(item) + delta >= 0);
            QCOMPARE(model.index(r, 0).data(ItemNumbersModel::ConfigNameRole).toString(), name);
            QCOMPARE(text(model, r, ItemNumbersModel::ConfigColumn),
                     reference ? name + QStringLiteral(" (ref.)") : name);
            QCOMPARE(text(model, r, ItemNumbersModel::PColumn), formatProbability(rec.probs[1]));
            QCOMPARE(text(model, r, ItemNumbersModel::DpColumn) == QLatin1String("0"), delta == 0);
            QCOMPARE(text(model, r, ItemNumbersModel::DecisionColumn).contains(u"(flipped)"),
                     flips);
            QCOMPARE(model.index(r, 0).data(ItemNumbersModel::FlipRole).toBool(), flips);
            QCOMPARE(
                model.index(r, ItemNumbersModel::DecisionColumn).data(Qt::BackgroundRole).isValid(),
                flips);
            QCOMPARE(text(model, r, ItemNumbersModel::FirstLayerColumn),
                     reference    ? QStringLiteral("\u2013")
                     : delta == 0 ? formatLayer(-1)
                                  : formatLayer(c.first_layer));
        }
        model.setItem(m_review, -1);
        QCOMPARE(model.rowCount(), 0);
        model.setItem(m_review, fixture().items); // out of range
        QCOMPARE(model.rowCount(), 0);
    }

    // The inspector's layer hashes: one row per config compared with the reference, one
    // column per hidden state, "≠" exactly where the fixture changed the bits.
    void layerHashes_data() { itemNumbers_data(); }
    void layerHashes() {
        QFETCH(qlonglong, item);
        LayerHashModel model;
        QAbstractItemModelTester tester(&model);
        model.setItem(m_review, item);
        QCOMPARE(model.columnCount(), fixture().layers + 1);
        QCOMPARE(model.rowCount(), int(fixture().configs.size()) - 1);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("emb"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("2"));
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& c = fixture().configs[std::size_t(r) + 1];
            QCOMPARE(model.headerData(r, Qt::Vertical).toString(), QString::fromStdString(c.name));
            QCOMPARE(model.reviewRowAt(r), r + 1);
            for (int l = 0; l <= fixture().layers; ++l) {
                const bool differs = deltaOf(c, item) != 0 && l >= c.first_layer;
                const QModelIndex i = model.index(r, l);
                QCOMPARE(i.data().toString(), differs ? QStringLiteral("≠") : QStringLiteral("="));
                QCOMPARE(i.data(LayerHashModel::DiffersRole).toBool(), differs);
                QVERIFY(
                    i.data(Qt::ToolTipRole).toString().contains(QString::fromStdString(c.name)));
            }
        }
        model.setItem(m_review, -1);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }

    // The diagnosis view's four tables from a typed diagnosis.
    void diagnosisTables() {
        const auto rv = diagnosedReview();
        ProbeTableModel probes;
        ConfigExplanationModel configs;
        ForecastModel forecast;
        QAbstractItemModelTester t1(&probes), t2(&configs), t3(&forecast);
        probes.setReview(rv);
        configs.setReview(rv);
        forecast.setReview(rv);

        QCOMPARE(probes.rowCount(), 2);
        QCOMPARE(text(probes, 0, ProbeTableModel::WhatColumn),
                 QStringLiteral("the reference twice"));
        QCOMPARE(text(probes, 0, ProbeTableModel::MaxDpColumn), QStringLiteral("0"));
        QCOMPARE(text(probes, 0, ProbeTableModel::BitIdenticalColumn), QStringLiteral("16 / 16"));
        QVERIFY(!probes.index(0, 0).data(Qt::BackgroundRole).isValid()); // nothing moved
        QCOMPARE(text(probes, 1, ProbeTableModel::MaxDpColumn), formatPoints(3.92));
        QCOMPARE(text(probes, 1, ProbeTableModel::FirstLayerColumn), QStringLiteral("layer 2"));
        QCOMPARE(text(probes, 1, ProbeTableModel::FlippedColumn), QStringLiteral("2 / 16"));
        QCOMPARE(text(probes, 1, ProbeTableModel::BitIdenticalColumn), QStringLiteral("8 / 16"));
        QVERIFY(probes.index(1, 0).data(Qt::BackgroundRole).value<QColor>().isValid());
        QCOMPARE(probes.index(1, ProbeTableModel::FlippedColumn).data(ProbeTableModel::SortRole),
                 QVariant(qlonglong(2)));

        QCOMPARE(configs.rowCount(), 2);
        QCOMPARE(text(configs, 0, ConfigExplanationModel::DiffersColumn),
                 QStringLiteral("batch_size"));
        QCOMPARE(text(configs, 0, ConfigExplanationModel::SuspectsColumn), QStringLiteral("shape"));
        QCOMPARE(text(configs, 0, ConfigExplanationModel::FlipsColumn), QStringLiteral("1"));
        QCOMPARE(text(configs, 0, ConfigExplanationModel::FirstLayerColumn),
                 QStringLiteral("layer 2"));
        QVERIFY(configs.index(0, 0).data(Qt::BackgroundRole).isValid()); // it flipped
        QCOMPARE(text(configs, 1, ConfigExplanationModel::FlipsColumn), QStringLiteral("not run"));
        QCOMPARE(text(configs, 1, ConfigExplanationModel::MaxDpColumn), QString());

        QCOMPARE(forecast.rowCount(), 2);
        QCOMPARE(text(forecast, 0, ForecastModel::PredictedColumn), QStringLiteral("1.3"));
        QCOMPARE(text(forecast, 0, ForecastModel::ObservedColumn), QStringLiteral("1"));
        QCOMPARE(text(forecast, 0, ForecastModel::ErrorColumn), QStringLiteral("0.3"));
        QCOMPARE(text(forecast, 0, ForecastModel::SampleColumn), QStringLiteral("16 items"));
        QCOMPARE(text(forecast, 1, ForecastModel::ObservedColumn), QStringLiteral("not run"));
        QCOMPARE(text(forecast, 1, ForecastModel::ErrorColumn), QStringLiteral("–"));

        // No diagnosis stored: every table is empty.
        probes.setReview(m_review);
        configs.setReview(m_review);
        forecast.setReview(m_review);
        QCOMPARE(probes.rowCount() + configs.rowCount() + forecast.rowCount(), 0);
    }

    // The Cause view's models: the grid is causeTable's rows of the chosen config, its cells the
    // class shares tinted by size; a cell's items are those of its row whose cause it is; the
    // items table gives each one's cause line without the opening the columns say.
    void causeTables() {
        auto rv = diagnosedReview();
        analysis::Localization l;
        l.config_a = "reference";
        l.config_b = "batch-8";
        l.layers = 4;
        const auto item = [&](std::int64_t index, int by, OpClass cls, double share, bool set) {
            l.items.push_back(testing::fixtureCause(index, by, cls, share));
            l.items.back().set_explains = set;
        };
        item(3, 1, OpClass::Mlp, 1.0, false);
        item(5, 1, OpClass::Attention, 1.0, false);
        item(7, 2, OpClass::Mlp, 0.5, true); // no class alone: a set
        rv->diagnosis->causes = {{"batch-8", "", l}, {"threads-2", "another CPU capability", {}}};
        CauseGridModel grid;
        CauseItemsModel items;
        QAbstractItemModelTester t1(&grid), t2(&items);
        grid.setReview(rv);
        QCOMPARE(grid.configs(), (QStringList{"batch-8", "threads-2"}));
        QCOMPARE(grid.rowCount(), 0); // no config chosen yet
        grid.setConfig(QStringLiteral("batch-8"));
        QCOMPARE(grid.rowCount(), 2);
        QCOMPARE(text(grid, 0, CauseGridModel::WhereColumn), QStringLiteral("layer 1"));
        QCOMPARE(text(grid, 0, CauseGridModel::ItemsColumn), QStringLiteral("2"));
        const int mlp = CauseGridModel::FirstClassColumn + int(OpClass::Mlp);
        QCOMPARE(text(grid, 0, mlp), QStringLiteral("50% (1)"));
        QCOMPARE(text(grid, 1, mlp), QStringLiteral("50% (0)"));
        QCOMPARE(text(grid, 1, CauseGridModel::SetColumn), QStringLiteral("(1)"));
        QCOMPARE(grid.index(0, mlp).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(heatColour(0.5)));
        QCOMPARE(heatColour(0.0), QStringLiteral("#ffffff"));
        QCOMPARE(heatColour(0.5), QStringLiteral("#f4ba9d")); // halfway to #e8743b
        QCOMPARE(heatColour(1.0), QStringLiteral("#e8743b"));
        QCOMPARE(heatColour(1.7), heatColour(1.0));
        QCOMPARE(heatColour(-0.3), heatColour(0.0)); // below 0 is white, not another colour
        const auto mlpItems = grid.itemsOf(grid.index(0, mlp));
        QCOMPARE(mlpItems.size(), std::size_t(1));
        QCOMPARE(mlpItems[0]->id, std::string("item-3"));
        QCOMPARE(grid.itemsOf(grid.index(0, CauseGridModel::WhereColumn)).size(), std::size_t(2));
        QCOMPARE(grid.itemsOf(grid.index(1, CauseGridModel::SetColumn))[0]->id,
                 std::string("item-7"));
        items.setItems(&grid.cause()->localization.value(), mlpItems);
        QCOMPARE(items.rowCount(), 1);
        QCOMPARE(items.index(0, 0).data(CauseItemsModel::ItemRole), QVariant(qlonglong(3)));
        const QString line = text(items, 0, CauseItemsModel::CauseColumn);
        QVERIFY2(line.startsWith(QStringLiteral("complete by layer 1")), qPrintable(line));
        QVERIFY(line.contains(QStringLiteral("the MLP computed as A removes 100%")));
        // A config that could not be spliced: its sentence, an empty grid.
        grid.setConfig(QStringLiteral("threads-2"));
        QCOMPARE(grid.rowCount(), 0);
        QCOMPARE(grid.cause()->not_localised, std::string("another CPU capability"));
    }

    // The kernel-trace differences of the probes: one row per operator or device kernel whose
    // count differs between a probe and its baseline, else one row that says so.
    void kernelDiffs_data() {
        QTest::addColumn<bool>("differ");
        QTest::addColumn<QStringList>("rows"); // kind name countA countB, one string per row
        QTest::newRow("the batch probe ran other kernels")
            << true
            << QStringList{QStringLiteral("operator aten::add 2 3"),
                           QStringLiteral("device kernel gemm 0 1")};
        QTest::newRow("the same kernels everywhere") << false << QStringList{};
    }
    void kernelDiffs() {
        QFETCH(bool, differ);
        QFETCH(QStringList, rows);
        const auto rv = diagnosedReview();
        const nlohmann::json base{{"ops", {{"aten::mm", 4}, {"aten::add", 2}}}};
        for (auto& run : rv->runs) {
            run.kernel_trace = base;
        }
        if (differ) {
            rv->runs[1].kernel_trace = {{"ops", {{"aten::mm", 4}, {"aten::add", 3}}},
                                        {"device_kernels", {{"gemm", 1}}}};
        }
        KernelDiffModel model;
        QAbstractItemModelTester tester(&model);
        model.setReview(rv);
        QCOMPARE(model.differenceCount(), int(rows.size()));
        if (rows.isEmpty()) {
            QCOMPARE(model.rowCount(), 1);
            QCOMPARE(text(model, 0, KernelDiffModel::ProbeColumn), QStringLiteral("every probe"));
            QVERIFY(text(model, 0, KernelDiffModel::NameColumn).contains(u"the same operators"));
            return;
        }
        QCOMPARE(model.rowCount(), int(rows.size()));
        for (int r = 0; r < model.rowCount(); ++r) {
            QCOMPARE(text(model, r, KernelDiffModel::ProbeColumn), QStringLiteral("batch size 8"));
            QCOMPARE(QStringList({text(model, r, KernelDiffModel::KindColumn),
                                  text(model, r, KernelDiffModel::NameColumn),
                                  text(model, r, KernelDiffModel::CountAColumn),
                                  text(model, r, KernelDiffModel::CountBColumn)})
                         .join(u' '),
                     rows[r]);
        }
        model.setReview(m_review); // no diagnosis
        QCOMPARE(model.rowCount(), 0);
    }

    // What the tables share (ui/models/tablemodel.h): their headers, one reset per
    // setReview(), no children under a row, and data() only for valid indices of the model.
    void tableBase() {
        const auto rv = diagnosedReview();
        ProbeTableModel probes;
        KernelDiffModel kernels;
        ConfigExplanationModel configs;
        ForecastModel forecast;
        ItemNumbersModel numbers;
        QAbstractItemModelTester t1(&probes), t2(&kernels), t3(&configs), t4(&forecast),
            t5(&numbers);
        checkHeaders(probes, {QStringLiteral("What changed"), QStringLiteral("Largest Δp"),
                              QStringLiteral("First layer that differs"), QStringLiteral("Flipped"),
                              QStringLiteral("Bit-identical")});
        checkHeaders(kernels, {QStringLiteral("Probe"), QStringLiteral("Kind"),
                               QStringLiteral("Operator or kernel"), QStringLiteral("Count (A)"),
                               QStringLiteral("Count (B)")});
        checkHeaders(configs, {QStringLiteral("Config"), QStringLiteral("Differs in"),
                               QStringLiteral("Suspects"), QStringLiteral("Flips"),
                               QStringLiteral("Largest Δp"), QStringLiteral("First layer")});
        checkHeaders(forecast, {QStringLiteral("Config"), QStringLiteral("Predicted flips"),
                                QStringLiteral("Observed flips"),
                                QStringLiteral("Error (predicted − observed)"),
                                QStringLiteral("Probe sample")});
        checkHeaders(numbers, {QStringLiteral("Config"), QStringLiteral("p"), QStringLiteral("Δp"),
                               QStringLiteral("Margin"), QStringLiteral("Decision"),
                               QStringLiteral("First layer")});

        QSignalSpy aboutToReset(&probes, &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy reset(&probes, &QAbstractItemModel::modelReset);
        probes.setReview(rv);
        QCOMPARE(aboutToReset.size(), 1);
        QCOMPARE(reset.size(), 1);
        QVERIFY(probes.review() == rv);
        const QModelIndex cell = probes.index(1, ProbeTableModel::MaxDpColumn);
        QCOMPARE(probes.rowCount(cell), 0);
        QCOMPARE(probes.columnCount(cell), 0);
        QCOMPARE(probes.data(cell), QVariant(formatPoints(3.92)));
        // What checkIndex() says of the others (a warning) is Qt's.
        const QRegularExpression warning(QStringLiteral("^Index "));
        QTest::ignoreMessage(QtWarningMsg, warning);
        QVERIFY(!probes.data(QModelIndex()).isValid());
        forecast.setReview(rv);
        QTest::ignoreMessage(QtWarningMsg, warning);
        QVERIFY(!probes.data(forecast.index(0, 0)).isValid()); // another model's index
    }
};

QTEST_MAIN(TestModels)
#include "test_models.moc"
