// Model variants as an axis of a study ($.models, a config's "model"): each variant's weights
// digested into the ledger, runs named by their variant, a changed variant refused on resume, a
// variant that tokenizes differently refused, and the study file's mistakes named.
#include "cli_support.h"
#include "core/analysis/vocabulary_kl.h"
#include "core/common/error.h"
#include "core/ledger/ledger.h"
#include "core/ledger/model_identity.h"
#include "core/tokenizer/tokenizer.h"
#include "ledger_samples.h"
#include "shard_study.h"
#include "variant_fixtures.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <cstring>
#include <limits>
#include <map>

using probaudit::test::cli;
using probaudit::test::copyOfTinyLlama;
using probaudit::test::writeRoundedVariant;

namespace {

const QString kRoot = QStringLiteral(PROBAUDIT_SOURCE_DIR);
const QString kFixtures = kRoot + QStringLiteral("/tests/fixtures");

// The label_tokens head "h" ("Verdict: a" or "b").
QString labelHeads() {
    return QStringLiteral(R"({"h":{"kind":"label_tokens","template":"Review: {text} Verdict:",)"
                          R"("labels":[" a"," b"]}})");
}

// heads: the study's heads; by default one label_tokens head "h".
QString writeStudy(const QDir& dir, const QString& models, const QString& configs,
                   const QString& heads = QString()) {
    const QString path = dir.filePath(QStringLiteral("v.study.json"));
    const QString text =
        QStringLiteral(
            R"({"name":"variants","models":%1,"heads":%4,)"
            R"("dataset":{"path":"%2/resources/demo/sentiment-sentences/yelp.jsonl","limit":12},)"
            R"("reference":"ref","configs":%3})")
            .arg(models, kRoot, configs, heads.isEmpty() ? labelHeads() : heads);
    if (!probaudit::test::writeFile(path, text.toUtf8())) {
        qFatal("cannot write the study");
    }
    return path;
}

QString twoVariants(const QString& rounded) {
    return QStringLiteral(R"({"full":{"path":"%1/tiny-llama"},"rounded":{"path":"%2"}})")
        .arg(kFixtures, rounded);
}

// The reference, the rounded head and an identical copy (the control).
QString threeVariants(const QDir& dir) {
    return QStringLiteral(R"({"full":{"path":"%1/tiny-llama"},"rounded":{"path":"%2"},)"
                          R"("copy":{"path":"%3"}})")
        .arg(kFixtures, writeRoundedVariant(dir), copyOfTinyLlama(dir));
}

const QString kConfigs = QStringLiteral(
    R"({"ref":{},"rounded":{"model":"rounded"},"rounded-b4":{"model":"rounded","batch_size":4}})");

// Starts `probaudit run` with JSON-lines events and SIGKILLs it once a run has committed 40
// items; returns its exit code (-1: killed).
int runKilledAfter40(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PROBAUDIT_CLI),
            args + QStringList{QStringLiteral("--events"), QStringLiteral("jsonl")});
    bool killed = false;
    while (p.state() != QProcess::NotRunning || p.canReadLine()) {
        p.waitForReadyRead(100);
        while (p.canReadLine()) {
            const QJsonObject e = QJsonDocument::fromJson(p.readLine()).object();
            if (!killed && e.value(u"event").toString() == u"progress" &&
                e.value(u"done").toInt() >= 40) {
                p.kill();
                killed = true;
            }
        }
    }
    p.waitForFinished(60000);
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

QJsonArray runsOf(const QString& ledger) {
    const auto r = cli({QStringLiteral("runs"), ledger, QStringLiteral("--json")});
    if (r.code != 0) {
        qFatal("runs failed: %s", r.err.constData());
    }
    return QJsonDocument::fromJson(r.out).array();
}

nlohmann::json storedStudy(const QString& ledger) {
    const probaudit::ledger::Ledger led(ledger.toStdString(),
                                        probaudit::ledger::Ledger::Mode::Read);
    return led.study();
}

// The study is loaded (and refused) before a ledger is opened.
probaudit::test::CliResult load(const QString& study) {
    return cli({QStringLiteral("run"), study, QStringLiteral("--all"), QStringLiteral("--ledger"),
                study + QStringLiteral(".ledger")});
}

} // namespace

class TestVariants : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Three configs over two variants: every run names its variant, both variants' digests are
    // in the ledger, the rounded head changes the numbers, and the reference variant is the one
    // a config without "model" runs.
    void recordsEachVariant() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(dir.path(), twoVariants(writeRoundedVariant(dir.path())), kConfigs);
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        const auto r =
            cli({QStringLiteral("run"), study, QStringLiteral("--all"), QStringLiteral("--ledger"),
                 ledger, QStringLiteral("--events"), QStringLiteral("jsonl")});
        QVERIFY2(r.code == 0, r.out + r.err);
        QStringList startedModels;
        for (const auto& e : r.events) {
            if (e.value(u"event").toString() == u"started") {
                startedModels << e.value(u"model").toString();
            }
        }
        QCOMPARE(startedModels, (QStringList{u"full"_qs, u"rounded"_qs, u"rounded"_qs}));
        QMap<QString, QJsonObject> byConfig;
        for (const auto& v : runsOf(ledger)) {
            byConfig[v.toObject().value(u"config").toString()] = v.toObject();
        }
        QCOMPARE(byConfig.size(), 3);
        QCOMPARE(byConfig[u"ref"_qs].value(u"model").toString(), u"full"_qs);
        QCOMPARE(byConfig[u"rounded-b4"_qs].value(u"model").toString(), u"rounded"_qs);
        QVERIFY(byConfig[u"ref"_qs].value(u"numerics_sha256") !=
                byConfig[u"rounded"_qs].value(u"numerics_sha256"));

        const auto runs = cli({QStringLiteral("runs"), ledger});
        QVERIFY2(runs.out.contains("model variant: rounded"), runs.out);
        // No runtime config of the reference variant: the floor is not measured, and no row
        // claims to be above or below it; rounded-b4 has no baseline (no ref at batch 4).
        const auto table = cli({u"summary"_qs, ledger, u"--variants"_qs, u"--json"_qs});
        QVERIFY2(table.code == 0, table.err);
        const QJsonObject t = QJsonDocument::fromJson(table.out).object();
        QCOMPARE(t[u"noise_floor"].toObject()[u"configs"].toInt(), 0);
        QCOMPARE(t[u"rows"].toArray().size(), 1);
        QVERIFY(t[u"rows"].toArray()[0].toObject()[u"above_noise_floor"].isNull());
        QCOMPARE(t[u"unpaired"].toArray(), (QJsonArray{u"rounded-b4"_qs}));
        const nlohmann::json stored = storedStudy(ledger);
        const auto& models = stored.at("models");
        QCOMPARE(models.size(), std::size_t(2));
        const std::string full = models.at("full").value("sha256", "");
        const std::string rounded = models.at("rounded").value("sha256", "");
        QCOMPARE(full.size(), std::size_t(64));
        QCOMPARE(rounded.size(), std::size_t(64));
        QVERIFY(full != rounded);
        // A reader of one model (the report's cover, the card) sees the reference variant.
        QCOMPARE(stored.at("model").value("sha256", ""), full);
        QCOMPARE(stored.at("model").value("variant", ""), std::string("full"));
    }

    // summary --variants: each variant against the reference variant under the same runtime
    // settings, with the runtime noise floor. A variant that is the reference's very weights
    // (a copy) changes nothing; the rounded head moves probabilities.
    void summarizesVariantsAgainstTheNoiseFloor() {
        QTemporaryDir dir;
        const QString models = threeVariants(dir.path());
        const QString study = writeStudy(
            dir.path(), models,
            QStringLiteral(
                R"({"ref":{},"ref-b4":{"batch_size":4},"rounded":{"model":"rounded"},)"
                R"("rounded-b4":{"model":"rounded","batch_size":4},)"
                R"("copy":{"model":"copy"},"copy-b8":{"model":"copy","batch_size":8}})"));
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        QVERIFY(cli({QStringLiteral("run"), study, QStringLiteral("--all"),
                     QStringLiteral("--ledger"), ledger})
                    .code == 0);
        const auto r = cli({QStringLiteral("summary"), ledger, QStringLiteral("--variants"),
                            QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject t = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(t[u"reference_variant"].toString(), u"full"_qs);
        QCOMPARE(t[u"noise_floor"].toObject()[u"configs"].toInt(), 1);   // ref-b4
        QCOMPARE(t[u"unpaired"].toArray(), (QJsonArray{u"copy-b8"_qs})); // no full at b8
        QMap<QString, QJsonObject> rows;
        for (const auto& v : t[u"rows"].toArray()) {
            rows[v.toObject()[u"config"].toString()] = v.toObject();
        }
        QCOMPARE(rows.keys(), (QStringList{u"copy"_qs, u"rounded"_qs, u"rounded-b4"_qs}));
        QCOMPARE(rows[u"rounded"_qs][u"baseline"].toString(), u"ref"_qs);
        QCOMPARE(rows[u"rounded-b4"_qs][u"baseline"].toString(), u"ref-b4"_qs);
        const QJsonObject copy = rows[u"copy"_qs];
        QCOMPARE(copy[u"flips"].toInt(), 0);
        QCOMPARE(copy[u"max_dp"].toDouble(), 0.0);
        QCOMPARE(copy[u"churn"].toObject()[u"estimate"].toDouble(), 0.0);
        QCOMPARE(copy[u"above_noise_floor"].toBool(), false);
        const QJsonObject rounded = rows[u"rounded"_qs];
        QVERIFY(rounded[u"max_dp"].toDouble() > 0);
        // Above the floor: more flips than the runtime config, or as many and a larger Δp.
        const QJsonObject floor = t[u"noise_floor"].toObject();
        const int flips = rounded[u"flips"].toInt(), floorFlips = floor[u"max_flips"].toInt();
        QCOMPARE(rounded[u"above_noise_floor"].toBool(),
                 flips > floorFlips || (flips == floorFlips && rounded[u"max_dp"].toDouble() >
                                                                   floor[u"max_dp"].toDouble()));
        const int labelled = rounded[u"labelled"].toInt();
        QCOMPARE(labelled, 12);
        QCOMPARE(rounded[u"churn"].toObject()[u"estimate"].toDouble(),
                 double(rounded[u"broke"].toInt() + rounded[u"fixed"].toInt()) / labelled);
        QCOMPARE(rounded[u"net"].toObject()[u"estimate"].toDouble(),
                 double(rounded[u"fixed"].toInt() - rounded[u"broke"].toInt()) / labelled);

        const auto text = cli({QStringLiteral("summary"), ledger, QStringLiteral("--variants")});
        QVERIFY2(text.code == 0, text.err);
        QVERIFY2(text.out.contains("| copy | copy | ref | 0 | 0.0% [0.0, ") &&
                     text.out.contains("Runtime noise floor: the reference variant under 1 other "
                                       "runtime config flips at most") &&
                     text.out.contains("copy-b8: no run of the reference variant with the same "
                                       "runtime settings"),
                 text.out);
    }

    // KL over the whole vocabulary (a head with "vocabulary": true). Each stored row is a whole
    // distribution over tiny-llama's 512 tokens that keeps the label logits' ratio at the label
    // words; recording it leaves the label logits' bits as they were. The copy's distributions
    // are the reference's bit for bit (KL 0, the same top token everywhere); the rounded head
    // moves them (KL > 0: the planted cause is found); the KL printed is the one computed here
    // from the stored rows; an edited row breaks the seal.
    void comparesWholeVocabularyDistributions() {
        QTemporaryDir dir;
        const QString heads =
            QStringLiteral(R"({"h":{"kind":"label_tokens","template":"Review: {text} Verdict:",)"
                           R"("labels":[" a"," b"],"vocabulary":true},)"
                           R"("plain":{"kind":"label_tokens","template":"Review: {text} Verdict:",)"
                           R"("labels":[" a"," b"]}})");
        const QString study = writeStudy(
            dir.path(), threeVariants(dir.path()),
            QStringLiteral(R"({"ref":{},"ref-b4":{"batch_size":4},"rounded":{"model":"rounded"},)"
                           R"("copy":{"model":"copy"}})"),
            heads);
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        const auto ran = cli({u"run"_qs, study, u"--all"_qs, u"--ledger"_qs, ledger});
        QVERIFY2(ran.code == 0, ran.err);
        const auto r =
            cli({u"summary"_qs, ledger, u"--variants"_qs, u"--head"_qs, u"h"_qs, u"--json"_qs});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject t = QJsonDocument::fromJson(r.out).object();
        QMap<QString, QJsonObject> rows;
        for (const auto& v : t[u"rows"].toArray()) {
            rows[v.toObject()[u"config"].toString()] = v.toObject();
        }
        const QJsonObject copy = rows[u"copy"_qs][u"vocabulary_kl"].toObject();
        QCOMPARE(copy[u"items"].toInt(), 12);
        QCOMPARE(copy[u"kl_max"].toDouble(), 0.0);
        QCOMPARE(copy[u"same_top"].toInt(), 12);
        const QJsonObject rounded = rows[u"rounded"_qs][u"vocabulary_kl"].toObject();
        QCOMPARE(rounded[u"items"].toInt(), 12);
        QVERIFY(rounded[u"kl_mean"].toDouble() > 0);
        QVERIFY(t[u"noise_floor"].toObject()[u"kl_mean"].isDouble()); // ref-b4 against ref

        // The stored rows, read back: whole distributions, consistent with the label logits.
        using probaudit::ledger::Ledger;
        const Ledger led(ledger.toStdString(), Ledger::Mode::Read);
        std::map<std::pair<std::string, std::string>, std::int64_t> runOf; // (head, config)
        for (const auto& run : led.runs()) {
            runOf[{run.head, run.config_name}] = run.id;
        }
        const auto ref = led.records(runOf[{"h", "ref"}], false, true);
        const auto plain = led.records(runOf[{"plain", "ref"}], false, true);
        const auto rnd = led.records(runOf[{"h", "rounded"}], false, true);
        const auto tok = probaudit::tokenizer::Tokenizer::fromFile(
            (kFixtures + QStringLiteral("/tiny-llama/tokenizer.json")).toStdString());
        const auto a = tok.encode(" a", false).ids.at(0), b = tok.encode(" b", false).ids.at(0);
        double kl = 0;
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const auto& v = ref[i].vocabulary;
            QCOMPARE(v.size(), std::size_t(512));
            QVERIFY(plain[i].vocabulary.empty());
            QVERIFY(plain[i].logits == ref[i].logits); // the same bits with or without
            double mass = 0;
            for (float lp : v) {
                mass += std::exp(double(lp));
            }
            QVERIFY(std::abs(mass - 1) < 1e-5);
            const double ratio = double(v[std::size_t(a)]) - double(v[std::size_t(b)]);
            QVERIFY(std::abs(ratio - (double(ref[i].logits[0]) - double(ref[i].logits[1]))) < 1e-4);
            // KL(ref || rounded), by the definition, from the stored rows (float64).
            double zp = 0, zq = 0;
            for (std::size_t k = 0; k < v.size(); ++k) {
                zp += std::exp(double(v[k]));
                zq += std::exp(double(rnd[i].vocabulary[k]));
            }
            for (std::size_t k = 0; k < v.size(); ++k) {
                const double lp = double(v[k]) - std::log(zp);
                const double lq = double(rnd[i].vocabulary[k]) - std::log(zq);
                kl += std::exp(lp) * (lp - lq) / double(ref.size());
            }
        }
        // Equal up to the float64 rounding of the two sums (the KL here is small, about 3e-8
        // nats: only the output head is rounded).
        QVERIFY2(std::abs(kl - rounded[u"kl_mean"].toDouble()) <= 1e-6 * kl,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(kl, 0, 'g', 17)
                                .arg(rounded[u"kl_mean"].toDouble(), 0, 'g', 17)));

        const auto text = cli({u"summary"_qs, ledger, u"--variants"_qs, u"--head"_qs, u"h"_qs});
        QVERIFY2(text.code == 0, text.err);
        QVERIFY2(text.out.contains("| copy | copy | ref | 0 |") &&
                     text.out.contains("| 0.0000 (p99 0.0000) | 100.0% [") &&
                     text.out.contains("mean KL to the reference config is at most"),
                 text.out);

        // One log-probability changed in place: verify names the run.
        QCOMPARE(cli({u"verify"_qs, ledger}).code, 0);
        const std::string edit = "UPDATE vocabulary SET logprobs = zeroblob(2048) WHERE run = " +
                                 std::to_string(runOf[{"h", "rounded"}]) + " AND item = 3";
        probaudit::testing::sql(ledger, edit.c_str());
        QCOMPARE(cli({u"verify"_qs, ledger}).code, 2);
    }

    // KL by its definition on rows small enough to do by hand, and the rows it refuses.
    void klOverTheVocabulary() {
        using probaudit::analysis::vocabularyKlDivergence;
        const std::vector<float> p{std::log(0.5f), std::log(0.5f)};
        const std::vector<float> q{std::log(0.25f), std::log(0.75f)};
        // 0.5 ln(0.5 / 0.25) + 0.5 ln(0.5 / 0.75)
        QVERIFY(std::abs(vocabularyKlDivergence(p, q) - 0.5 * std::log(4.0 / 3.0)) < 1e-7);
        QCOMPARE(vocabularyKlDivergence(p, p), 0.0);
        // Unnormalised rows are renormalised: the same distribution shifted is KL 0.
        QVERIFY(vocabularyKlDivergence(p, {p[0] + 3.0f, p[1] + 3.0f}) < 1e-12);
        const float inf = std::numeric_limits<float>::infinity();
        QVERIFY(std::isinf(vocabularyKlDivergence(p, {0.0f, -inf})));
        QCOMPARE(vocabularyKlDivergence({0.0f, -inf}, p), std::log(2.0));
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, vocabularyKlDivergence(p, {0.0f}));
        QVERIFY_THROWS_EXCEPTION(probaudit::Error,
                                 vocabularyKlDivergence(p, {0.0f, std::nanf("")}));
        QCOMPARE(probaudit::analysis::topToken({-2.0f, -0.5f, -0.5f}), std::int64_t(1));
    }

    // A study of variants goes through every way a ledger is made: shards recorded apart and
    // merged are the one-node ledger, record for record; a run of a variant killed with
    // SIGKILL resumes to the uninterrupted run's numbers; a bundle imported into a fresh ledger
    // brings every variant's digest with its runs; every ledger verifies.
    void variantsShardMergeResumeBundle() {
        QTemporaryDir dir;
        const QString rounded = writeRoundedVariant(dir.path());
        const QString study = writeStudy(dir.path(), twoVariants(rounded), kConfigs);
        const QString whole = dir.filePath(QStringLiteral("whole.ledger"));
        QVERIFY(cli({u"run"_qs, study, u"--all"_qs, u"--ledger"_qs, whole}).code == 0);
        QStringList shards;
        for (const QString& shard : {u"1/2"_qs, u"2/2"_qs}) {
            shards << dir.filePath(QStringLiteral("shard-%1.ledger").arg(shard.left(1)));
            const auto r = cli({u"run"_qs, study, u"--all"_qs, u"--shard"_qs, shard, u"--ledger"_qs,
                                shards.back()});
            QVERIFY2(r.code == 0, r.err);
        }
        const QString merged = dir.filePath(QStringLiteral("merged.ledger"));
        const auto m = cli(QStringList{u"merge"_qs} + shards + QStringList{u"-o"_qs, merged});
        QVERIFY2(m.code == 0, m.err);
        QCOMPARE(cli({u"verify"_qs, merged}).code, 0);
        QVERIFY(probaudit::test::sameAsOneNode(whole, merged));
        QVERIFY(storedStudy(merged).at("models") == storedStudy(whole).at("models"));

        // Bundle and import into a fresh ledger.
        const QString zip = dir.filePath(QStringLiteral("v.audit.zip"));
        const auto b = cli({u"bundle"_qs, whole, u"--study"_qs, study, u"-o"_qs, zip});
        QVERIFY2(b.code == 0, b.err);
        const QString imported = dir.filePath(QStringLiteral("imported.ledger"));
        const auto i = cli({u"import"_qs, zip, u"--into"_qs, imported});
        QVERIFY2(i.code == 0, i.err);
        QCOMPARE(cli({u"verify"_qs, imported}).code, 0);
        QCOMPARE(runsOf(imported).size(), 3);
        QVERIFY(storedStudy(imported).at("models") == storedStudy(whole).at("models"));
        // The same bundle into a ledger whose "rounded" is other weights: refused, unchanged.
        const QString other = dir.filePath(QStringLiteral("other.ledger"));
        const QString otherStudy = writeStudy(
            dir.path(),
            QStringLiteral(
                R"({"full":{"path":"%1/tiny-llama"},"rounded":{"path":"%1/tiny-llama"}})")
                .arg(kFixtures),
            kConfigs);
        QVERIFY(cli({u"run"_qs, otherStudy, u"--config"_qs, u"rounded"_qs, u"--ledger"_qs, other})
                    .code == 0);
        const auto refused = cli({u"import"_qs, zip, u"--into"_qs, other});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("its model is not the one of") &&
                     refused.err.contains("the files of model variant \"rounded\" differ"),
                 refused.err);
        QCOMPARE(runsOf(other).size(), 1);

        // kill -9 in the middle of a variant's run, then resume.
        const QString big = writeStudy(
            dir.path(), twoVariants(rounded),
            QStringLiteral(R"({"ref":{},"rounded-b4":{"model":"rounded","batch_size":4}})"));
        QFile::rename(big, dir.filePath(QStringLiteral("big.study.json")));
        const QString bigStudy = dir.filePath(QStringLiteral("big.study.json"));
        QByteArray text;
        {
            QFile f(bigStudy);
            QVERIFY(f.open(QIODevice::ReadOnly));
            text = f.readAll().replace("\"limit\":12", "\"limit\":1000");
        }
        QVERIFY(probaudit::test::writeFile(bigStudy, text));
        const QString killed = dir.filePath(QStringLiteral("killed.ledger"));
        const QStringList runB4{u"run"_qs,        bigStudy,       u"--config"_qs,
                                u"rounded-b4"_qs, u"--ledger"_qs, killed};
        QCOMPARE(runKilledAfter40(runB4), -1);
        const QJsonObject partial = runsOf(killed)[0].toObject();
        QCOMPARE(partial[u"status"].toString(), u"unfinished"_qs);
        QVERIFY(partial[u"items_done"].toInt() < 1000);
        QCOMPARE(cli(runB4).code, 0);
        const QString clean = dir.filePath(QStringLiteral("clean.ledger"));
        QCOMPARE(cli({u"run"_qs, bigStudy, u"--config"_qs, u"rounded-b4"_qs, u"--ledger"_qs, clean})
                     .code,
                 0);
        QCOMPARE(runsOf(killed).size(), 1);
        QCOMPARE(runsOf(killed)[0].toObject()[u"numerics_sha256"],
                 runsOf(clean)[0].toObject()[u"numerics_sha256"]);
        QCOMPARE(runsOf(killed)[0].toObject()[u"model"].toString(), u"rounded"_qs);
    }

    // The diagnosis ladder's "model variant" step: a variant alone against the reference, set
    // against the runtime configs. The rounded head moves probabilities more than batching
    // does (explains); the copy moves nothing and is not named; the cause rung leaves both out.
    void diagnosisJudgesTheVariantAgainstTheRuntimeFloor() {
        QTemporaryDir dir;
        const QString models = threeVariants(dir.path());
        const QString study = writeStudy(
            dir.path(), models,
            QStringLiteral(R"({"ref":{},"ref-b4":{"batch_size":4},"rounded":{"model":"rounded"},)"
                           R"("copy":{"model":"copy"}})"));
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        QVERIFY(cli({u"run"_qs, study, u"--all"_qs, u"--ledger"_qs, ledger}).code == 0);
        const auto r = cli({u"diagnose"_qs, study, u"--ledger"_qs, ledger, u"--sample"_qs, u"8"_qs,
                            u"--batch"_qs, u"4"_qs, u"--json"_qs});
        QVERIFY2(r.code == 0, r.err);
        const QJsonObject d = QJsonDocument::fromJson(r.out).object();
        QJsonObject variant;
        QStringList steps;
        for (const auto& s : d[u"ladder"].toArray()) {
            steps << s.toObject()[u"step"].toString();
            if (steps.back() == u"model variant") {
                variant = s.toObject();
            }
        }
        QCOMPARE(steps.last(), u"cause"_qs);
        QCOMPARE(steps[steps.size() - 2], u"model variant"_qs);
        QCOMPARE(variant[u"status"].toString(), u"explains"_qs);
        const QString verdict = variant[u"verdict"].toString();
        QVERIFY2(verdict.contains(u"rounded") && !verdict.contains(u"copy"), qPrintable(verdict));
        QVERIFY2(variant[u"finding"].toString().contains(u"copy: 0 flipped, largest Δp 0 points"),
                 qPrintable(variant[u"finding"].toString()));
        for (const auto& c : d[u"causes"].toArray()) {
            QVERIFY(c.toObject()[u"config"].toString() != u"rounded"_qs);
        }
    }

    // A variant whose files change after it was recorded is refused on the next run, naming it;
    // a variant added to the study is recorded beside the others.
    void refusesAChangedVariantAndAddsANewOne() {
        QTemporaryDir dir;
        const QString rounded = writeRoundedVariant(dir.path());
        const QString study = writeStudy(dir.path(), twoVariants(rounded), kConfigs);
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        const QStringList run{QStringLiteral("run"), study, QStringLiteral("--all"),
                              QStringLiteral("--ledger"), ledger};
        QVERIFY(cli(run).code == 0);

        QDir().rename(rounded, dir.filePath(QStringLiteral("moved")));
        const QString more =
            QStringLiteral(R"({"full":{"path":"%1/tiny-llama"},"rounded":{"path":"%2"},)"
                           R"("copy":{"path":"%1/tiny-llama"}})")
                .arg(kFixtures, dir.filePath(QStringLiteral("moved")));
        writeStudy(dir.path(), more,
                   QStringLiteral(R"({"ref":{},"rounded":{"model":"rounded"},)"
                                  R"("copy":{"model":"copy"}})"));
        const auto added = cli(run);
        QVERIFY2(added.code == 0, added.err); // moved, not changed; "copy" is new
        QCOMPARE(runsOf(ledger).size(), 4);
        QCOMPARE(storedStudy(ledger).at("models").size(), std::size_t(3));
        // A study that drops "copy": the ledger keeps its digest (its run is in the ledger).
        writeStudy(dir.path(),
                   QStringLiteral(R"({"full":{"path":"%1/tiny-llama"},"rounded":{"path":"%2"}})")
                       .arg(kFixtures, dir.filePath(QStringLiteral("moved"))),
                   QStringLiteral(R"({"ref":{},"rounded":{"model":"rounded"}})"));
        QVERIFY(cli(run).code == 0);
        QVERIFY(storedStudy(ledger).at("models").contains("copy"));

        writeStudy(dir.path(), twoVariants(kFixtures + QStringLiteral("/tiny-qwen3")), kConfigs);
        const auto changed = cli(run);
        QCOMPARE(changed.code, 1);
        QVERIFY2(changed.err.contains("the files of model variant \"rounded\" differ from the "
                                      "ones this ledger was recorded with; start a new ledger"),
                 changed.err);
        QCOMPARE(runsOf(ledger).size(), 4);
    }

    // The token ids are the items: a variant that tokenizes them otherwise is refused before a
    // run of it starts.
    void refusesAVariantThatTokenizesDifferently() {
        QTemporaryDir dir;
        const QString study = writeStudy(
            dir.path(),
            QStringLiteral(R"({"llama":{"path":"%1/tiny-llama"},"qwen":{"path":"%1/tiny-qwen3"}})")
                .arg(kFixtures),
            QStringLiteral(R"({"ref":{},"qwen":{"model":"qwen"}})"));
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        const auto r = cli({QStringLiteral("run"), study, QStringLiteral("--all"),
                            QStringLiteral("--ledger"), ledger});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("model variant \"qwen\" tokenizes item \"") &&
                     r.err.contains("into other token ids than \"llama\"") &&
                     r.err.contains("cannot be compared item by item"),
                 r.err);
        QCOMPARE(runsOf(ledger).size(), 1); // the reference variant's run only
    }

    // Localisation splices one config's hidden states into the other's: not across weights.
    void localizeRefusesTwoVariants() {
        QTemporaryDir dir;
        const QString study =
            writeStudy(dir.path(), twoVariants(writeRoundedVariant(dir.path())), kConfigs);
        const QString ledger = dir.filePath(QStringLiteral("v.ledger"));
        QVERIFY(cli({QStringLiteral("run"), study, QStringLiteral("--all"),
                     QStringLiteral("--ledger"), ledger})
                    .code == 0);
        const auto r = cli({QStringLiteral("localize"), study, QStringLiteral("--ledger"), ledger,
                            QStringLiteral("--b"), QStringLiteral("rounded")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("A and B are different model variants (full, rounded)"), r.err);
    }

    // A study of one model whose files change is refused on the next run, as before variants;
    // it has no variants table.
    void refusesAChangedSingleModel() {
        QTemporaryDir dir;
        const QString rounded = writeRoundedVariant(dir.path());
        const QString path = dir.filePath(QStringLiteral("one.study.json"));
        const QString text = QStringLiteral(
            R"({"name":"one","model":{"path":"%1"},"heads":{"h":{"kind":"label_tokens",)"
            R"("template":"{text}","labels":[" a"," b"]}},"dataset":{"path":"%2/resources/demo/)"
            R"(sentiment-sentences/yelp.jsonl","limit":4},"configs":{"ref":{}},"reference":"ref"})");
        QVERIFY(probaudit::test::writeFile(
            path, text.arg(kFixtures + QStringLiteral("/tiny-llama"), kRoot).toUtf8()));
        const QString ledger = dir.filePath(QStringLiteral("one.ledger"));
        const QStringList run{QStringLiteral("run"), path, QStringLiteral("--all"),
                              QStringLiteral("--ledger"), ledger};
        const auto first = cli(run);
        QVERIFY2(first.code == 0, first.err);
        const auto table = cli({QStringLiteral("summary"), ledger, QStringLiteral("--variants")});
        QCOMPARE(table.code, 1); // one model: no variants table, one sentence
        QVERIFY2(table.err.contains("the study has one model; --variants needs model variants"),
                 table.err);
        QVERIFY(probaudit::test::writeFile(path, text.arg(rounded, kRoot).toUtf8()));
        const auto r = cli(run);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("the model's files differ from the ones this ledger was recorded "
                                "with; start a new ledger"),
                 r.err);
    }

    // The one question a session, a bundle import and a merge ask of two stored studies.
    void comparesStoredModels() {
        using nlohmann::json;
        using probaudit::ledger::modelsDiffer;
        const json one{{"model", {{"path", "/a"}, {"format", "gguf"}, {"sha256", "11"}}}};
        json moved = one;
        moved["model"]["path"] = "/b";
        QCOMPARE(modelsDiffer(one, moved), std::string());
        json other = one;
        other["model"]["sha256"] = "22";
        QCOMPARE(modelsDiffer(one, other), std::string("the model's files differ"));
        const json variants{{"model", one["model"]},
                            {"models",
                             {{"a", {{"format", "gguf"}, {"sha256", "11"}}},
                              {"b", {{"format", "gguf"}, {"sha256", "33"}}}}}};
        QCOMPARE(modelsDiffer(one, variants),
                 std::string("one holds model variants ($.models) and the other one model"));
        json fewer = variants;
        fewer["models"].erase("b");
        fewer["models"]["c"] = {{"format", "hf"}, {"sha256", "44"}};
        QCOMPARE(modelsDiffer(variants, fewer), std::string()); // b, c: one side only
        json changed = variants;
        changed["models"]["b"]["sha256"] = "55";
        QCOMPARE(modelsDiffer(changed, variants),
                 std::string("the files of model variant \"b\" differ"));
        const json all = probaudit::ledger::withVariantsOf(fewer, variants);
        QCOMPARE(all["models"].size(), std::size_t(3));
        QVERIFY(all["models"]["b"]["sha256"] == json("33"));
        QVERIFY(probaudit::ledger::withVariantsOf(one, variants) == one);
    }

    void refusesBadVariantDeclarations_data() {
        QTest::addColumn<QString>("models");
        QTest::addColumn<QString>("configs");
        QTest::addColumn<QString>("problem");
        const QString two = QStringLiteral(R"({"a":{"path":"%1/tiny-llama"}})").arg(kFixtures);
        QTest::newRow("unknown variant")
            << two << QStringLiteral(R"({"ref":{"model":"b"}})")
            << QStringLiteral("$.configs.ref.model: \"b\" is not one of $.models");
        QTest::newRow("empty") << QStringLiteral("{}") << QStringLiteral(R"({"ref":{}})")
                               << QStringLiteral("$.models: must be an object");
        QTest::newRow("bad name")
            << QStringLiteral(R"({"a b":{"path":"%1/tiny-llama"}})").arg(kFixtures)
            << QStringLiteral(R"({"ref":{}})")
            << QStringLiteral("$.models.a b: a variant's name is letters");
        // A server variant (the study is refused before any server is asked).
        const auto server = [](const QString& serves) {
            return QStringLiteral("{\"endpoint\":\"http:/" // no double slash: moc reads a comment
                                  "/127.0.0.1:9/v1\",\"name\":\"m\"%1}")
                .arg(serves.isEmpty() ? QString()
                                      : QStringLiteral(",\"serves\":\"%1\"").arg(serves));
        };
        const QString local = QStringLiteral(R"("a":{"path":"%1/tiny-llama"})").arg(kFixtures);
        const QString served = u'{' + local + QStringLiteral(R"(,"p":)") + server(u"a"_qs) + u'}';
        QTest::newRow("server without serves")
            << u'{' + local + QStringLiteral(R"(,"p":)") + server({}) + u'}'
            << QStringLiteral(R"({"ref":{}})") << QStringLiteral("$.models.p.serves: missing");
        QTest::newRow("server serves a server")
            << u'{' + local + QStringLiteral(R"(,"p":)") + server(u"q"_qs) +
                   QStringLiteral(R"(,"q":)") + server(u"a"_qs) + u'}'
            << QStringLiteral(R"({"ref":{}})")
            << QStringLiteral("$.models.p.serves: \"q\" is not a local variant of $.models");
        QTest::newRow("server first")
            << QStringLiteral(R"({"p":)") + server(u"a"_qs) + u',' + local + u'}'
            << QStringLiteral(R"({"ref":{"model":"a"}})")
            << QStringLiteral("$.models.p: the first variant is the one configs without");
        QTest::newRow("reference on a server")
            << served << QStringLiteral(R"({"ref":{"model":"p"}})")
            << QStringLiteral("$.reference: \"ref\" runs a server; the reference runs local "
                              "weights");
        QTest::newRow("engine axis on a server")
            << served << QStringLiteral(R"({"ref":{},"s":{"model":"p","batch_size":4}})")
            << QStringLiteral("$.configs.s.batch_size: a setting of the server, not of the "
                              "requests ProbAudit sends; declare the server's settings in "
                              "$.models.p.labels");
        QTest::newRow("server axis on local weights")
            << served << QStringLiteral(R"({"ref":{"prefix_cache":"warm"}})")
            << QStringLiteral("$.configs.ref.prefix_cache: applies to a server's configs only");
        QTest::newRow("hidden-state head next to a server")
            << served << QStringLiteral(R"({"ref":{}})")
            << QStringLiteral("$.heads.c: a study with a server among its variants has "
                              "label_tokens or generation heads");
        QTest::newRow("missing file")
            << QStringLiteral(R"({"a":{"path":"%1/nowhere"}})").arg(kFixtures)
            << QStringLiteral(R"({"ref":{}})") << QStringLiteral("$.models.a.path");
        QTest::newRow("same config twice")
            << two << QStringLiteral(R"({"ref":{},"again":{"model":"a"}})")
            << QStringLiteral("$.configs.again: the same configuration as \"ref\"");
    }
    void refusesBadVariantDeclarations() {
        QFETCH(QString, models);
        QFETCH(QString, configs);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString heads = QString::fromUtf8(QTest::currentDataTag()).startsWith(u"hidden")
                                  ? QStringLiteral(R"({"c":{"kind":"classifier"}})")
                                  : QString();
        const QString study = writeStudy(dir.path(), models, configs, heads);
        const auto r = load(study);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(problem.toUtf8()), r.err);
        QVERIFY(!QFile::exists(study + QStringLiteral(".ledger")));
    }

    // One $.model and $.models together, and "model" in a study of one model.
    void refusesModelAxisWithoutVariants() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.study.json"));
        const QString one =
            QStringLiteral(R"({"name":"s","model":{"path":"%1/tiny-llama"},%2)"
                           R"("heads":{"h":{"kind":"label_tokens","template":"{text}",)"
                           R"("labels":[" a"," b"]}},"dataset":{"path":"%3/resources/demo/)"
                           R"(sentiment-sentences/yelp.jsonl"},"configs":{"ref":%4}})")
                .arg(kFixtures);
        QVERIFY(probaudit::test::writeFile(
            path, one.arg(QString(), kRoot, QStringLiteral(R"({"model":"a"})")).toUtf8()));
        auto r = load(path);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("$.configs.ref.model: the study has one $.model; declare its "
                                "variants in $.models"),
                 r.err);
        QVERIFY(probaudit::test::writeFile(
            path,
            one.arg(QStringLiteral(R"("models":{"a":{"path":"%1/tiny-llama"}},)").arg(kFixtures),
                    kRoot, QStringLiteral("{}"))
                .toUtf8()));
        r = load(path);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("$.models: a study has one $.model or its $.models, not both"),
                 r.err);
    }
};

QTEST_GUILESS_MAIN(TestVariants)
#include "test_variants.moc"
