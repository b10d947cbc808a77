// Records, Jaccard and answer reductions (core/analysis/records.h) against an independent
// Python computation (tests/golden/make_records_golden.py): every record list, every per-item
// Jaccard, the pooled Jaccard and the answer agreement must be equal.
#include "analysis/records.h"
#include "common/error.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

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
