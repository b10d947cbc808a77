// The PDF report end to end: `probaudit report` (which runs probaudit-report) on a synthetic
// ledger whose differences are known; the PDF's text (pdftotext) has every section, page
// numbers, and headline numbers that match `probaudit compare --json` for the same runs.
#include "cli_support.h"
#include "core/analysis/localization.h"
#include "core/analysis/review.h"
#include "core/analysis/seed_tables.h"
#include "core/analysis/stats.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "review_fixture.h"
#include "ui/models/format.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

using namespace probaudit;

namespace {

QString run(const QString& program, const QStringList& args, int* code = nullptr) {
    QProcess p;
    p.start(program, args);
    p.waitForFinished(120000);
    if (code != nullptr) {
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_ledger;

private Q_SLOTS:
    void initTestCase() {
        m_ledger = m_dir.filePath(QStringLiteral("fixture.ledger"));
        testing::writeFixtureLedger(m_ledger.toStdString(), testing::defaultFixture(40));
    }

    void reportHasEverySectionAndTheComparedNumbers() {
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        const auto r = test::cli({QStringLiteral("report"), m_ledger, QStringLiteral("-o"), pdf});
        QVERIFY2(r.code == 0, r.err.constData());
        int code = 0;
        const QString info = run(QStringLiteral("pdfinfo"), {pdf}, &code);
        QCOMPARE(code, 0);
        const int pages =
            QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info).captured(1).toInt();
        QVERIFY(pages >= 5);
        QVERIFY(info.contains(QStringLiteral("595 x 842"))); // A4 by default
        const QString text =
            run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        for (const char* section :
             {"ProbAudit report: fixture-study", "Environments of the runs", "Pin status",
              "Contents", "1. Headline", "Accuracy: the batched path against one at a time",
              "2. Where the numbers move", "3. Flips at near ties", "4. Per-layer divergence",
              "5. Flipped items", "6. The 20 items nearest the boundary", "7. Diagnosis",
              "8. Definitions", "9. What this report cannot tell you"}) {
            QVERIFY2(text.contains(QString::fromUtf8(section)), section);
        }
        QVERIFY(text.contains(QStringLiteral("page 1 of %1").arg(pages)));
        QVERIFY(text.contains(QStringLiteral("page %1 of %1").arg(pages)));

        // Each config's headline row carries what `probaudit compare --json` says of its run.
        const auto rv = analysis::loadReview(m_ledger.toStdString());
        const QStringList lines = text.split(u'\n');
        // The section itself, not its line in the contents: the last "1. Headline" line.
        int headline = -1;
        const QRegularExpression heading(QStringLiteral("^\\s*1\\. Headline"));
        for (int i = 0; i < lines.size(); ++i) {
            if (heading.match(lines[i]).hasMatch()) {
                headline = i;
            }
        }
        QVERIFY(headline >= 0);
        for (const auto& row : rv.rows) {
            if (row.reference) {
                continue;
            }
            const auto c = test::cli({QStringLiteral("compare"), m_ledger,
                                      QString::number(rv.reference_run->id),
                                      QString::number(row.run->id), QStringLiteral("--json")});
            QCOMPARE(c.code, 0);
            const QJsonObject j = QJsonDocument::fromJson(c.out).object();
            const QString flips =
                QStringLiteral("%1 / %2").arg(j[u"flips"].toInteger()).arg(j[u"items"].toInteger());
            const QString maxDp = ui::formatPoints(j[u"max_dp"].toDouble());
            const QString bits = ui::formatShare(j[u"bit_identical_share"].toDouble());
            bool found = false;
            for (int i = headline; i < lines.size() && !found; ++i) {
                const QString& l = lines[i];
                found = l.trimmed().startsWith(QString::fromStdString(row.config)) &&
                        l.contains(flips) && l.contains(maxDp) && l.contains(bits);
            }
            QVERIFY2(found, qPrintable(QString::fromStdString(row.config) + u' ' + flips + u' ' +
                                       maxDp + u' ' + bits));
        }
        // The near-tie table places every flip in its bin, with the Wilson interval.
        std::int64_t placed = 0;
        for (const auto& tie : analysis::nearTies(rv)) {
            for (const auto& b : tie.bins) {
                if (b.flips > 0) {
                    const auto pc = [](double x) {
                        return QString::number(100 * x, 'f', x == 0 || x == 1 ? 0 : 1);
                    };
                    const QString cell = QStringLiteral("%1 (%2–%3%)")
                                             .arg(b.flips)
                                             .arg(pc(b.rate.low), pc(b.rate.high));
                    QVERIFY2(text.contains(cell), qPrintable(cell));
                    placed += b.flips;
                }
            }
        }
        QVERIFY(placed > 0);
        // The fixture's one flipped item is listed with its id.
        std::string flipped;
        for (std::int64_t i = 0; i < 40; ++i) {
            if (std::abs(testing::Fixture::gap(i)) < 0.05) {
                flipped = "item-" + std::to_string(i);
            }
        }
        QVERIFY(text.contains(QString::fromStdString(flipped)));
        // The limits are generated from the data: 40 items, no GPU, untried axes.
        QVERIFY(text.contains(QStringLiteral("40 items")));
        QVERIFY(text.contains(QStringLiteral("no run used a GPU")));
        QVERIFY(text.contains(QStringLiteral("dtype = float16")));
    }

    // A generation study's report: the agreement table with the numbers `probaudit compare`
    // gives for the same runs, the fork histograms, the differing outputs side by side.
    void generationReport() {
        const QString ledger = m_dir.filePath(QStringLiteral("generation.ledger"));
        testing::writeGenerationFixtureLedger(ledger.toStdString(), 12);
        const QString pdf = m_dir.filePath(QStringLiteral("generation.pdf"));
        const auto r = test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString text =
            run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        for (const char* section :
             {"ProbAudit report: generation-fixture", "1. Record-level and answer-level agreement",
              "2. Where outputs fork: logit gaps", "3. Outputs that differ, side by side",
              "4. Definitions", "5. What this report cannot tell you", "12 prompts"}) {
            QVERIFY2(text.contains(QString::fromUtf8(section)), section);
        }
        const auto c = test::cli({QStringLiteral("compare"), ledger, QStringLiteral("1"),
                                  QStringLiteral("3"), QStringLiteral("--json")});
        QCOMPARE(c.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(c.out).object();
        const QString identical =
            QStringLiteral("%1 / %2").arg(j[u"identical"].toInteger()).arg(12);
        const QString jaccard = QString::number(j[u"pooled_jaccard"].toDouble(), 'f', 4);
        const QString answers = QStringLiteral("%1 / 12").arg(j[u"answers_agree"].toInteger());
        bool found = false;
        for (const QString& l : text.split(u'\n')) {
            found = found || (l.trimmed().startsWith(QStringLiteral("c4 vs serial")) &&
                              l.contains(identical) && l.contains(jaccard) && l.contains(answers));
        }
        QVERIFY2(found, qPrintable(identical + u' ' + jaccard + u' ' + answers + u'\n' + text));
        QVERIFY(text.contains(QStringLiteral("diverge at generated token 2")));
        QVERIFY(text.contains(QStringLiteral("only here: bad")));
        // Under the fork histogram, the divergence rate of its lowest gap bin (where the
        // fixture's four forks are) with its Wilson interval, from compare's counts.
        QVERIFY(text.contains(QStringLiteral("divergence rate [Wilson 95%]")));
        const QJsonObject low = j[u"gap_histogram"].toArray()[0].toObject();
        QCOMPARE(low[u"at_divergence"].toInteger(), 4);
        const auto rate =
            analysis::wilson(low[u"at_divergence"].toInteger(), low[u"all_steps"].toInteger());
        const QString cell = QStringLiteral("%1% (%2–%3%)")
                                 .arg(100 * rate.estimate, 0, 'f', 2)
                                 .arg(100 * rate.low, 0, 'f', 2)
                                 .arg(100 * rate.high, 0, 'f', 2);
        QVERIFY2(text.contains(cell), qPrintable(cell + u'\n' + text));
    }

    // A run on a GPU names its GPU (the engine's fingerprint lists them under cuda.gpus) on the
    // cover and in the hardware limits; a typed reading replaced a lookup of a key no
    // fingerprint has, which said "none" for every GPU run.
    void gpuRunsNameTheirGpu() {
        testing::Fixture f = testing::defaultFixture(12);
        f.environment = nlohmann::json::parse(R"({
            "torch": {"version": "2.11.0", "cuda_build": "13.0"},
            "cuda": {"available": true, "gpus": [{"index": 0, "name": "NVIDIA H200"}]},
            "cpu": {"model": "Fixture CPU", "aten_capability": "AVX2"},
            "threads": {"intra_op": 4}, "engine": {"version": "0.9", "commit": "0123abcd"}})");
        const QString ledger = m_dir.filePath(QStringLiteral("gpu.ledger"));
        testing::writeFixtureLedger(ledger.toStdString(), f);
        const QString pdf = m_dir.filePath(QStringLiteral("gpu.pdf"));
        const auto r = test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString text =
            run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}).simplified();
        QVERIFY2(text.contains(QStringLiteral("GPU NVIDIA H200, CPU Fixture CPU (kernels AVX2)")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("GPU: NVIDIA H200.")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("no run used a GPU")));
    }

    // The report and the bundle that writes one say nothing of Qt's session (no
    // "QStandardPaths: XDG_RUNTIME_DIR not set" where no desktop session is): the report's one
    // line, and the bundle's own lines, are all a terminal or a CI log shows.
    void reportSaysNothingOfQt() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        const QString pdf = m_dir.filePath(QStringLiteral("quiet.pdf"));
        const auto r =
            test::cli({QStringLiteral("report"), m_ledger, QStringLiteral("-o"), pdf}, env);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.out.count('\n'), 1);
        QVERIFY(r.out.startsWith(pdf.toUtf8() + " ("));
        const QString zip = m_dir.filePath(QStringLiteral("quiet.zip"));
        const auto b =
            test::cli({QStringLiteral("bundle"), m_ledger, QStringLiteral("-o"), zip}, env);
        QVERIFY2(b.code == 0, b.err.constData());
        QVERIFY2(!b.err.contains("QStandardPaths") && !b.out.contains("QStandardPaths"),
                 b.err.constData());
    }

    // The cover shows the study's, ledger's, model's and lock's paths relative to the study's
    // folder, and the machine's absolute form only with --absolute-paths.
    void coverPathsAreRelativeToTheStudy() {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("audit/ledgers")));
        const QString audit = m_dir.filePath(QStringLiteral("audit"));
        const QString ledger = audit + QStringLiteral("/ledgers/paths.ledger");
        testing::writeFixtureLedger(ledger.toStdString(), testing::defaultFixture(12));
        {
            ledger::Ledger led(ledger.toStdString(), ledger::Ledger::Mode::Write);
            led.setMeta("study_path", (audit + QStringLiteral("/paths.study.json")).toStdString());
        }
        const auto cover = [&](const QStringList& more) {
            const QString pdf = m_dir.filePath(QStringLiteral("paths.pdf"));
            const auto r = test::cli(
                QStringList{QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf} + more);
            const QString text =
                run(QStringLiteral("pdftotext"),
                    {QStringLiteral("-l"), QStringLiteral("1"), pdf, QStringLiteral("-")})
                    .simplified();
            return r.code == 0 ? text : QString::fromUtf8(r.err);
        };
        const QString relative = cover({});
        QVERIFY2(relative.contains(QStringLiteral("(paths.study.json)")), qPrintable(relative));
        QVERIFY2(relative.contains(QStringLiteral("Ledger ledgers/paths.ledger")),
                 qPrintable(relative));
        QVERIFY2(!relative.contains(m_dir.path()), qPrintable(relative));
        const QString absolute = cover({QStringLiteral("--absolute-paths")});
        QVERIFY2(absolute.contains(QStringLiteral("Ledger ") + ledger), qPrintable(absolute));
        QVERIFY2(absolute.contains(QStringLiteral("/nonexistent/model")), qPrintable(absolute));
    }

    // The report opens with the policy's verdict, and says when the policy was written after
    // the runs it judges.
    void reportOpensWithTheVerdict() {
        const QString ledger = m_dir.filePath(QStringLiteral("policy.ledger"));
        testing::Fixture f = testing::defaultFixture(12);
        f.policy = nlohmann::json::parse(
            R"({"rules": [{"name": "threads", "configs": ["threads-2"], "bit_identical": true}]})");
        testing::writeFixtureLedger(ledger.toStdString(), f);
        {
            ledger::Ledger led(ledger.toStdString(), ledger::Ledger::Mode::Write);
            nlohmann::json study = led.study();
            study["policy"]["rules"][0]["configs"] = {"batch-8"}; // changed after the runs
            ledger::registerPolicy(led, led.study(), study);
            led.updateStudy(study);
        }
        const QString pdf = m_dir.filePath(QStringLiteral("policy.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf}).code, 0);
        const QString text =
            run(QStringLiteral("pdftotext"),
                {QStringLiteral("-l"), QStringLiteral("1"), pdf, QStringLiteral("-")})
                .simplified();
        QVERIFY2(text.contains(QStringLiteral("Policy verdict: FAIL")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("registered after runs 1")), qPrintable(text));
        QVERIFY(text.indexOf(QStringLiteral("Policy verdict")) <
                text.indexOf(QStringLiteral("Ledger integrity")));
    }

    // What the sample cannot show, in the same terms as the card and `probaudit run`: the flip
    // rate's Wilson bound for 0 flips among the items, and the smallest accuracy difference
    // the sample detects.
    void reportSaysWhatTheSampleCannotShow() {
        const QString ledger = m_dir.filePath(QStringLiteral("sample.ledger"));
        const testing::Fixture f = testing::defaultFixture(40);
        testing::writeFixtureLedger(ledger.toStdString(), f);
        const QString pdf = m_dir.filePath(QStringLiteral("sample.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf}).code, 0);
        const QString text =
            run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}).simplified();
        const QString bound = ui::formatShare(analysis::wilson(0, 40).high);
        QVERIFY2(text.contains(QStringLiteral("may still be up to %1").arg(bound)),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("rule of three")));
        QVERIFY2(text.contains(QStringLiteral("could go unseen for some config")),
                 qPrintable(text));
    }

    // A study with a float64 run: the report's "Distance to exact" section with its table and
    // chart, and the headline's note where the reference is the farther side; none without.
    void reportSaysWhichSideIsRight() {
        const QString ledger = m_dir.filePath(QStringLiteral("exact.ledger"));
        const testing::Fixture f = testing::exactFixture();
        testing::writeFixtureLedger(ledger.toStdString(), f);
        const QString pdf = m_dir.filePath(QStringLiteral("exact.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf}).code, 0);
        const QString text =
            run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}).simplified();
        QVERIFY2(text.contains(QStringLiteral("Distance to exact Which side is right: config exact "
                                              "ran in float64")),
                 qPrintable(text));
        const QString note =
            QStringLiteral("Note: the reference \"reference\" is farther from exact than \"near\"");
        QVERIFY(text.count(note) == 2); // the headline and the section
        QVERIFY(text.contains(QStringLiteral("config closer reference closer as close")));
        // The default fixture has no float64 run: no such section.
        const QString plain = m_dir.filePath(QStringLiteral("plain.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), m_ledger, QStringLiteral("-o"), plain}).code,
                 0);
        QVERIFY(!run(QStringLiteral("pdftotext"), {plain, QStringLiteral("-")})
                     .contains(QStringLiteral("Distance to exact")));
    }

    // A diagnosis with its "cause" rung: the report's "Causes" section gives each config's
    // phrase, its layer × operator class grid (the shares and the items each class explains)
    // and the flipped item's cause line; a config that could not be spliced, its sentence.
    void reportNamesTheCauses() {
        const QString ledger = m_dir.filePath(QStringLiteral("causes.ledger"));
        testing::writeFixtureLedger(ledger.toStdString(), testing::defaultFixture(12));
        analysis::Localization l;
        l.config_a = "reference";
        l.config_b = "batch-8";
        l.layers = 4;
        analysis::ItemCause flip;
        flip.id = "item-3";
        flip.p_a = 0.40;
        flip.p_b = 0.60;
        flip.decision_a = 0;
        flip.decision_b = 1;
        flip.status = analysis::CauseStatus::Localised;
        flip.complete_by = 2;
        flip.removed = 1;
        for (int k = 0; k < kOpClassCount; ++k) {
            const auto cls = static_cast<OpClass>(k);
            flip.classes.push_back({cls, cls == OpClass::Mlp ? 0.97 : 0.0,
                                    cls == OpClass::Mlp ? 0 : 1,
                                    cls == OpClass::Mlp ? 0.406 : 0.6});
        }
        analysis::chooseCause(flip, l.threshold);
        QVERIFY(flip.cause_explains);
        l.items.push_back(flip);
        {
            const auto rv = analysis::loadReview(ledger.toStdString());
            ledger::Ledger led(ledger.toStdString(), ledger::Ledger::Mode::Write);
            analysis::Diagnosis d;
            d.study = "fixture-study";
            d.head = rv.head;
            d.reference = "reference";
            d.sample = 12;
            d.causes.push_back({"batch-8", "", l});
            d.causes.push_back({"threads-2", "A and B run under different CPU capabilities", {}});
            led.putDiagnosis(rv.head, d.toJson());
        }
        const QString pdf = m_dir.filePath(QStringLiteral("causes.pdf"));
        QCOMPARE(test::cli({QStringLiteral("report"), ledger, QStringLiteral("-o"), pdf}).code, 0);
        const QString text =
            run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        QVERIFY2(text.contains(QStringLiteral("Causes: which operation makes each difference")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("batch-8 against reference")));
        QVERIFY(text.contains(QStringLiteral("1 of 1 items that differ explained: the MLP 1.")));
        // The grid's row: the layer the flip is complete by, 1 item, A's state removes 100%,
        // the MLP's splice 97% with its 1 item.
        bool row = false;
        for (const QString& line : text.split(u'\n')) {
            row = row || (line.trimmed().startsWith(QStringLiteral("layer 2")) &&
                          line.contains(QStringLiteral("100%")) &&
                          line.contains(QStringLiteral("97% (1)")));
        }
        QVERIFY2(row, qPrintable(text));
        // The flip's cause line, as localize words it.
        QVERIFY2(text.simplified().contains(QStringLiteral(
                     "item-3 (Δp 20.00 points, flip): complete by layer 2: A's state after it "
                     "removes 100% of Δp")),
                 qPrintable(text));
        QVERIFY(text.simplified().contains(
            QStringLiteral("cause: the MLP computed as A removes 97% of Δp")));
        QVERIFY(text.contains(QStringLiteral("Not localised: A and B run under different CPU")));
        // The definitions say what an operator class and a cause are.
        QVERIFY(text.simplified().contains(QStringLiteral("cause (counterfactual) the operator "
                                                          "class that, computed in config B")));
    }

    void letterPages() {
        const QString pdf = m_dir.filePath(QStringLiteral("letter.pdf"));
        const auto r = test::cli({QStringLiteral("report"), m_ledger, QStringLiteral("-o"), pdf,
                                  QStringLiteral("--page-size"), QStringLiteral("letter")});
        QCOMPARE(r.code, 0);
        QVERIFY(run(QStringLiteral("pdfinfo"), {pdf}).contains(QStringLiteral("612 x 792")));
    }

    // The bundle: MANIFEST.json lists every other file with its SHA-256; the ledger inside
    // verifies and compares exactly like the original.
    void bundleWithManifest() {
        const QString zipPath = m_dir.filePath(QStringLiteral("audit.zip"));
        const auto r =
            test::cli({QStringLiteral("bundle"), m_ledger, QStringLiteral("-o"), zipPath});
        QVERIFY2(r.code == 0, r.err.constData());
        QuaZip zip(zipPath);
        QVERIFY(zip.open(QuaZip::mdUnzip));
        QMap<QString, QByteArray> entries;
        for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
            QuaZipFile f(&zip);
            QVERIFY(f.open(QIODevice::ReadOnly));
            entries.insert(zip.getCurrentFileName(), f.readAll());
        }
        zip.close();
        QVERIFY(entries.contains(QStringLiteral("MANIFEST.json")));
        QVERIFY(entries.contains(QStringLiteral("ledger.ledger")));
        QVERIFY(entries.contains(QStringLiteral("report.pdf")));
        const QJsonObject manifest =
            QJsonDocument::fromJson(entries[QStringLiteral("MANIFEST.json")]).object();
        const QJsonArray files = manifest[u"files"].toArray();
        QCOMPARE(files.size(), entries.size() - 1);
        for (const auto& v : files) {
            const QJsonObject f = v.toObject();
            const QByteArray bytes = entries.value(f[u"path"].toString());
            QCOMPARE(qint64(bytes.size()), f[u"bytes"].toInteger());
            QCOMPARE(QString::fromLatin1(
                         QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
                     f[u"sha256"].toString());
        }
        const QString copy = m_dir.filePath(QStringLiteral("from-bundle.ledger"));
        QFile out(copy);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(entries[QStringLiteral("ledger.ledger")]);
        out.close();
        QCOMPARE(test::cli({QStringLiteral("verify"), copy}).code, 0);
        const auto a = analysis::loadReview(m_ledger.toStdString());
        const auto b = analysis::loadReview(copy.toStdString());
        QCOMPARE(a.rows.size(), b.rows.size());
        for (std::size_t k = 0; k < a.rows.size(); ++k) {
            QCOMPARE(b.rows[k].cmp->flips, a.rows[k].cmp->flips);
            QCOMPARE(b.rows[k].cmp->max_dp, a.rows[k].cmp->max_dp);
            QCOMPARE(b.rows[k].cmp->bit_identical_share, a.rows[k].cmp->bit_identical_share);
        }
        QVERIFY(!QFileInfo::exists(zipPath + QStringLiteral(".part")));
    }

    void badLedgerSaysWhich() {
        const QString bad = m_dir.filePath(QStringLiteral("nothing.ledger"));
        const auto r = test::cli({QStringLiteral("report"), bad, QStringLiteral("-o"),
                                  m_dir.filePath(QStringLiteral("x.pdf"))});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(bad.toUtf8()), r.err.constData());
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("x.pdf"))));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"
