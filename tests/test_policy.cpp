// The policy and the gate (core/common/policy_spec.h, core/policy): the study file's rules are
// read strictly, a verdict follows from the recorded runs as the fixture constructs them, the
// exit codes tell a failed rule from one that cannot be evaluated, a policy written after the
// runs is reported as such, a changed ledger is judged by nothing, and the JUnit XML validates
// against the xunit plugin's junit-10.xsd with xmllint (a real XML schema validator).
#include "core/common/base64.h"
#include "core/common/error.h"
#include "core/common/file_digest.h"
#include "core/common/protocol.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "core/ledger/signing.h"
#include "core/policy/attestation.h"
#include "core/policy/card.h"
#include "core/policy/gate.h"
#include "core/policy/junit.h"
#include "core/policy/reproduction.h"
#include "ledger_samples.h"
#include "review_fixture.h"

#include <sqlite3.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace probaudit;
using nlohmann::json;

namespace {

// The fixture's batch-8 flips the items nearest the boundary: computed here from the fixture's
// construction, not read from the gate.
std::int64_t expectedBatch8Flips(std::int64_t items) {
    std::int64_t n = 0;
    for (std::int64_t i = 0; i < items; ++i) {
        n += std::abs(testing::Fixture::gap(i)) < 0.05 ? 1 : 0;
    }
    return n;
}

const policy::GateRow* find(const policy::GateResult& g, const std::string& rule,
                            Criterion criterion, const std::string& config) {
    for (const auto& r : g.rows) {
        if (r.rule == rule && r.criterion == criterion && r.config == config) {
            return &r;
        }
    }
    return nullptr;
}

std::string ledgerWith(const QTemporaryDir& dir, const json& policy) {
    testing::Fixture f = testing::defaultFixture();
    f.policy = policy;
    const std::string path = dir.filePath(QStringLiteral("l.db")).toStdString();
    testing::writeFixtureLedger(path, f);
    return path;
}

void sql(const std::string& path, const char* statement) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, statement, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

} // namespace

class TestPolicy : public QObject {
    Q_OBJECT
private slots:
    void refusesBadPolicies_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("error");
        const auto row = [](const char* name, const char* policy, const char* error) {
            QTest::newRow(name) << QString::fromUtf8(policy) << QString::fromUtf8(error);
        };
        row("not an object", R"([1])", "$.policy: must be {\"rules\"");
        row("no rules", R"({"rules": []})", "at least one rule");
        row("unknown field", R"({"rules": [{"name": "a", "configs": "all", "max_flips": 0,
             "max_flipz": 1}]})",
            "$.policy.rules[0].max_flipz: unknown field");
        row("no limit", R"({"rules": [{"name": "a", "configs": "all"}]})", "no limit");
        row("no name", R"({"rules": [{"configs": "all", "max_flips": 0}]})",
            "$.policy.rules[0].name: missing");
        row("no configs", R"({"rules": [{"name": "a", "max_flips": 0}]})", ".configs: missing");
        row("fraction of flips", R"({"rules": [{"name": "a", "configs": "all",
             "max_flips": 0.5}]})",
            "max_flips: must be an integer >= 0");
        row("rate above 1", R"({"rules": [{"name": "a", "configs": "all",
             "max_flip_rate": 2}]})",
            "max_flip_rate: must be a number in [0, 1]");
        row("bit_identical false", R"({"rules": [{"name": "a", "configs": "all",
             "bit_identical": false}]})",
            "bit_identical: must be true");
        row("zero margin", R"({"rules": [{"name": "a", "configs": "all",
             "accuracy_margin_points": 0}]})",
            "must be a number > 0");
        row("unknown class", R"({"rules": [{"name": "a", "configs": [{"class": "colour"}],
             "max_flips": 0}]})",
            "unknown class \"colour\"");
        row("variant class", R"({"rules": [{"name": "a", "configs": [{"class": "variant"}],
             "max_flips": 0}]})",
            "a class of model variants is not supported yet; name the variants' configs");
        row("unknown config", R"({"rules": [{"name": "a", "configs": ["bs9"],
             "max_flips": 0}]})",
            "\"bs9\" is not one of the configs");
        row("unknown against", R"({"rules": [{"name": "a", "configs": "all", "against": "x",
             "max_flips": 0}]})",
            ".against: \"x\" is not one of the configs");
        row("unknown head", R"({"rules": [{"name": "a", "configs": "all", "head": "g",
             "max_flips": 0}]})",
            ".head: \"g\" is not one of the heads");
        row("generation criterion on a decision head", R"({"rules": [{"name": "a",
             "configs": "all", "min_jaccard": 0.9}]})",
            "applies to generation heads");
        row("duplicate rule", R"({"rules": [{"name": "a", "configs": "all", "max_flips": 0},
             {"name": "a", "configs": "all", "max_flips": 1}]})",
            "names another rule too");
    }
    void refusesBadPolicies() {
        QFETCH(QString, policy);
        QFETCH(QString, error);
        std::vector<std::string> errors;
        const Policy p = Policy::fromJson(json::parse(policy.toStdString()), "$.policy", errors);
        p.checkAgainstStudy({"reference", "bs8"}, {{"h", false}}, "$.policy", errors);
        QVERIFY2(!errors.empty(), qPrintable(policy));
        bool found = false;
        for (const auto& e : errors) {
            found = found || e.find(error.toStdString()) != std::string::npos;
        }
        QVERIFY2(found, errors.front().c_str());
    }

    void canonicalFormRoundTrips() {
        const json written = json::parse(R"({"rules": [{"name": "f32", "configs": ["bs8",
            {"class": "dtype"}], "against": "reference", "max_flips": 0, "min_agreement": 0.999},
            {"name": "bits", "configs": "all", "bit_identical": true}]})");
        std::vector<std::string> errors;
        const Policy p = Policy::fromJson(written, "$.policy", errors);
        QVERIFY(errors.empty());
        const Policy again = Policy::fromJson(p.toJson(), "$.policy", errors);
        QVERIFY(errors.empty());
        QCOMPARE(again.sha256(), p.sha256());
        QCOMPARE(again.rules.size(), std::size_t(2));
        QCOMPARE(again.rules[0].checks.size(), std::size_t(2));
        QCOMPARE(again.rules[0].classes, std::vector<std::string>{"dtype"});
        // A changed limit is another policy.
        json changed = p.toJson();
        changed["rules"][0]["min_agreement"] = 0.99;
        QVERIFY(Policy::fromJson(changed, "$.policy", errors).sha256() != p.sha256());
    }

    void classesFollowTheAxes() {
        QCOMPARE(classesOf({"dtype", "batch_size"}), (std::vector<std::string>{"shape", "dtype"}));
        QCOMPARE(classesOf({"padding_side"}), std::vector<std::string>{"shape"});
        QCOMPARE(classesOf({"attention", "gemm"}), std::vector<std::string>{"kernels"});
        QCOMPARE(classesOf({"threads"}), std::vector<std::string>{"threads"});
        QCOMPARE(classesOf({"concurrency", "arrival_seed"}), std::vector<std::string>{"serving"});
        // Another model variant is other weights: no runtime class holds it, even with a
        // runtime axis beside it (a shape rule must not grade a quantised build at batch 8).
        QCOMPARE(classesOf({"model"}), std::vector<std::string>{});
        QCOMPARE(classesOf({"model", "batch_size"}), std::vector<std::string>{});
        QCOMPARE(classesOf({"env"}), std::vector<std::string>{"environment"});
        QCOMPARE(classesOf({"environment"}), std::vector<std::string>{"environment"});
        QCOMPARE(classesOf({}), std::vector<std::string>{});
    }

    // The fixture's configs: batch-8 flips the near-boundary items, bfloat16 moves every item,
    // threads-2 is bit-identical to the reference.
    void verdictFollowsTheRuns() {
        QTemporaryDir dir;
        const std::int64_t flips = expectedBatch8Flips(40);
        QVERIFY(flips > 0); // the fixture must plant flips for this test to mean anything
        const std::string led = ledgerWith(dir, json::parse(R"({"rules": [
            {"name": "shape", "configs": [{"class": "shape"}], "max_flips": 0},
            {"name": "shape-rate", "configs": ["batch-8"], "max_flip_rate": 0.9},
            {"name": "threads", "configs": [{"class": "threads"}], "bit_identical": true},
            {"name": "bf16", "configs": [{"class": "dtype"}], "max_dp_points": 0.001,
             "accuracy_margin_points": 50},
            {"name": "against", "configs": ["bfloat16"], "against": "threads-2",
             "min_agreement": 1}]})"));
        const policy::GateResult g = policy::gate(led);
        QVERIFY(g.tampered.empty());
        const auto* shape = find(g, "shape", Criterion::MaxFlips, "batch-8");
        QVERIFY(shape != nullptr);
        QCOMPARE(shape->outcome, policy::Outcome::Fail);
        QCOMPARE(*shape->measured, double(flips));
        QCOMPARE(std::int64_t(shape->flagged.size()), flips);
        QCOMPARE(shape->items, std::int64_t(40));
        // Only batch-8 differs in shape: the class selects nothing else.
        QCOMPARE(std::count_if(g.rows.begin(), g.rows.end(),
                               [](const auto& r) { return r.rule == "shape"; }),
                 std::ptrdiff_t(1));
        const auto* rate = find(g, "shape-rate", Criterion::MaxFlipRate, "batch-8");
        QCOMPARE(rate->outcome, policy::Outcome::Pass);
        QCOMPARE(rate->interval->high, analysis::wilson(flips, 40).high);
        QCOMPARE(find(g, "threads", Criterion::BitIdentical, "threads-2")->outcome,
                 policy::Outcome::Pass);
        const auto* dp = find(g, "bf16", Criterion::MaxDpPoints, "bfloat16");
        QCOMPARE(dp->outcome, policy::Outcome::Fail);
        QVERIFY(*dp->measured > 0.001);
        QCOMPARE(find(g, "bf16", Criterion::AccuracyMarginPoints, "bfloat16")->outcome,
                 policy::Outcome::Pass);
        const auto* against = find(g, "against", Criterion::MinAgreement, "bfloat16");
        QCOMPARE(against->against, std::string("threads-2"));
        QCOMPARE(against->outcome, policy::Outcome::Pass); // a 1e-3 shift flips no decision
        QCOMPARE(g.failed, 2);
        QCOMPARE(g.unknown, 0);
        QCOMPARE(g.exitCode(), protocol::kExitRuleFailed);
        QCOMPARE(g.registration, std::string("registered before every run judged"));
        QVERIFY(g.late_runs.empty());
    }

    void exitCodesTellFailedFromUnknown_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("exit");
        QTest::newRow("all pass") << R"({"rules": [{"name": "t", "configs": ["threads-2"],
            "bit_identical": true}]})"
                                  << protocol::kExitOk;
        QTest::newRow("selects nothing") << R"({"rules": [{"name": "s",
            "configs": [{"class": "serving"}], "max_flips": 0}]})"
                                         << protocol::kExitRuleUnknown;
        QTest::newRow("no labels needed, fails") << R"({"rules": [{"name": "t",
            "configs": ["batch-8"], "bit_identical": true}]})"
                                                 << protocol::kExitRuleFailed;
        QTest::newRow("fail beats unknown") << R"({"rules": [{"name": "s",
            "configs": [{"class": "serving"}], "max_flips": 0}, {"name": "t",
            "configs": ["batch-8"], "max_flips": 0}]})"
                                            << protocol::kExitRuleFailed;
    }
    void exitCodesTellFailedFromUnknown() {
        QFETCH(QString, policy);
        QFETCH(int, exit);
        QTemporaryDir dir;
        const policy::GateResult g =
            policy::gate(ledgerWith(dir, json::parse(policy.toStdString())));
        QCOMPARE(g.exitCode(), exit);
    }

    // A rule whose checks apply to no head of the ledger's study (a generation criterion given
    // with --study to a decision-only ledger) is judged nowhere: unknown, never a silent pass.
    void ruleJudgedNowhereIsUnknown() {
        QTemporaryDir dir;
        const std::string led = ledgerWith(
            dir, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        std::vector<std::string> errors;
        const Policy elsewhere = Policy::fromJson(
            json::parse(R"({"rules": [{"name": "g", "configs": "all", "min_jaccard": 0.9}]})"),
            "$.policy", errors);
        QVERIFY(errors.empty());
        const policy::GateResult g = policy::gate(led, elsewhere);
        QCOMPARE(g.rows.size(), std::size_t(1));
        QCOMPARE(g.rows.front().outcome, policy::Outcome::Unknown);
        QVERIFY(g.rows.front().detail.find("no head") != std::string::npos);
        QCOMPARE(g.exitCode(), protocol::kExitRuleUnknown);
    }

    // A rule over a config that has no finished run cannot pass.
    void missingRunIsUnknown() {
        QTemporaryDir dir;
        const std::string path = ledgerWith(
            dir,
            json::parse(
                R"({"rules": [{"name": "t", "configs": ["threads-2"], "bit_identical": true}]})"));
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            json study = led.study();
            study["configs"]["later"] = {{"batch_size", 2}};
            study["policy"]["rules"][0]["configs"] = {"later"};
            ledger::registerPolicy(led, led.study(), study);
            led.updateStudy(study);
        }
        const policy::GateResult g = policy::gate(path);
        QCOMPARE(g.exitCode(), protocol::kExitRuleUnknown);
        QVERIFY(g.rows.front().detail.find("\"later\" has no finished run") != std::string::npos);
    }

    // A policy changed after the runs were recorded: every verdict says so.
    void policyWrittenAfterTheRunsIsReported() {
        QTemporaryDir dir;
        const std::string path = ledgerWith(
            dir, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            json study = led.study();
            study["policy"]["rules"][0]["max_flips"] = 100;
            ledger::registerPolicy(led, led.study(), study);
            led.updateStudy(study);
        }
        const policy::GateResult g = policy::gate(path);
        QCOMPARE(g.registration, std::string("registered after runs 1\u20134"));
        QCOMPARE(g.late_runs, (std::vector<std::int64_t>{1, 2, 3, 4}));
        QVERIFY(std::all_of(g.rows.begin(), g.rows.end(), [](const auto& r) { return r.late; }));
        QVERIFY(policy::cardMarkdown(policy::cardData(path))
                    .find("policy registered after runs 1\u20134") != std::string::npos);
        QVERIFY(policy::junitXml(g).find("registered after runs 1\u20134") != std::string::npos);
        // A policy from a study file that the ledger never registered is after every run.
        std::vector<std::string> errors;
        const Policy other = Policy::fromJson(
            json::parse(R"({"rules": [{"name": "x", "configs": "all", "max_flips": 3}]})"),
            "$.policy", errors);
        const policy::GateResult o = policy::gate(path, other);
        QVERIFY(!o.from_ledger);
        QCOMPARE(o.late_runs, (std::vector<std::int64_t>{1, 2, 3, 4}));
    }

    // A ledger edited after it was sealed (here: the policy's registration) is judged by nothing.
    void changedLedgerIsNotJudged() {
        QTemporaryDir dir;
        const std::string path = ledgerWith(
            dir, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        QCOMPARE(policy::gate(path).exitCode(), protocol::kExitRuleFailed);
        sql(path, "UPDATE meta SET value = replace(value, '\"after_runs\":[]', "
                  "'\"after_runs\":[9]') WHERE key = 'policy_registration'");
        const policy::GateResult g = policy::gate(path);
        QVERIFY(!g.tampered.empty());
        QVERIFY(g.rows.empty());
        QCOMPARE(g.exitCode(), protocol::kExitTampered);
        // The policy itself, edited in place (a limit loosened): also found.
        QTemporaryDir other;
        const std::string edited = ledgerWith(
            other, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        sql(edited, "UPDATE study SET json = replace(json, '\"max_flips\":0', "
                    "'\"max_flips\":99')");
        QCOMPARE(policy::gate(edited).exitCode(), protocol::kExitTampered);
    }

    void junitValidatesAgainstTheXsd() {
        QTemporaryDir dir;
        testing::Fixture f = testing::defaultFixture();
        f.configs.push_back({"odd <&> \"name\"\x01", {{"threads", 4}}, nullptr, 1});
        f.policy = json::parse(R"({"rules": [
            {"name": "shape <&>", "configs": [{"class": "shape"}], "max_flips": 0},
            {"name": "serving", "configs": [{"class": "serving"}], "max_flips": 0},
            {"name": "threads", "configs": [{"class": "threads"}], "bit_identical": true}]})");
        const std::string path = dir.filePath(QStringLiteral("l.db")).toStdString();
        testing::writeFixtureLedger(path, f);
        const policy::GateResult g = policy::gate(path);
        QCOMPARE(g.failed, 1);
        QCOMPARE(g.unknown, 1);
        QCOMPARE(g.passed, 2);
        const QString xml = dir.filePath(QStringLiteral("gate.xml"));
        QFile out(xml);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(policy::junitXml(g)));
        out.close();
        QProcess lint;
        lint.start(QStringLiteral("xmllint"),
                   {QStringLiteral("--noout"), QStringLiteral("--schema"),
                    QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/junit/junit-10.xsd"),
                    xml});
        QVERIFY2(lint.waitForFinished(30000), "xmllint did not finish");
        QVERIFY2(lint.exitCode() == 0, lint.readAllStandardError().constData());
        const std::string text = policy::junitXml(g);
        QVERIFY(text.find("<failure type=\"policy\" message=\"measured ") != std::string::npos);
        QVERIFY(text.find("<error type=\"cannot be evaluated\"") != std::string::npos);
        QVERIFY(text.find('\x01') == std::string::npos);
        // The negative: the schema does reject what it must (a testsuite without its counts).
        QFile bad(dir.filePath(QStringLiteral("bad.xml")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("<testsuites><testsuite name=\"x\"><testcase name=\"y\"/></testsuite>"
                  "</testsuites>\n");
        bad.close();
        lint.start(QStringLiteral("xmllint"),
                   {QStringLiteral("--noout"), QStringLiteral("--schema"),
                    QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/junit/junit-10.xsd"),
                    bad.fileName()});
        QVERIFY(lint.waitForFinished(30000));
        QVERIFY(lint.exitCode() != 0);
    }

    // A reproduction's classes, planted: ref rerun with the same bits and environment (exact),
    // b8 with other bits from the same environment (drift), bf with other bits from another
    // environment (cross-numerics; within the policy once a rule allows its difference).
    void reproductionClassifiesEveryRun() {
        for (const bool policy : {false, true}) {
            QTemporaryDir dir;
            const std::string path = dir.filePath(QStringLiteral("r.db")).toStdString();
            testing::Fixture f;
            {
                ledger::Ledger led(path, ledger::Ledger::Mode::Write);
                json study{{"name", "r"},
                           {"reference", "ref"},
                           {"configs",
                            {{"ref", {{"batch_size", 1}}},
                             {"b8", {{"batch_size", 8}}},
                             {"bf", {{"batch_size", 1}, {"dtype", "bfloat16"}}}}},
                           {"model", {{"path", "/nonexistent"}}},
                           {"dataset", {{"labels", {"negative", "positive"}}}}};
                if (policy) {
                    study["policy"] = json::parse(
                        R"({"rules": [{"name": "bf", "configs": [{"class": "dtype"}],
                            "max_dp_points": 50}]})");
                }
                led.initStudy(study, "d", testing::someItems(int(f.items)));
                const std::string envA = led.putEnvironment({{"cpu", "A"}});
                const std::string envB = led.putEnvironment({{"cpu", "B"}});
                const json head{{"kind", "adapter"}, {"labels", {"negative", "positive"}}};
                const auto record = [&](const std::string& config, const std::string& env,
                                        double delta, bool imported) {
                    led.putConfig("h-" + config, config, study["configs"][config]);
                    const auto run = led.beginRun(
                        "h", head, config, "h-" + config, env, "hashes", f.items, RunKind::Study,
                        imported ? std::string(ledger::kImportedFrom) + "b.zip" : std::string());
                    std::vector<ledger::Record> batch;
                    for (std::int64_t i = 0; i < f.items; ++i) {
                        batch.push_back(testing::fixtureRecord(f, i, delta, 1, 7));
                    }
                    led.appendBatch(run, batch);
                    led.finishRun(run);
                };
                record("ref", envA, 0, true);
                record("b8", envA, 0, true);
                record("bf", envA, 0, true);
                record("ref", envA, 0, false);
                record("b8", envA, 1e-4, false);
                record("bf", envB, 1e-3, false);
            }
            const policy::ReproductionResult r = policy::classifyReproduction(path);
            QCOMPARE(r.runs.size(), std::size_t(3));
            QCOMPARE(r.runs[0].kind, policy::Reproduction::Exact);
            QCOMPARE(r.runs[1].kind, policy::Reproduction::Drift);
            QCOMPARE(r.runs[2].kind, policy ? policy::Reproduction::WithinPolicy
                                            : policy::Reproduction::CrossNumerics);
            QVERIFY(!r.runs[2].env_differences.empty()); // cpu: A -> B, named
            QCOMPARE(r.exitCode(), protocol::kExitResultsDiffer);
            // The signed statement's assurance level says what happened, not "reproduced".
            QCOMPARE(r.assurance(), std::string("drift"));
            policy::ReproductionResult clean = r;
            clean.runs.erase(clean.runs.begin() + 1);
            QCOMPARE(clean.assurance(), std::string("reproduced"));
            clean.not_reproduced.push_back("h / c9");
            QCOMPARE(clean.assurance(), std::string("partially reproduced"));
            QCOMPARE(policy::ReproductionResult{}.assurance(), std::string("not reproduced"));
        }
    }

    // Generation heads: the records' Jaccard index, the answers' agreement, bit-identity; a
    // per-token KL without top-K log-probabilities cannot be evaluated. The fixture's c4 forks
    // on 4 of 12 items (pooled Jaccard 0.8, answers agree on 8 of 12).
    void generationChecks() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("g.db")).toStdString();
        testing::writeGenerationFixtureLedger(path, 12);
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            json study = led.study();
            study["policy"] = json::parse(R"({"rules": [
                {"name": "serving", "configs": ["c4"], "min_jaccard": 0.9,
                 "min_answer_agreement": 0.5, "max_kl": 1},
                {"name": "order", "configs": ["serial-reordered"], "bit_identical": true}]})");
            ledger::registerPolicy(led, led.study(), study);
            led.updateStudy(study);
        }
        const policy::GateResult g = policy::gate(path);
        const auto* jaccard = find(g, "serving", Criterion::MinJaccard, "c4");
        QVERIFY(jaccard != nullptr);
        QCOMPARE(jaccard->outcome, policy::Outcome::Fail);
        QCOMPARE(*jaccard->measured, 32.0 / 40.0);
        const auto* answers = find(g, "serving", Criterion::MinAnswerAgreement, "c4");
        QCOMPARE(answers->outcome, policy::Outcome::Pass);
        QCOMPARE(*answers->measured, 8.0 / 12.0);
        QCOMPARE(find(g, "serving", Criterion::MaxKl, "c4")->outcome, policy::Outcome::Unknown);
        QCOMPARE(find(g, "order", Criterion::BitIdentical, "serial-reordered")->outcome,
                 policy::Outcome::Pass);
        QCOMPARE(g.exitCode(), protocol::kExitRuleFailed);
    }

    // DSSE's pre-authentication encoding, as the DSSE specification's own example has it.
    void paeFollowsTheSpecification() {
        QCOMPARE(policy::dssePae("http://example.com/HelloWorld", "hello world"),
                 std::string("DSSEv1 29 http://example.com/HelloWorld 11 hello world"));
    }

    // A signed attestation verifies here and with securesystemslib / in-toto-attestation from
    // PyPI (tests/verify_attestation.py); a one-byte edit of the attestation, the ledger or the
    // policy, or another key, is found.
    void attestationVerifiesAndEditsAreFound() {
        QTemporaryDir dir;
        const std::string path = ledgerWith(
            dir, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        const ledger::KeyPair key = ledger::generateSigningKey();
        const ledger::KeyPair other = ledger::generateSigningKey();
        const policy::GateResult g = policy::gate(path);
        const std::string envelope =
            policy::signAttestation(policy::attestationStatement(g, path), key.private_pem, "k");
        auto check = policy::verifyAttestation(envelope, key.public_pem, "k.pub", path);
        QVERIFY2(check.ok(), check.problem.c_str());
        QCOMPARE(check.result, std::string("FAILED"));               // batch-8's planted flips
        QCOMPARE(check.statement["subject"].size(), std::size_t(3)); // ledger, head, dataset
        QCOMPARE(check.statement["predicate"]["failedTests"].size(), std::size_t(1));

        const QString file = dir.filePath(QStringLiteral("a.json"));
        const QString pub = dir.filePath(QStringLiteral("k.pub"));
        const auto write = [](const QString& name, const std::string& text) {
            QFile f(name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), qint64(text.size()));
        };
        const auto independent = [&](const std::string& text) {
            write(file, text);
            write(pub, key.public_pem);
            QProcess py;
            py.start(
                QStringLiteral(PROBAUDIT_SOURCE_DIR "/.venv/bin/python"),
                {QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/verify_attestation.py"), file, pub});
            return py.waitForFinished(60000) && py.exitStatus() == QProcess::NormalExit
                       ? py.exitCode()
                       : -1;
        };
        QCOMPARE(independent(envelope), 0);

        // One byte of the statement changed (the result), the envelope re-encoded.
        json env = json::parse(envelope);
        std::string payload = *base64Decode(env["payload"].get<std::string>());
        const auto at = payload.find("FAILED");
        QVERIFY(at != std::string::npos);
        payload[at] = 'P';
        env["payload"] = base64Encode(payload);
        check = policy::verifyAttestation(env.dump(), key.public_pem, "k.pub", std::nullopt);
        QVERIFY(!check.ok() && !check.malformed);
        QCOMPARE(independent(env.dump()), 1);
        // One byte of the signature.
        env = json::parse(envelope);
        std::string sig = *base64Decode(env["signatures"][0]["sig"].get<std::string>());
        sig[5] = char(sig[5] ^ 1);
        env["signatures"][0]["sig"] = base64Encode(sig);
        QVERIFY(!policy::verifyAttestation(env.dump(), key.public_pem, "k.pub", std::nullopt).ok());
        QCOMPARE(independent(env.dump()), 1);
        // Another key.
        QVERIFY(!policy::verifyAttestation(envelope, other.public_pem, "o.pub", std::nullopt).ok());
        // Not an envelope.
        QVERIFY(policy::verifyAttestation("{\"x\":1}", key.public_pem, "k.pub", std::nullopt)
                    .malformed);
        // The policy edited by one byte in the ledger (max_flips 0 -> 1, sealed as a study
        // update would be): the ledger is no longer the one attested, and gate says the policy
        // was registered after the runs.
        const std::string before = fileSha256(path);
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            json study = led.study();
            study["policy"]["rules"][0]["max_flips"] = 1;
            led.updateStudy(study);
        }
        QVERIFY(fileSha256(path) != before);
        check = policy::verifyAttestation(envelope, key.public_pem, "k.pub", path);
        QVERIFY(!check.ok());
        QVERIFY(check.problem.find("not the ledger attested") != std::string::npos);
        QVERIFY(!policy::gate(path).late_runs.empty());
        // And one more sealed fact of any kind.
        const std::string again = policy::signAttestation(
            policy::attestationStatement(policy::gate(path), path), key.private_pem, "k");
        QVERIFY(policy::verifyAttestation(again, key.public_pem, "k.pub", path).ok());
        {
            ledger::Ledger led(path, ledger::Ledger::Mode::Write);
            led.setMeta("note", "x");
        }
        check = policy::verifyAttestation(again, key.public_pem, "k.pub", path);
        QVERIFY(!check.ok());
        QVERIFY(check.problem.find("not the ledger attested") != std::string::npos);
    }

    // The card's numbers come from the runs as the fixture built them; its YAML block is YAML.
    void cardShowsEveryRuntime() {
        QTemporaryDir dir;
        const std::string path = ledgerWith(
            dir, json::parse(R"({"rules": [{"name": "t", "configs": "all", "max_flips": 0}]})"));
        const json card = policy::cardData(path);
        const std::string md = policy::cardMarkdown(card);
        const std::int64_t flips = expectedBatch8Flips(40);
        const std::string bound = "(rate ≤ ";
        QVERIFY2(md.find("| `batch-8` (batch_size) | ") != std::string::npos, md.c_str());
        QVERIFY(md.find(std::to_string(flips) + " of 40 " + bound) != std::string::npos);
        QVERIFY(md.find("| `threads-2` (threads) | 0 | 0 of 40") != std::string::npos);
        QVERIFY(md.find("| 100.0% | none |") != std::string::npos); // threads-2 bit-identical
        // threads-2 disagrees on nothing: its detectable difference is the floor for 40 items,
        // (norm.ppf(0.975) + norm.ppf(0.8)) * sqrt(wilson_high(0, 40) / 40) = 0.131 (scipy).
        QVERIFY(md.find("| none | ±13.1 points |") != std::string::npos);
        QVERIFY(md.find("**Policy verdict**: FAIL") != std::string::npos);
        QVERIFY(md.find("registered before every run judged") != std::string::npos);
        const auto head = ledger::Ledger(path, ledger::Ledger::Mode::Read).head();
        QVERIFY(md.find("--head " + head->text()) != std::string::npos);
        QCOMPARE(card["other_runtimes"].size(), std::size_t(3));

        QFile yaml(dir.filePath(QStringLiteral("card.yaml")));
        QVERIFY(yaml.open(QIODevice::WriteOnly));
        yaml.write(QByteArray::fromStdString(policy::cardModelIndexYaml(card)));
        yaml.close();
        QProcess py;
        py.start(QStringLiteral(PROBAUDIT_SOURCE_DIR "/.venv/bin/python"),
                 {QStringLiteral("-c"),
                  QStringLiteral("import sys, yaml; m = yaml.safe_load(open(sys.argv[1]))"
                                 "['model-index'][0]['results'][0]['metrics']; print(len(m))"),
                  yaml.fileName()});
        QVERIFY(py.waitForFinished(60000));
        QCOMPARE(py.readAllStandardOutput().trimmed(), QByteArray("6")); // 3 runtimes x 2

        // A changed ledger gets no card.
        sql(path, "UPDATE items SET text = 'x' WHERE idx = 0");
        QVERIFY_THROWS_EXCEPTION(Error, policy::cardData(path));
    }
};

QTEST_GUILESS_MAIN(TestPolicy)
#include "test_policy.moc"
