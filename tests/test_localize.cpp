// Counterfactual localisation (runner/localize.h). The planted causes: a perturbation of the
// hidden state after one index (relative ε, through the engine's test seam setHiddenTap, only
// in B's batched passes) must be localised at exactly that index on tiny BERT, tiny llama and
// tiny qwen3, for 20 random plants each; without a plant there is nothing to localise. Also the
// CLI: its cost line, cause lines and JSON, the localisation in the ledger, and its refusals.
// The engine's and the runner's headers before Qt's (Qt's `emit` keyword macro).
#include "core/common/error.h"
#include "core/engine/engine.h"
#include "core/ledger/ledger.h"
#include "core/runner/localize.h"

#include "cli_support.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace probaudit;

namespace {

const QString kRoot = QStringLiteral(PROBAUDIT_SOURCE_DIR);

using probaudit::test::cli;
using Result = probaudit::test::CliResult;

struct Fixture {
    QString model;
    QString head;
    int layers;
};

const Fixture kBert{QStringLiteral("tiny-bert"),
                    QStringLiteral(R"({"kind":"adapter","path":"%1/tests/fixtures/adapters/)"
                                   R"(tiny-bert-mean.safetensors"})")
                        .arg(kRoot),
                    2};
const Fixture kLlama{QStringLiteral("tiny-llama"),
                     QStringLiteral(R"({"kind":"label_tokens","template":"Review: {text} )"
                                    R"(Verdict:","labels":[" a"," b"]})"),
                     2};
const Fixture kQwen3{QStringLiteral("tiny-qwen3"), kLlama.head, 2};

// A study of 16 demo sentences: "ref" one input at a time, "b4" batches of four with padding;
// `kernels` for both.
QString writeStudy(const QDir& dir, const Fixture& f, const QString& kernels) {
    const QString path = dir.filePath(QStringLiteral("s.study.json"));
    const QString text =
        QStringLiteral(
            R"({"name":"loc","model":{"path":"%1/tests/fixtures/%2"},"heads":{"h":%3},)"
            R"("dataset":{"path":"%1/resources/demo/sentiment-sentences/yelp.jsonl","limit":16},)"
            R"("capture":"hashes","reference":"ref","configs":{"ref":{"kernels":"%4"},)"
            R"("b4":{"batch_size":4,"kernels":"%4"},"cut":{"batch_size":4,"max_length":6}}})")
            .arg(kRoot, f.model, f.head, kernels);
    if (!probaudit::test::writeFile(path, text.toUtf8())) {
        qFatal("cannot write the study");
    }
    return path;
}

// Plants ε relative on the hidden state after `index` of every batch of more than one row (B's
// passes; A runs one input at a time).
struct Plant {
    int index;
    double eps;
    Plant(int i, double e) : index(i), eps(e) {
        engine::setHiddenTap([i, e](const engine::Batch& b, int at, const at::Tensor& h) {
            return b.rows() > 1 && at == i ? h * (1.0 + e) : at::Tensor();
        });
    }
    ~Plant() { engine::setHiddenTap({}); }
};

analysis::Localization localizeIn(const QString& study, const std::vector<std::string>& items) {
    runner::LocalizeOptions o;
    o.run.study = study.toStdString();
    o.b = "b4";
    o.items = items;
    runner::NoEvents events;
    std::atomic<bool> stop{false};
    return runner::localize(o, events, stop);
}

std::vector<std::string> allItemIds(const QString& ledgerPath) {
    const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
    std::vector<std::string> ids;
    for (const auto& item : led.items()) {
        ids.push_back(item.id);
    }
    return ids;
}

} // namespace

class TestLocalize : public QObject {
    Q_OBJECT

    // 20 random plants (index, ε, items) on one model: each localised at exactly its index.
    void plantedCausesAreFound(const Fixture& f) {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), f, QStringLiteral("batch_invariant"));
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const std::vector<std::string> ids = allItemIds(dir.filePath(QStringLiteral("s.ledger")));
        std::mt19937 gen(20261207);
        int localised = 0;
        for (int plant = 0; plant < 20; ++plant) {
            const int index = int(gen() % unsigned(f.layers + 1));
            const double eps = (gen() % 2 == 0 ? 1 : -1) * (0.02 + 0.08 * double(gen() % 100) / 99);
            std::vector<std::string> items;
            for (const auto& id : ids) {
                if (gen() % 4 == 0) {
                    items.push_back(id);
                }
            }
            if (items.empty()) {
                items.push_back(ids[gen() % ids.size()]);
            }
            const Plant planted(index, eps);
            const analysis::Localization l = localizeIn(study, items);
            QCOMPARE(l.layers, f.layers);
            QCOMPARE(int(l.items.size()), int(items.size()));
            QVERIFY(l.passes <= analysis::Localization::passBudget(l.layers));
            for (const auto& c : l.items) {
                if (c.status == analysis::CauseStatus::NoDifference) {
                    continue; // the plant did not move this item's p (saturated)
                }
                ++localised;
                const QString what = QStringLiteral("%1 plant %2 at %3 (ε %4), item %5: %6")
                                         .arg(f.model)
                                         .arg(plant)
                                         .arg(index)
                                         .arg(eps)
                                         .arg(QString::fromStdString(c.id),
                                              QString::fromStdString(analysis::causeLine(c, l)));
                QVERIFY2(c.status == analysis::CauseStatus::Localised, qPrintable(what));
                QVERIFY2(c.complete_by == index, qPrintable(what));
                // The invariant kernels compute A and B alike but for the plant: A's state from
                // the planted index on removes all of it, before it nothing.
                QVERIFY2(std::abs(c.removed - 1.0) < 1e-9, qPrintable(what));
                QVERIFY2(index == 0 || c.removed_before == 0.0, qPrintable(what));
                QVERIFY2(std::abs(c.reproduced - 1.0) < 1e-9, qPrintable(what));
            }
        }
        QVERIFY2(localised >= 40, qPrintable(QString::number(localised)));
    }

private Q_SLOTS:
    void plantedCausesBert() { plantedCausesAreFound(kBert); }
    void plantedCausesLlama() { plantedCausesAreFound(kLlama); }
    void plantedCausesQwen3() { plantedCausesAreFound(kQwen3); }

    // The default kernels with a plant: the rounding B's batches add is small beside ε, so the
    // plant's index is found as well; without a plant and with the invariant kernels there is
    // nothing to localise.
    void defaultKernelsAndNoPlant() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), kQwen3, QStringLiteral("default"));
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const auto ids = allItemIds(dir.filePath(QStringLiteral("s.ledger")));
        {
            const Plant planted(1, 0.05);
            const analysis::Localization l = localizeIn(study, ids);
            int differ = 0;
            for (const auto& c : l.items) {
                if (c.status == analysis::CauseStatus::NoDifference) {
                    continue; // the final norm took the scale away to the last bit
                }
                ++differ;
                QVERIFY2(c.status == analysis::CauseStatus::Localised && c.complete_by == 1 &&
                             c.removed >= 0.95 && c.removed_before < 0.05,
                         analysis::causeLine(c, l).c_str());
            }
            QVERIFY2(differ >= int(ids.size()) / 2, qPrintable(QString::number(differ)));
        }
        QTemporaryDir clean;
        const QString same =
            writeStudy(QDir(clean.path()), kQwen3, QStringLiteral("batch_invariant"));
        QCOMPARE(cli({"run", same, "--all"}).code, 0);
        const analysis::Localization none = localizeIn(same, {ids[0], ids[1]});
        for (const auto& c : none.items) {
            QCOMPARE(int(c.status), int(analysis::CauseStatus::NoDifference));
        }
        // Without --items the identical runs leave nothing to localise: one sentence.
        const Result r = cli({"localize", same, "--b", "b4"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing to localise"), r.err.constData());
    }

    // The command: the cost before the passes, a cause line per item, the table, --json as the
    // ledger stores it, every pass a sealed probe run; and its refusals.
    void command() {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), kBert, QStringLiteral("default"));
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const QString ledgerPath = dir.filePath(QStringLiteral("s.ledger"));
        const auto ids = allItemIds(ledgerPath);
        const QString items = QString::fromStdString(ids[0] + "," + ids[3]);
        const Result text = cli({"localize", study, "--b", "b4", "--items", items});
        QVERIFY2(text.code == 0, text.err.constData());
        QVERIFY2(text.err.contains("at most 5 passes"), text.err.constData());
        QVERIFY(text.out.contains("| Δp complete by | items |"));
        QVERIFY(text.out.contains(QByteArray::fromStdString("- " + ids[0] + " (")));
        const Result js = cli({"localize", study, "--b", "b4", "--items", items, "--json"});
        QVERIFY2(js.code == 0, js.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(js.out).object();
        QCOMPARE(j[u"config_a"].toString(), QStringLiteral("ref"));
        QCOMPARE(j[u"items"].toArray().size(), 2);
        // The baselines replay the study runs' batches: the recorded probabilities, bit for bit.
        QCOMPARE(j[u"replayed_a"].toInt(), 2);
        QCOMPARE(j[u"replayed_b"].toInt(), 2);
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        const auto stored = led.latestLocalization("h", "ref", "b4");
        QVERIFY(stored.has_value());
        const auto l = analysis::Localization::fromJson(*stored);
        QCOMPARE(QString::fromStdString(l.toJson().dump()),
                 QString::fromStdString(nlohmann::json::parse(js.out.toStdString()).dump()));
        int probes = 0;
        for (const auto& run : led.runs()) {
            probes += run.kind == RunKind::Probe;
        }
        QCOMPARE(probes, 2 * l.passes);
        QCOMPARE(cli({"verify", ledgerPath}).code, 0);

        const auto refused = [&](const QStringList& args, const char* why) {
            const Result r = cli(args);
            QVERIFY2(r.code == 1 && r.err.contains(why), r.err.constData());
            QVERIFY(!r.err.contains("terminate"));
        };
        refused({"localize", study, "--b", "ref"}, "the same config");
        refused({"localize", study, "--b", "cut"}, "different lengths");
        refused({"localize", study, "--b", "nope"}, "no config \"nope\"");
        refused({"localize", study, "--b", "b4", "--items", "no-such-item"}, "no item");
        refused({"localize", study, "--b", "b4", "--head", "x"}, "no head variant");
    }
};

QTEST_GUILESS_MAIN(TestLocalize)
#include "test_localize.moc"
