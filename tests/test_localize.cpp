// Counterfactual localisation (runner/localize.h). The planted causes: a perturbation of one
// operator class in one layer (relative ε, through the engine's test seam setOpTap, only in B's
// batched passes) must be found in exactly that layer and class on tiny BERT, tiny llama and
// tiny qwen3, for 20 random plants each; a perturbed hidden state (setHiddenTap) at exactly its
// index; without a plant there is nothing to localise. Each class computed again as the pass's
// own config changes nothing, bit for bit. Also the CLI: its cost line, cause lines and JSON,
// the localisation in the ledger, and its refusals.
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
#include <set>

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

// Plants ε relative on the outputs of one operator class in one layer (every operation of the
// class there) in every batch of more than one row (B's passes; A runs one input at a time, and
// the class splices compute A's way on one row).
struct OpPlant {
    OpPlant(int layer, OpClass cls, double eps) {
        engine::setOpTap([layer, cls, eps](const engine::Batch& b, const engine::OpCall& call,
                                           const at::Tensor& out) {
            return b.rows() > 1 && call.layer == layer && call.cls == cls ? out * (1.0 + eps)
                                                                          : at::Tensor();
        });
    }
    ~OpPlant() { engine::setOpTap({}); }
    OpPlant(const OpPlant&) = delete;
    OpPlant& operator=(const OpPlant&) = delete;
};

// A random (layer, class) site that the model has: the embeddings at 0, the head after the last
// layer, the norms from 0 (BERT's embedding norm) or 1, the rest in layers 1..L.
std::pair<int, OpClass> randomSite(std::mt19937& gen, const Fixture& f) {
    const auto cls = static_cast<OpClass>(gen() % unsigned(kOpClassCount));
    const bool bert = f.model == QStringLiteral("tiny-bert");
    switch (cls) {
    case OpClass::Embeddings:
        return {0, cls};
    case OpClass::Head:
        return {f.layers + 1, cls};
    case OpClass::Norms:
        return {bert ? int(gen() % unsigned(f.layers + 1)) : 1 + int(gen() % unsigned(f.layers)),
                cls};
    default:
        return {1 + int(gen() % unsigned(f.layers)), cls};
    }
}

// ⌈log2 L⌉ + classes + 2: the issue's bound on the passes beyond the two baselines.
int extraPassBound(int layers) {
    int log2 = 0;
    while ((1 << log2) < layers) {
        ++log2;
    }
    return log2 + kOpClassCount + 2;
}

analysis::Localization localizeIn(const QString& study, const std::vector<std::string>& items,
                                  bool reverse = false) {
    runner::LocalizeOptions o;
    o.run.study = study.toStdString();
    o.b = "b4";
    o.items = items;
    o.reverse = reverse;
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
        for (int plant = 0; plant < 8; ++plant) {
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
            const analysis::Localization l = localizeIn(study, items, true);
            QCOMPARE(l.layers, f.layers);
            QCOMPARE(int(l.items.size()), int(items.size()));
            QVERIFY(l.passes <= analysis::Localization::passBudget(l.layers, true));
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
        QVERIFY2(localised >= 16, qPrintable(QString::number(localised)));
    }

    // 20 random operator-class plants (layer, class, ε, items) on one model: each item's
    // difference is complete by exactly that layer (the head: in the head) and its cause is
    // exactly that class, whose splice removes all of Δp while every other class's removes
    // nothing.
    void plantedOperatorsAreFound(const Fixture& f) {
        QTemporaryDir dir;
        const QString study = writeStudy(QDir(dir.path()), f, QStringLiteral("batch_invariant"));
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const std::vector<std::string> ids = allItemIds(dir.filePath(QStringLiteral("s.ledger")));
        std::mt19937 gen(20261208);
        int localised = 0;
        std::set<std::pair<int, OpClass>> sites;
        for (int plant = 0; plant < 20; ++plant) {
            const auto [layer, cls] = randomSite(gen, f);
            const double eps = (gen() % 2 == 0 ? 1 : -1) * (0.02 + 0.08 * double(gen() % 100) / 99);
            std::vector<std::string> items{ids[gen() % ids.size()], ids[gen() % ids.size()],
                                           ids[gen() % ids.size()]};
            const OpPlant planted(layer, cls, eps);
            const analysis::Localization l = localizeIn(study, items);
            QVERIFY(l.passes - 2 <= extraPassBound(l.layers));
            for (const auto& c : l.items) {
                if (c.status == analysis::CauseStatus::NoDifference) {
                    continue; // the plant did not move this item's p (a norm took it away)
                }
                ++localised;
                sites.insert({layer, cls});
                const QString what =
                    QStringLiteral("%1 plant %2 in %3 of layer %4 (ε %5), item %6: %7")
                        .arg(f.model)
                        .arg(plant)
                        .arg(QString::fromStdString(nameString(cls)))
                        .arg(layer)
                        .arg(eps)
                        .arg(QString::fromStdString(c.id),
                             QString::fromStdString(analysis::causeLine(c, l)));
                if (cls == OpClass::Head) {
                    QVERIFY2(c.status == analysis::CauseStatus::InTheHead, qPrintable(what));
                } else {
                    QVERIFY2(c.status == analysis::CauseStatus::Localised, qPrintable(what));
                    QVERIFY2(c.complete_by == layer, qPrintable(what));
                }
                QVERIFY2(c.cause_class == cls && c.cause_explains && c.cause_set.empty(),
                         qPrintable(what));
                QCOMPARE(int(c.classes.size()), kOpClassCount);
                for (const auto& k : c.classes) {
                    QVERIFY2(std::abs(k.removed - (k.cls == cls ? 1.0 : 0.0)) < 1e-9,
                             qPrintable(what + " " + QString::fromStdString(nameString(k.cls))));
                }
            }
        }
        QVERIFY2(localised >= 30, qPrintable(QString::number(localised)));
        QVERIFY2(sites.size() >= 8, qPrintable(QString::number(sites.size())));
    }

private Q_SLOTS:
    // Two classes planted at once (the attention of layer 1, the MLP of layer 2): neither alone
    // removes the item's difference (their effects on p may even oppose), the set of both
    // computed as A removes all of it.
    void plantedPairNeedsASet() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(QDir(dir.path()), kQwen3, QStringLiteral("batch_invariant"));
        QCOMPARE(cli({"run", study, "--all"}).code, 0);
        const auto ids = allItemIds(dir.filePath(QStringLiteral("s.ledger")));
        engine::setOpTap(
            [](const engine::Batch& b, const engine::OpCall& call, const at::Tensor& out) {
                const bool planted = (call.layer == 1 && call.cls == OpClass::Attention) ||
                                     (call.layer == 2 && call.cls == OpClass::Mlp);
                return b.rows() > 1 && planted ? out * 1.05 : at::Tensor();
            });
        const analysis::Localization l = localizeIn(study, {ids.begin(), ids.begin() + 8});
        engine::setOpTap({});
        int bySet = 0;
        for (const auto& c : l.items) {
            if (c.status == analysis::CauseStatus::NoDifference || c.cause_explains) {
                continue; // one plant alone moved p (the other's share is below 5%)
            }
            ++bySet;
            const std::string line = analysis::causeLine(c, l);
            QVERIFY2(c.cause_set == std::vector<OpClass>({OpClass::Attention, OpClass::Mlp}),
                     line.c_str());
            QVERIFY2(c.set_explains && std::abs(c.set_removed - 1.0) < 1e-9, line.c_str());
        }
        QVERIFY2(bySet >= 4, qPrintable(QString::number(bySet)));
    }

    void plantedOperatorsBert() { plantedOperatorsAreFound(kBert); }
    void plantedOperatorsLlama() { plantedOperatorsAreFound(kLlama); }
    void plantedOperatorsQwen3() { plantedOperatorsAreFound(kQwen3); }
    void plantedCausesBert() { plantedCausesAreFound(kBert); }
    void plantedCausesLlama() { plantedCausesAreFound(kLlama); }
    void plantedCausesQwen3() { plantedCausesAreFound(kQwen3); }

    // Every operator class computed again as the pass's own config, one row at a time, gives the
    // pass's own bits: the class functions compute what the forward pass computes (default and
    // batch-invariant kernels, math and SDPA attention, float32 and bfloat16, oneDNN's GEMM; batch
    // 1 without padding, where a row alone is the batch). The same in a float32 pass computing as
    // bfloat16 (a second copy of the weights) changes the probabilities.
    void classSpliceOfItselfIsExact() {
        const std::vector<engine::Item> items{{"a", "the food was great and cheap", {}},
                                              {"b", "slow service, cold soup", {}}};
        const char* configs[] = {R"({})", R"({"attention":"sdpa"})", R"({"dtype":"bfloat16"})",
                                 R"({"kernels":"batch_invariant"})", R"({"gemm":"onednn"})"};
        for (const Fixture* f : {&kBert, &kLlama, &kQwen3}) {
            engine::Engine eng(
                (kRoot + QStringLiteral("/tests/fixtures/") + f->model).toStdString(),
                HeadSpec::parse(f->head.toStdString()));
            for (const char* text : configs) {
                const RunConfig c = RunConfig::fromJson(nlohmann::json::parse(text));
                const auto plain = eng.run(items, c, engine::Capture::None);
                for (int k = 0; k < kOpClassCount; ++k) {
                    const auto cls = static_cast<OpClass>(k);
                    engine::Counterfactual cf;
                    cf.other = c;
                    cf.asOther = [cls](std::size_t) { return engine::opClassBit(cls); };
                    eng.setCounterfactual(&cf);
                    const auto again = eng.run(items, c, engine::Capture::None);
                    eng.setCounterfactual(nullptr);
                    for (std::size_t i = 0; i < items.size(); ++i) {
                        QVERIFY2(again[i].head.logits == plain[i].head.logits,
                                 qPrintable(f->model + " " + text + " " +
                                            QString::fromStdString(nameString(cls))));
                    }
                }
            }
            const RunConfig f32 = RunConfig::fromJson(nlohmann::json::parse("{}"));
            RunConfig bf16 = f32;
            bf16.dtype = Dtype::BFloat16;
            const auto plain = eng.run(items, f32, engine::Capture::None);
            engine::Counterfactual cf;
            cf.other = bf16;
            cf.asOther = [](std::size_t) { return engine::opClassBit(OpClass::Mlp); };
            eng.setCounterfactual(&cf);
            const auto mixed = eng.run(items, f32, engine::Capture::None);
            eng.setCounterfactual(nullptr);
            QVERIFY(mixed[0].head.logits != plain[0].head.logits);
        }
    }

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
        QVERIFY2(text.err.contains("at most 13 passes"), text.err.constData());
        QVERIFY(text.out.contains("Explained by operator classes: "));
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
        // A localisation stored before operator classes (and --reverse) still reads.
        nlohmann::json before = l.toJson();
        before.erase("reverse");
        for (auto& item : before["items"]) {
            for (const char* key : {"classes", "cause_class", "cause_removed", "cause_explains",
                                    "cause_set", "set_removed", "set_decision", "set_explains"}) {
                item.erase(key);
            }
        }
        const auto old = analysis::Localization::fromJson(before);
        QVERIFY(old.reverse && old.items.size() == 2 && old.items[0].classes.empty() &&
                !old.items[0].cause_class);
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
