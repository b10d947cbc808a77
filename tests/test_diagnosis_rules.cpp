// `unit`: the diagnosis ladder's pure rules and its typed result (core/analysis/diagnosis.h)
// and the config axes table (core/common/axes.h), on synthetic records whose answers are known
// in advance: the JSON form round-trips, suspects follow the axes table, the forecast counts
// sign changes of the logit gap, and the noise floor scales flips to the A/B's item count.
#include "core/analysis/diagnosis.h"
#include "core/analysis/fingerprint.h"
#include "core/common/axes.h"
#include "core/common/error.h"
#include "core/common/run_config.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace probaudit;
using nlohmann::json;

namespace {

ledger::Record binary(float gap) {
    ledger::Record r;
    r.logits = {0, gap};
    r.margin = std::abs(gap);
    r.decision = gap >= 0 ? 1 : 0;
    return r;
}

ledger::Record threeClass(float margin) {
    ledger::Record r;
    r.logits = {0, 1, 2};
    r.margin = margin;
    return r;
}

analysis::Diagnosis sampleDiagnosis() {
    analysis::Diagnosis d;
    d.study = "s";
    d.head = "h";
    d.reference = "ref";
    d.sample = 16;
    d.batch = 8;
    d.seed = 3;
    d.ladder = {{"loader and repeatability", "f1", "v1", analysis::StepStatus::Clean},
                {"shape", "f2", "v2", analysis::StepStatus::Explains}};
    d.table = {{"shape", "batch size 1 -> 8", 3, 4, 16, 1.5, "layer 1", 2, 0.25}};
    analysis::ConfigExplanation run{"b8", {"batch_size"}, {"shape"}, std::nullopt, {}};
    run.result = analysis::ConfigResult{7, 1, 0.5, 0.75, "layer 2", 0.9, std::nullopt};
    d.configs = {run, {"bf16", {"dtype"}, {"kernels"}, std::nullopt, {}}};
    d.forecast = {{"b8", 1.25, 16, 1}, {"bf16", 0.0, 16, std::nullopt}};
    d.reference_run = 1;
    return d;
}

} // namespace

class TestDiagnosisRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jsonRoundTrips() {
        const analysis::Diagnosis d = sampleDiagnosis();
        const json j = d.toJson();
        QVERIFY(analysis::Diagnosis::fromJson(j).toJson() == j);
        QVERIFY(j["ladder"][1]["status"] == "explains");
        QVERIFY(j["stopped_at"].is_null());
        QVERIFY(j["configs"][0]["accuracy"].is_null()); // known absent: null, not missing
        QVERIFY(!j["configs"][1].contains("run"));      // not run yet: no result keys
        QVERIFY(!j["forecast"][1].contains("observed_flips"));
        QCOMPARE(d.forecastOf("b8")->predicted_flips, 1.25);
        QVERIFY(d.forecastOf("nope") == nullptr);
        QVERIFY(!j.contains("recorded_only")); // the engine's ladder: its JSON as it was
    }

    // An endpoint study's ladder: read from recorded runs, with steps nothing answered yet.
    void recordedOnlyLaddersRoundTrip() {
        analysis::Diagnosis d = sampleDiagnosis();
        d.recorded_only = true;
        d.ladder.push_back({"runtime", "f3", "v3", analysis::StepStatus::Untested});
        const json j = d.toJson();
        QCOMPARE(j["recorded_only"].get<bool>(), true);
        QVERIFY(j["ladder"][2]["status"] == "untested");
        const auto back = analysis::Diagnosis::fromJson(j);
        QVERIFY(back.recorded_only);
        QCOMPARE(back.ladder[2].status, analysis::StepStatus::Untested);
        QVERIFY(back.toJson() == j);
    }

    void olderDiagnosesReadWithDefaults() {
        const auto d = analysis::Diagnosis::fromJson(
            json{{"reference", "r"}, {"ladder", json::array({{{"step", "shape"}}})}});
        QCOMPARE(d.reference, std::string("r"));
        QCOMPARE(d.ladder.size(), std::size_t(1));
        QCOMPARE(d.ladder[0].status, analysis::StepStatus::Clean);
        QVERIFY(!d.reference_run);
    }

    void malformedDiagnosesAreRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("not an object") << "[1, 2]";
        QTest::newRow("ladder not an array") << R"({"ladder": {"step": "shape"}})";
        QTest::newRow("sample a string") << R"({"sample": "sixteen"})";
        QTest::newRow("flips a string") << R"({"table": [{"flips": "2"}]})";
        QTest::newRow("a cause not an object") << R"({"causes": [1]})";
        QTest::newRow("a cause's localisation not an object")
            << R"({"causes": [{"config": "b8", "localization": 3}]})";
    }
    void malformedDiagnosesAreRefused() {
        QFETCH(QString, text);
        QVERIFY_THROWS_EXCEPTION(Error,
                                 analysis::Diagnosis::fromJson(json::parse(text.toStdString())));
    }

    void pointsAndEvidence() {
        QCOMPARE(analysis::formatPoints(0), std::string("0"));
        QCOMPARE(analysis::formatPoints(3.917), std::string("3.92"));
        QCOMPARE(analysis::formatPoints(4.1e-5), std::string("4.1e-05"));
        analysis::Comparison c;
        c.items = 4;
        QCOMPARE(analysis::evidence(c), std::string("bit-identical"));
        c.bit_identical_share = 0.75;
        c.max_dp = 2.5;
        c.flips = 1;
        c.first_divergent = {0, 3};
        QCOMPARE(analysis::bitIdenticalItems(c), std::int64_t(3));
        QVERIFY(analysis::evidence(c).rfind("2.50 points, from ", 0) == 0);
        QVERIFY(analysis::evidence(c).find(", 1 flipped") != std::string::npos);
    }

    void suspectsFollowTheAxesTable() {
        QCOMPARE(analysis::suspectsOf({"batch_size", "padding_side"}),
                 std::vector<std::string>{"shape"});
        QCOMPARE(analysis::suspectsOf({"dtype", "pad_to", "threads"}),
                 (std::vector<std::string>{"kernels", "shape"}));
        QCOMPARE(suspectOf("no_such_axis"), std::string("kernels"));
        QCOMPARE(axisValues(*findAxis("tf32")), (std::vector<std::string>{"false", "true"}));
        QCOMPARE(axisValues(*findAxis("kernels")),
                 (std::vector<std::string>{"default", "batch_invariant"}));
        QVERIFY(axisValues(*findAxis("batch_size")).empty());
        // Every axis RunConfig has is in the table, and nothing else.
        const json all = RunConfig().allAxesJson();
        QCOMPARE(configAxes().size(), all.size());
        for (const auto& [name, value] : all.items()) {
            QVERIFY2(findAxis(name) != nullptr, name.c_str());
        }
    }

    void configValuesAreCheckedAgainstTheTable() {
        for (const Axis& axis : configAxes()) {
            for (std::string_view v : axis.values) {
                if (axis.kind != AxisKind::Choice) {
                    continue;
                }
                std::vector<std::string> errors; // pad_to multiple/fixed also need pad_to_n
                RunConfig::fromJson(json{{std::string(axis.name), std::string(v)}, {"pad_to_n", 8}},
                                    "$", errors);
                QVERIFY2(errors.empty(), std::string(axis.name).c_str());
            }
        }
        std::vector<std::string> errors;
        RunConfig::fromJson(json{{"dtype", "float8"}, {"batch_size", 0}, {"tf32", 1}}, "$", errors);
        QCOMPARE(errors.size(), std::size_t(3));
        QCOMPARE(errors[0], std::string("$.batch_size: must be an integer from 1 to 65536"));
        QCOMPARE(errors[1], std::string("$.dtype: unknown value \"float8\" (one of: bfloat16, "
                                        "float16, float32, float64)"));
        QCOMPARE(errors[2], std::string("$.tf32: must be true or false"));
        // float64, the exact reference, only where it is float64 throughout: the CPU's default
        // kernels with ATen's GEMM.
        const std::string refused = "$.dtype: float64 (the exact reference) runs on the CPU with "
                                    "the default kernels (device cpu, kernels default, attention "
                                    "math or sdpa, gemm aten)";
        for (const json& c : {json{{"device", "cuda:0"}}, json{{"kernels", "batch_invariant"}},
                              json{{"attention", "batch_invariant"}}, json{{"gemm", "onednn"}}}) {
            json config = c;
            config["dtype"] = "float64";
            std::vector<std::string> why;
            RunConfig::fromJson(config, "$", why);
            QVERIFY2(std::find(why.begin(), why.end(), refused) != why.end(),
                     config.dump().c_str());
        }
        for (const char* attention : {"math", "sdpa"}) {
            std::vector<std::string> none;
            RunConfig::fromJson(json{{"dtype", "float64"}, {"attention", attention}}, "$", none);
            QVERIFY2(none.empty(), attention);
        }
    }

    void perturbationAndForecast() {
        // Binary heads: the change of the signed gap; a shift flips the items it carries across 0.
        const std::vector<ledger::Record> ref{binary(1.0f), binary(-0.5f)};
        const std::vector<ledger::Record> cfg{binary(0.5f), binary(-0.25f)};
        const auto delta = analysis::logitPerturbation(ref, cfg);
        QCOMPARE(delta, (std::vector<double>{-0.5, 0.25}));
        // Gaps 0.25 (flips under -0.5), -0.1 (flips under +0.25), 3 (never): 1/2 + 1/2 + 0.
        const std::vector<ledger::Record> all{binary(0.25f), binary(-0.1f), binary(3.0f)};
        QCOMPARE(analysis::predictedFlips(all, delta), 1.0);
        QCOMPARE(analysis::predictedFlips(all, {}), 0.0);
        // More classes: a shift beyond the margin counts as half a flip.
        const std::vector<ledger::Record> three{threeClass(0.1f), threeClass(5.0f)};
        QCOMPARE(analysis::predictedFlips(three, {0.2}), 0.5);
    }

    void noiseFloorScalesToTheAbItems() {
        analysis::Comparison ab;
        ab.items = 100;
        ab.flips = 3;
        ab.max_dp = 2;
        QVERIFY(!analysis::noiseFloor(ab, {}));
        analysis::Comparison probe; // a probe on a 20-item sample
        probe.items = 20;
        probe.flips = 1;
        probe.max_dp = 1;
        probe.run_b = 9;
        const auto floor = analysis::noiseFloor(ab, {probe});
        QVERIFY(floor);
        QCOMPARE(floor->flips, std::int64_t(5)); // 1 of 20 -> 5 of 100
        QCOMPARE(floor->runs, std::vector<std::int64_t>{9});
        QVERIFY(!floor->exceeded); // 3 flips are below the floor's 5
        ab.flips = 6;
        QVERIFY(analysis::noiseFloor(ab, {probe})->exceeded);
    }

    // The rung's phrase per config: items explained of those that differ, the classes by the
    // items they explain (most first), the set last; an unexplained item counts nowhere. The
    // table puts each item in the row of the state its difference is complete by.
    void causeSummaryCountsTheCauses() {
        analysis::Localization l;
        l.layers = 4;
        const auto item = [&](analysis::CauseStatus st, int by, std::optional<OpClass> cls,
                              bool explains, bool set) {
            analysis::ItemCause c;
            c.status = st;
            c.complete_by = by;
            c.cause_class = cls;
            c.cause_explains = explains;
            c.set_explains = set;
            l.items.push_back(c);
        };
        item(analysis::CauseStatus::Localised, 1, OpClass::Mlp, true, false);
        item(analysis::CauseStatus::Localised, 1, OpClass::Attention, true, false);
        item(analysis::CauseStatus::Localised, 2, OpClass::Mlp, true, false);
        item(analysis::CauseStatus::InTheHead, -1, OpClass::Head, false, true);
        item(analysis::CauseStatus::Localised, 3, OpClass::Norms, false, false);
        item(analysis::CauseStatus::NoDifference, -1, std::nullopt, false, false);
        QCOMPARE(analysis::causeSummary(l),
                 std::string("4 of 5 items that differ explained: the MLP 2, the attention "
                             "scores and softmax 1, a set of classes 1"));
        const auto rows = analysis::causeTable(l);
        QCOMPARE(rows.size(), std::size_t(5)); // layers 1, 2, 3, the head, no difference
        QCOMPARE(rows[0].where, std::string("layer 1"));
        QCOMPARE(rows[0].items, std::int64_t(2));
        QCOMPARE(rows[0].class_items[std::size_t(OpClass::Mlp)], std::int64_t(1));
        QCOMPARE(rows[3].where, std::string("the head"));
        QCOMPARE(rows[3].set_items, std::int64_t(1));
        QCOMPARE(rows[4].index, -1);
    }

    // A diagnosis made on another host, its runs imported here under other ids: every id it
    // names, in its fields and its text, becomes the id here, each once (3 -> 12 is not then
    // taken on to 40); ids it has no new id for, and words that only end in "run", stay.
    void renumberedRunsAreTheRunsHere() {
        analysis::Diagnosis d;
        d.ladder.push_back({"loader and repeatability", "recorded run 12 vs fresh; run 3 again",
                            "rerun 12, run 7", analysis::StepStatus::Clean});
        d.table.push_back({"shape", "against run 3", 12, 3, 16, 0, "none", 0, 1});
        analysis::ConfigResult b8;
        b8.run = 3;
        d.configs.push_back({"b8", {"batch_size"}, {"shape"}, b8, {}});
        d.configs.push_back({"b4", {"batch_size"}, {"shape"}, std::nullopt, {}});
        d.reference_run = 12;
        analysis::Localization l;
        l.config_a = "ref";
        l.config_b = "b8";
        l.probe_a = 3;
        l.probe_b = 5;
        l.probes = {3, 5, 12};
        d.causes.push_back({"b8", "", l});
        d.causes.push_back({"srv", "a server", std::nullopt});
        // The rung's localisations travel in the diagnosis's JSON.
        d = analysis::Diagnosis::fromJson(d.toJson());
        QCOMPARE(d.causes.size(), std::size_t(2));
        QCOMPARE(d.causeOf("srv")->not_localised, std::string("a server"));
        QVERIFY(!d.causeOf("srv")->localization);
        analysis::renumberRuns(d, {{12, 40}, {3, 12}});
        // Its probe runs are named by their new ids, too.
        QCOMPARE(d.causes[0].localization->probe_a, std::int64_t(12));
        QCOMPARE(d.causes[0].localization->probe_b, std::int64_t(5));
        QCOMPARE(d.causes[0].localization->probes, (std::vector<std::int64_t>{12, 5, 40}));
        QCOMPARE(d.ladder[0].finding, std::string("recorded run 40 vs fresh; run 12 again"));
        QCOMPARE(d.ladder[0].verdict, std::string("rerun 12, run 7"));
        QCOMPARE(d.table[0].what, std::string("against run 12"));
        QCOMPARE(d.table[0].run_a, std::int64_t(40));
        QCOMPARE(d.table[0].run_b, std::int64_t(12));
        QCOMPARE(d.configs[0].result->run, std::int64_t(12));
        QVERIFY(!d.configs[1].result);
        QCOMPARE(*d.reference_run, std::int64_t(40));
    }

    // Two transformers-runner environments (docs/runner-protocol.md, "env"): what differs that
    // can move numbers is said in one sentence each, kernel libraries first; what only names
    // the environment (its name, interpreter, package digest) and thread counts are left out;
    // a diagnosis keeps the sentences through JSON.
    void environmentDifferencesAreSentences() {
        const json a{{"kind", "transformers"},
                     {"environment", "cu130"},
                     {"executable", "/opt/a/bin/python"},
                     {"torch", "2.11.0+cu130"},
                     {"kernel_libraries", {{"flash-linear-attention", "0.5.2"}, {"xformers", ""}}},
                     {"packages", {{"flash-linear-attention", "0.5.2"}, {"numpy", "2.1.0"}}},
                     {"packages_sha256", "aa"},
                     {"threads", {{"intra_op", 2}}}};
        json b = a;
        b["environment"] = "cu128";
        b["executable"] = "/opt/b/bin/python";
        b["torch"] = "2.11.0+cu128";
        b["kernel_libraries"]["flash-linear-attention"] = "";
        b["packages"].erase("flash-linear-attention");
        b["packages"]["numpy"] = "2.2.0";
        b["packages_sha256"] = "bb";
        b["threads"]["intra_op"] = 4;
        const auto lines = analysis::environmentSentences(a, b);
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0], std::string("flash-linear-attention 0.5.2 present in A, absent in B (a "
                                       "kernel library that can change which kernels run)"));
        QCOMPARE(lines[1], std::string("numpy 2.1.0 in A, 2.2.0 in B"));
        QVERIFY2(lines[2].rfind("torch: 2.11.0+cu130 in A, 2.11.0+cu128 in B (", 0) == 0,
                 lines[2].c_str());
        QVERIFY(analysis::environmentSentences(a, a).empty());
        QCOMPARE(analysis::environmentSentences(a, b, 2).back(),
                 std::string("and 2 more differences"));
        // The "environment" suspect and its sentences survive the diagnosis's JSON.
        analysis::Diagnosis d;
        d.configs.push_back({"cu128", {"env"}, {"environment"}, std::nullopt, lines});
        const auto back = analysis::Diagnosis::fromJson(d.toJson());
        QCOMPARE(back.configs.at(0).environment, lines);
        QCOMPARE(suspectOf("env"), std::string("environment"));
        QCOMPARE(suspectOf("runner"), std::string("environment"));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosisRules)
#include "test_diagnosis_rules.moc"
