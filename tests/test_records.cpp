// Records, Jaccard and answer reductions (core/analysis/records.h) against an independent
// Python computation (tests/golden/make_records_golden.py): every record list, every per-item
// Jaccard, the pooled Jaccard and the answer agreement must be equal.
#include "core/analysis/generation_compare.h"
#include "core/analysis/records.h"
#include "core/common/error.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace probaudit;
using nlohmann::json;

class TestRecords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void agreesWithPython() {
        QFile f(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/records.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json golden = json::parse(f.readAll().toStdString());
        QCOMPARE(golden.size(), std::size_t(5));
        for (const auto& g : golden) {
            const auto spec = analysis::RecordSpec::fromJson(g.at("spec"));
            std::size_t inter = 0, uni = 0, agree = 0;
            for (const auto& item : g.at("items")) {
                const auto ra = analysis::parseRecords(item.at("a").get<std::string>(), spec);
                const auto rb = analysis::parseRecords(item.at("b").get<std::string>(), spec);
                const std::string where = g.at("spec").dump() + " on " + json(item.at("a")).dump();
                QVERIFY2(ra == item.at("records_a").get<std::vector<std::string>>(), where.c_str());
                QVERIFY2(rb == item.at("records_b").get<std::vector<std::string>>(), where.c_str());
                QCOMPARE(analysis::jaccard(ra, rb), item.at("jaccard").get<double>());
                const auto c = analysis::setCounts(ra, rb);
                inter += c.intersection;
                uni += c.union_size;
                const std::string aa = analysis::reduceAnswer(ra, spec.reduction);
                QCOMPARE(aa, item.at("answer_a").get<std::string>());
                QCOMPARE(analysis::reduceAnswer(rb, spec.reduction),
                         item.at("answer_b").get<std::string>());
                agree += aa == item.at("answer_b").get<std::string>() ? 1 : 0;
            }
            QCOMPARE(uni == 0 ? 1.0 : double(inter) / double(uni),
                     g.at("pooled_jaccard").get<double>());
            QCOMPARE(double(agree) / double(g.at("items").size()),
                     g.at("answer_agreement").get<double>());
        }
    }

    // Two generation runs compared: the pooled Jaccard and the answer agreement are the
    // Python computation's (the golden pairs as two runs of eight prompts).
    void generationComparisonAgreesWithPython() {
        QFile f(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/records.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json golden = json::parse(f.readAll().toStdString());
        QVERIFY(golden.size() >= 3);
        for (const auto& g : golden) {
            std::vector<analysis::GenerationOutput> a, b;
            for (const auto& item : g.at("items")) {
                const std::string id = std::to_string(a.size());
                a.push_back({id, {1, 2}, {0.5f, 0.5f}, item.at("a").get<std::string>()});
                b.push_back({id, {1, 2}, {0.5f, 0.5f}, item.at("b").get<std::string>()});
            }
            std::reverse(b.begin(), b.end()); // matched by id, not by position
            const auto c =
                analysis::compareGenerations(a, b, analysis::RecordSpec::fromJson(g.at("spec")));
            QCOMPARE(c.pooled_jaccard, g.at("pooled_jaccard").get<double>());
            QCOMPARE(c.has_answers, !g.at("spec").value("reduction", std::string()).empty());
            if (c.has_answers) {
                QCOMPARE(c.answerAgreement(), g.at("answer_agreement").get<double>());
            }
            QCOMPARE(c.items.size(), g.at("items").size());
            for (std::size_t i = 0; i < c.items.size(); ++i) {
                QCOMPARE(c.items[i].jaccard, g.at("items")[i].at("jaccard").get<double>());
            }
        }
    }

    // A server that returns no log-probabilities gives text without tokens or gaps: outputs are
    // identical only when their text is, and an unknown gap is in no bin (not a tie at 0).
    void textOnlyOutputsCompareByText() {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const std::vector<analysis::GenerationOutput> a{
            {"u", {}, {}, "good\nfast"}, {"v", {}, {}, "slow"}, {"w", {3, 4}, {nan, nan}, "ok"}};
        const std::vector<analysis::GenerationOutput> b{
            {"u", {}, {}, "good\nquick"}, {"v", {}, {}, "slow"}, {"w", {3, 5}, {nan, nan}, "on"}};
        const auto c = analysis::compareGenerations(a, b, {});
        QCOMPARE(c.identical, std::size_t(1));
        QVERIFY(!c.items[0].identical);
        QVERIFY(std::isnan(c.items[0].gap_at_divergence));
        QCOMPARE(c.items[2].first_divergence, std::int64_t(1));
        QVERIFY(std::isnan(c.items[2].gap_at_divergence));
        for (int bin = 0; bin < analysis::GapHistogram::kBins; ++bin) {
            QCOMPARE(c.gaps.at_divergence[bin], std::int64_t(0));
            QCOMPARE(c.gaps.all_steps[bin], std::int64_t(0));
        }
    }

    // Token-level view: byte-identical share, first divergent step, the reference's gap there,
    // and the gap histogram (divergences against every step).
    void generationDivergence() {
        const std::vector<analysis::GenerationOutput> a{
            {"x", {5, 6, 7}, {2.0f, 0.00005f, 3.0f}, "same"},
            {"y", {5, 6}, {0.5f, 0.02f}, "a\nb"},
            {"z", {1, 2, 3}, {1.0f, 1.0f, 0.004f}, "p\nq"}};
        const std::vector<analysis::GenerationOutput> b{
            {"x", {5, 9, 7}, {2.0f, 0.00004f, 3.0f}, "same"},
            {"y", {5, 6}, {0.5f, 0.02f}, "a\nb"},
            {"z", {1, 2}, {1.0f, 1.0f}, "p"}};
        analysis::RecordSpec spec;
        spec.reduction = "count";
        const auto c = analysis::compareGenerations(a, b, spec);
        QCOMPARE(c.identical, std::size_t(1));
        QCOMPARE(c.items[0].first_divergence, std::int64_t(1));
        QCOMPARE(c.items[0].gap_at_divergence, 0.00005f);
        QCOMPARE(c.items[1].first_divergence, std::int64_t(-1));
        QCOMPARE(c.items[2].first_divergence, std::int64_t(2)); // b stopped where a went on
        QCOMPARE(c.items[2].gap_at_divergence, 0.004f);
        QCOMPARE(c.gaps.at_divergence[0], std::int64_t(1)); // [0, 1e-4)
        QCOMPARE(c.gaps.at_divergence[2], std::int64_t(1)); // [1e-3, 1e-2)
        std::int64_t steps = 0;
        for (const auto n : c.gaps.all_steps) {
            steps += n;
        }
        QCOMPARE(steps, std::int64_t(8)); // every step of the reference
        QCOMPARE(c.gaps.all_steps[analysis::GapHistogram::bin(1.0)],
                 std::int64_t(4)); // 2, 3, 1, 1
        QCOMPARE(analysis::GapHistogram::bin(0.0), 0);
        QCOMPARE(analysis::GapHistogram::bin(1e-4), 1);
        QCOMPARE(analysis::GapHistogram::bin(50.0), analysis::GapHistogram::kBins - 1);
        QCOMPARE(c.records_a, std::size_t(5));
        QCOMPARE(c.records_b, std::size_t(4));
        QCOMPARE(c.pooled.intersection, std::size_t(4));
        QCOMPARE(c.pooled.union_size, std::size_t(5));
        QCOMPARE(c.answers_agree, std::size_t(2)); // z: 2 records vs 1
        QVERIFY_THROWS_EXCEPTION(Error, analysis::compareGenerations(a, {b[0], b[1]}, spec));
    }

    // Record churn that an answer reduction hides (the second field report in miniature).
    void answerHidesRecordChurn() {
        analysis::RecordSpec spec;
        spec.reduction = "most_frequent";
        const auto a = analysis::parseRecords("Alice\nAlice\nBob\nCarol", spec);
        const auto b = analysis::parseRecords("Alice\nAlice\nDave", spec);
        QCOMPARE(analysis::reduceAnswer(a, spec.reduction),
                 analysis::reduceAnswer(b, spec.reduction));
        QCOMPARE(analysis::jaccard(a, b), 0.25);
    }

    // A model's output is anything: JSON nested past the bound is not a record (dumping it as
    // one would recurse once per level and overflow the stack).
    void deeplyNestedOutputIsNoRecord() {
        analysis::RecordSpec spec;
        spec.mode = "json";
        std::string deep;
        for (int k = 0; k < 100000; ++k) {
            deep += "{\"a\":";
        }
        deep += "1" + std::string(100000, '}');
        const auto out = analysis::parseRecords("{\"ok\":1}\n" + deep + "\n", spec);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0], std::string("{\"ok\":1}"));
    }

    // A pattern that backtracks past PCRE2's match limit on an output is an error, not the
    // end of the records (which would drop every record after it, silently).
    void matchLimitIsAnError() {
        const auto spec =
            analysis::RecordSpec::fromJson(json{{"mode", "regex"}, {"pattern", "(?<x>b|(a|a)+$)"}});
        QCOMPARE(analysis::parseRecords("b b", spec).size(), std::size_t(2));
        try {
            analysis::parseRecords("b " + std::string(40, 'a') + "! b", spec);
            QFAIL("a failed match was taken for the end of the records");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("match limit exceeded") != std::string::npos,
                     e.what());
        }
    }

    void badSpecsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(Error, analysis::RecordSpec::fromJson(json{{"mode", "xml"}}));
        QVERIFY_THROWS_EXCEPTION(Error, analysis::RecordSpec::fromJson(json{{"mode", "regex"}}));
        QVERIFY_THROWS_EXCEPTION(Error,
                                 analysis::RecordSpec::fromJson(json{{"reduction", "median"}}));
        QVERIFY_THROWS_EXCEPTION(Error, analysis::RecordSpec::fromJson(json{{"lowercase", "yes"}}));
        const auto noNames =
            analysis::RecordSpec::fromJson(json{{"mode", "regex"}, {"pattern", "[a-z]+"}});
        QVERIFY_THROWS_EXCEPTION(Error, analysis::parseRecords("abc", noNames));
        const auto broken =
            analysis::RecordSpec::fromJson(json{{"mode", "regex"}, {"pattern", "(?P<x>[a-z"}});
        QVERIFY_THROWS_EXCEPTION(Error, analysis::parseRecords("abc", broken));
    }
};

QTEST_GUILESS_MAIN(TestRecords)
#include "test_records.moc"
