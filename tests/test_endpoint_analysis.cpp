// Analyses of endpoint runs' stored exchanges. Per-token distribution metrics
// (core/analysis/token_metrics.h): KL over the overlap of two top-K lists as defined there, the
// same-top-token share, RMS Δp of the chosen token, and which positions are compared (the same
// context only). Serving figures (core/analysis/request_stats.h): achieved concurrency, items/s,
// retries, sessions of a resumed run. Expected values are computed here from the definitions,
// independently of the implementation.
#include "core/analysis/request_stats.h"
#include "core/analysis/token_metrics.h"
#include "core/common/error.h"

#include <QTest>

#include <cmath>

using namespace probaudit::analysis;

namespace {

using TopList = std::vector<std::pair<std::string, double>>;

TopList top(std::initializer_list<std::pair<const char*, double>> probs) {
    TopList out;
    for (const auto& [t, p] : probs) {
        out.emplace_back(t, std::log(p));
    }
    return out;
}

} // namespace

class TestEndpointAnalysis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void identicalRunsHaveNoDivergence() {
        const TokenTrace t{{"x", "y"}, {top({{"x", .6}, {"y", .3}}), top({{"y", .9}, {"x", .05}})}};
        const TokenMetrics m = tokenMetrics({t, t}, {t, t});
        QCOMPARE(m.positions, std::int64_t(4));
        QCOMPARE(m.kl_max, 0.0);
        QCOMPARE(m.top1.estimate, 1.0);
        QCOMPARE(m.rms_dp, 0.0);
    }

    // KL over the overlap {x, y}: both lists renormalised over it.
    void klOverTheOverlap() {
        const TopList a = top({{"x", .5}, {"y", .3}, {"z", .2}});
        const TopList b = top({{"x", .45}, {"y", .35}, {"w", .2}});
        double kl = -1;
        QVERIFY(overlapKl(a, b, kl));
        const double pa[] = {.5 / .8, .3 / .8}, pb[] = {.45 / .8, .35 / .8};
        const double expected = pa[0] * std::log(pa[0] / pb[0]) + pa[1] * std::log(pa[1] / pb[1]);
        QVERIFY2(std::abs(kl - expected) < 1e-12, qPrintable(QString::number(kl)));
        QVERIFY(kl > 0); // the negative case: other distributions do differ
        QVERIFY(!overlapKl(top({{"x", 1}}), top({{"y", 1}}), kl));
    }

    // Compared positions end at the first differing chosen token (it is still the same context);
    // RMS Δp is over a's chosen token, where b lists it.
    void positionsStopAtTheFirstDifference() {
        const TokenTrace a{{"x", "y", "z"},
                           {top({{"x", .7}, {"q", .2}}), top({{"y", .6}, {"q", .3}}),
                            top({{"z", .9}, {"y", .1}})}};
        const TokenTrace b{{"x", "q", "r"},
                           {top({{"x", .5}, {"q", .4}}), top({{"q", .5}, {"y", .4}}),
                            top({{"r", .9}, {"z", .1}})}};
        const TokenMetrics m = tokenMetrics({a}, {b});
        QCOMPARE(m.positions, std::int64_t(2)); // steps 0 and 1, not 2
        QCOMPARE(m.top1.estimate, 0.5);         // x = x, y != q
        QCOMPARE(m.dp_positions, std::int64_t(2));
        const double d0 = 100 * (.5 - .7), d1 = 100 * (.4 - .6);
        QVERIFY(std::abs(m.rms_dp - std::sqrt((d0 * d0 + d1 * d1) / 2)) < 1e-9);
        QVERIFY(m.kl_mean > 0 && m.kl_max >= m.kl_median);
    }

    // Runs without top-K lists (a server that returns none) give no metrics, not zeros.
    void noListsNoMetrics() {
        const TokenTrace bare{{"x"}, {}};
        QVERIFY(!tokenMetrics({bare}, {bare}).available());
        const std::vector<probaudit::ledger::RequestRecord> reqs = {
            {1, R"({"tokens": ["a"], "top": [[["a", -0.1], ["b", -2.5]]]})"}};
        const auto traces = tokenTraces(reqs, 3);
        QCOMPARE(traces.size(), std::size_t(3));
        QVERIFY(traces[0].top.empty());
        QCOMPARE(traces[1].top.at(0).at(1).first, std::string("b"));
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, tokenTraces({{0, R"({"top": [[["a"]]]})"}}, 1));
    }

    // Two sessions (a run resumed once): each one's span counts, the pause between them does
    // not; warm-ups and retries are time at the server too.
    void requestStatsOverSessions() {
        const std::vector<probaudit::ledger::RequestRecord> reqs = {
            {0, R"({"session": 1000, "attempts": [{"sent": 0, "done": 1, "status": 200}]})"},
            {1, R"({"session": 1000, "attempts": [{"sent": 0.5, "done": 1.5, "status": 200}]})"},
            {2, R"({"session": 2000, "warmup": [{"sent": 0, "done": 0.25, "status": 200}],
                    "attempts": [{"sent": 0.25, "done": 0.75, "status": 503},
                                 {"sent": 1.0, "done": 1.5, "status": 200}],
                    "failed": "malformed reply"})"}};
        const RequestStats s = requestStats(reqs);
        QCOMPARE(s.items, std::int64_t(3));
        QCOMPARE(s.sessions, std::int64_t(2));
        QCOMPARE(s.retries, std::int64_t(1));
        QCOMPARE(s.failed, std::int64_t(1));
        QCOMPARE(s.seconds, 1.5 + 1.5);
        QVERIFY(std::abs(s.achieved_concurrency - (1.0 + 1.0 + 0.25 + 0.5 + 0.5) / 3.0) < 1e-12);
        QCOMPARE(s.items_per_second, 1.0);
        QCOMPARE(s.latency_median, 1.0);
        QVERIFY_THROWS_EXCEPTION(probaudit::Error, requestStats({{0, R"({"attempts": []})"}}));
    }
};

QTEST_GUILESS_MAIN(TestEndpointAnalysis)
#include "test_endpoint_analysis.moc"
