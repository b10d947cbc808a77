// core/analysis: statistics against scipy/numpy golden values (tests/golden/stats.json,
// written by tests/golden/make_stats_golden.py), the bootstrap's coverage on data with a known
// answer, a comparison of two runs built so that every figure is known in advance, and the
// distance to exact (a float64 run) of both sides of a comparison.
#include "core/analysis/compare.h"
#include "core/analysis/exact_distance.h"
#include "core/analysis/export.h"
#include "core/analysis/review.h"
#include "core/analysis/seed_tables.h"
#include "core/analysis/stats.h"
#include "core/common/error.h"
#include "review_fixture.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace probaudit;
using nlohmann::json;

namespace {

json golden() {
    std::ifstream in(PROBAUDIT_SOURCE_DIR "/tests/golden/stats.json");
    return json::parse(in);
}

ledger::Record rec(std::int64_t item, float p1, int layers, std::uint64_t salt) {
    ledger::Record r;
    r.item = item;
    r.probs = {1 - p1, p1};
    r.logits = {0, std::log(p1 / (1 - p1))};
    r.decision = p1 >= 0.5f ? 1 : 0;
    r.margin = std::abs(r.logits[1]);
    for (int l = 0; l <= layers; ++l) {
        r.layer_hashes.push_back(std::uint64_t(item * 100 + l) ^ salt);
    }
    return r;
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mcnemarMatchesScipy() {
        const json g = golden(); // a range-for over golden()["..."] would outlive its object
        for (const auto& c : g["mcnemar"]) {
            const double p =
                analysis::mcnemarExactP(c["b"].get<std::int64_t>(), c["c"].get<std::int64_t>());
            const double want = c["p"].get<double>();
            QVERIFY2(std::abs(p - want) <= 1e-12 * std::max(1e-300, want) + 1e-300,
                     qPrintable(QString("b=%1 c=%2: %3 vs scipy %4")
                                    .arg(c["b"].get<int>())
                                    .arg(c["c"].get<int>())
                                    .arg(p, 0, 'g', 17)
                                    .arg(want, 0, 'g', 17)));
        }
    }

    void wilsonMatchesScipy() {
        const json g = golden();
        for (const auto& c : g["wilson"]) {
            const auto k = c["k"].get<std::int64_t>(), n = c["n"].get<std::int64_t>();
            const auto w = analysis::wilson(k, n);
            QCOMPARE(w.estimate, double(k) / double(n));
            for (const auto& [mine, key] : {std::pair{w.low, "low"}, std::pair{w.high, "high"}}) {
                const double want = c[key].get<double>();
                QVERIFY2(std::abs(mine - want) <= 1e-12,
                         qPrintable(QString("%1/%2 %3: %4 vs scipy %5")
                                        .arg(k)
                                        .arg(n)
                                        .arg(key)
                                        .arg(mine, 0, 'g', 17)
                                        .arg(want, 0, 'g', 17)));
            }
        }
        const auto none = analysis::wilson(0, 0); // no items: the interval says nothing
        QCOMPARE(none.low, 0.0);
        QCOMPARE(none.high, 1.0);
    }

    // The paired minimum detectable difference, against scipy's normal quantiles:
    // (norm.ppf(0.975) + norm.ppf(0.8)) * sqrt(d / n), d = 10/400, and with none discordant the
    // Wilson upper bound of 0/400 (computed in Python from the score formula).
    void pairedMinimumDetectableDifference() {
        QVERIFY(std::abs(analysis::pairedMinimumDetectableDifference(10, 400) -
                         0.02214847587074149) <= 1e-12);
        QVERIFY(std::abs(analysis::pairedMinimumDetectableDifference(0, 400) -
                         0.01366206922720928) <= 1e-12);
        QCOMPARE(analysis::pairedMinimumDetectableDifference(0, 0), 1.0);
        QVERIFY(analysis::pairedMinimumDetectableDifference(0, 4000) <
                analysis::pairedMinimumDetectableDifference(0, 400));
    }

    void histogramCountsMatchNumpy() {
        const json g = golden();
        for (const auto& [values, edges, counts] :
             {std::tuple{"margins", "margin_edges", "margin_counts"},
              std::tuple{"dps", "dp_edges", "dp_counts"}}) {
            const auto e = g[edges].get<std::vector<double>>();
            std::vector<std::int64_t> mine(e.size() - 1, 0);
            for (double v : g[values].get<std::vector<double>>()) {
                const int b = analysis::binOf(e, v);
                if (b >= 0) {
                    ++mine[std::size_t(b)];
                }
            }
            QCOMPARE(mine, g[counts].get<std::vector<std::int64_t>>());
        }
        // The engine's edges are the ones the golden values were made with.
        QCOMPARE(analysis::marginEdges(), g["margin_edges"].get<std::vector<double>>());
        QCOMPARE(analysis::dpEdges(), g["dp_edges"].get<std::vector<double>>());
    }

    void quantileMatchesNumpy() {
        const json g = golden();
        const auto values = g["values"].get<std::vector<double>>();
        for (const auto& [q, want] : g["quantiles"].items()) {
            QVERIFY(std::abs(analysis::quantile(values, std::stod(q)) - want.get<double>()) <
                    1e-12);
        }
    }

    // A known true difference: the 95% interval must contain it about 95% of the time.
    void bootstrapCoversTheTrueDifference() {
        std::mt19937_64 gen(7);
        std::uniform_real_distribution<double> u(0, 1);
        const double pA = 0.80, pB = 0.83; // paired: B is right whenever A is, plus some more
        const int trials = 400, n = 500;
        int covered = 0;
        for (int t = 0; t < trials; ++t) {
            std::vector<std::uint8_t> a(n), b(n);
            for (int i = 0; i < n; ++i) {
                const double x = u(gen);
                a[std::size_t(i)] = x < pA;
                b[std::size_t(i)] = x < pB;
            }
            const auto ci = analysis::pairedBootstrapDiff(a, b, 2000, std::uint64_t(t));
            covered += ci.low <= pB - pA && pB - pA <= ci.high;
        }
        const double coverage = double(covered) / trials;
        QVERIFY2(coverage > 0.91 && coverage < 0.985, qPrintable(QString::number(coverage)));
        // Seeded: the same data and seed give the same interval.
        std::vector<std::uint8_t> a{1, 1, 0, 1, 0, 1, 1, 1}, b{1, 0, 0, 1, 1, 1, 1, 0};
        const auto x = analysis::pairedBootstrapDiff(a, b, 10000, 3),
                   y = analysis::pairedBootstrapDiff(a, b, 10000, 3);
        QCOMPARE(x.low, y.low);
        QCOMPARE(x.high, y.high);
        QCOMPARE(x.estimate, -0.125);
    }

    // Ten items built so that every figure of the comparison is known.
    void comparisonOfKnownRuns() {
        const int layers = 4;
        analysis::RunData a, b;
        a.run.id = 1;
        b.run.id = 2;
        std::vector<ledger::Item> items;
        for (int i = 0; i < 10; ++i) {
            items.push_back({i, "i" + std::to_string(i), "t", i % 2, i + 1});
            const float p =
                0.101f + 0.08f * float(i); // 0.101 .. 0.821: decisions 0 for i <= 4, 1 for i >= 5
            a.records.push_back(rec(i, p, layers, 0));
            b.records.push_back(rec(i, p, layers, 0));
        }
        // item 3: layer 2 differs, probability moves 0.5 points, no flip
        b.records[3] = rec(3, a.records[3].probs[1] + 0.005f, layers, 0);
        for (int l = 2; l <= layers; ++l)
            b.records[3].layer_hashes[std::size_t(l)] ^= 1;
        // item 4 (p = 0.42, label 0, decision 0): flips to 1 with p = 0.52; differs from the
        // embeddings on
        b.records[4] = rec(4, 0.52f, layers, 0);
        for (int l = 0; l <= layers; ++l)
            b.records[4].layer_hashes[std::size_t(l)] ^= 1;
        // item 7: hidden states identical, the head's output moved (1e-6): the head is where it
        // differs
        b.records[7].probs[1] = std::nextafter(b.records[7].probs[1], 1.0f);
        a.run.kernel_trace = json{{"ops", {{"aten::matmul", 10}, {"aten::softmax", 5}}},
                                  {"device_kernels", json::object()}};
        b.run.kernel_trace =
            json{{"ops", {{"aten::scaled_dot_product_attention", 5}, {"aten::matmul", 10}}},
                 {"device_kernels", json::object()}};

        const auto c = analysis::compare(a, b, items);
        QCOMPARE(c.items, std::int64_t(10));
        QCOMPARE(c.flips, std::int64_t(1));
        QCOMPARE(c.agreement, 0.9);
        QCOMPARE(c.bit_identical_share, 0.7);
        QVERIFY(std::abs(c.max_dp - 9.9) < 1e-3); // item 4: 0.421 -> 0.52
        QCOMPARE(c.dp_zero, std::int64_t(7));
        QCOMPARE(c.first_divergent, (std::vector<std::int64_t>{1, 0, 1, 0, 0}));
        QCOMPARE(c.no_divergent_layer, std::int64_t(8)); // item 7 among them: only the head differs
        QCOMPARE(c.layers[0].share_different, 0.1);
        QCOMPARE(c.layers[2].share_different, 0.2);
        QVERIFY(!c.layers[2].rel_l2_median); // no vectors captured
        // Accuracy: labels i % 2; A decides 0 for i <= 4 and 1 after: right on 0,2,4,5,7,9 = 0.6.
        QCOMPARE(c.accuracy_a.value(), 0.6);
        QCOMPARE(c.accuracy_b.value(), 0.5); // item 4 now wrong
        QCOMPARE(c.only_a_correct, std::int64_t(1));
        QCOMPARE(c.only_b_correct, std::int64_t(0));
        QCOMPARE(c.mcnemar_p.value(), 1.0);
        QVERIFY(c.verdict.accuracy);
        QVERIFY(!c.verdict.decisions);
        QVERIFY(!c.verdict.probabilities);
        QCOMPARE(c.diffs[4].first_divergent_layer, 0);
        QVERIFY(c.diffs[4].flip);
        // Margin bins by |logit gap| in run A: item 4 (gap 0.323) is in [0.1, 1).
        std::int64_t total = 0;
        for (const auto& bin : c.margin_bins) {
            total += bin.count;
            if (bin.low == 0.1) {
                QCOMPARE(bin.flips, std::int64_t(1));
            } else {
                QCOMPARE(bin.flips, std::int64_t(0));
            }
        }
        QCOMPARE(total, std::int64_t(10));
        // Kernel trace: SDPA only in B, softmax only in A, matmul the same.
        QCOMPARE(c.kernel_diff.size(), std::size_t(2));
        QCOMPARE(c.kernel_diff[0].name, std::string("aten::scaled_dot_product_attention"));
        QCOMPARE(c.kernel_diff[0].count_a, std::int64_t(0));
        QCOMPARE(c.kernel_diff[1].name, std::string("aten::softmax"));
        // The same run against itself reproduces at all three levels.
        const auto same = analysis::compare(a, a, items);
        QVERIFY(same.verdict.accuracy && same.verdict.decisions && same.verdict.probabilities);
        QCOMPARE(same.no_divergent_layer, std::int64_t(10));
    }

    // Per-item exports: an id with a comma and a quote survives CSV (RFC 4180 quoting), and
    // the JSON lines carry the same flips as the comparison.
    void itemExports() {
        analysis::RunData a, b;
        a.run.id = 1;
        b.run.id = 2;
        std::vector<ledger::Item> items;
        for (int i = 0; i < 3; ++i) {
            a.records.push_back(rec(i, 0.3f + 0.2f * float(i), 2, 0));
            b.records.push_back(rec(i, i == 1 ? 0.45f : 0.3f + 0.2f * float(i), 2, i == 1 ? 9 : 0));
            items.push_back({i, i == 1 ? "x,\"y\"" : "plain-" + std::to_string(i), "t", 1, i + 1});
        }
        const auto c = analysis::compare(a, b, items);
        std::ostringstream csv, jsonl;
        analysis::writeItemsCsv(csv, c, items);
        analysis::writeItemsJsonl(jsonl, c, items);
        QVERIFY2(csv.str().find("\n1,\"x,\"\"y\"\"\",1,") != std::string::npos, csv.str().c_str());
        std::istringstream lines(jsonl.str());
        std::string line;
        std::int64_t flips = 0, n = 0;
        while (std::getline(lines, line)) {
            const json j = json::parse(line);
            flips += j.at("flip").get<bool>();
            ++n;
            if (j.at("item") == 1) {
                QCOMPARE(j.at("id").get<std::string>(), std::string("x,\"y\""));
            }
        }
        QCOMPARE(n, std::int64_t(3));
        QCOMPARE(flips, c.flips);
        QCOMPARE(flips, std::int64_t(1)); // item 1: 0.5 -> 0.45 crosses the boundary
    }

    // The seed tables of a review built by hand: a batched config that flips the two items
    // nearest the boundary, a bfloat16 config that flips none; the near-tie table places the
    // flips by the reference's margin, the accuracy table picks the batched path.
    // |p - p_exact| per side, which side is closer, and the items the exact run lacks.
    void distanceToExactOfKnownRuns() {
        analysis::RunData a, b, exact;
        exact.run.id = 9;
        std::vector<ledger::Item> items;
        // item 0: B is exact, A 2 points off; item 1: both 1 point off; item 2: A is exact, B
        // 10 points off; item 3: not in the exact run.
        const std::vector<std::array<float, 3>> p{
            {0.50f, 0.52f, 0.52f}, {0.30f, 0.30f, 0.31f}, {0.70f, 0.60f, 0.70f}, {0.4f, 0.4f, 0}};
        for (int i = 0; i < 4; ++i) {
            items.push_back({i, "i" + std::to_string(i), "t", 1, i + 1});
            a.records.push_back(rec(i, p[std::size_t(i)][0], 1, 0));
            b.records.push_back(rec(i, p[std::size_t(i)][1], 1, 0));
            if (i < 3) {
                exact.records.push_back(rec(i, p[std::size_t(i)][2], 1, 0));
            }
        }
        const auto c = analysis::compare(a, b, items);
        auto d = analysis::distanceToExact(c, a, b, exact, "exact");
        QCOMPARE(d.exact_run, std::int64_t(9));
        QCOMPARE(d.items, std::int64_t(3));
        QCOMPARE(d.a_closer, std::int64_t(1));
        QCOMPARE(d.b_closer, std::int64_t(1));
        QCOMPARE(d.ties, std::int64_t(1));
        QVERIFY(!d.referenceFarther());
        QVERIFY(std::abs(d.a.max - 2.0) < 1e-4 && std::abs(d.b.max - 10.0) < 1e-4);
        QVERIFY(std::abs(d.a.median - 1.0) < 1e-4 && std::abs(d.b.median - 1.0) < 1e-4);
        QVERIFY(std::isnan(d.item_a[3]) && std::isnan(d.item_b[3]));
        QVERIFY(std::abs(d.item_b[2] - 10.0) < 1e-4 && d.item_b[0] == 0);
        QVERIFY2(
            d.sentence("ref", "b")
                    .find("neither the reference \"ref\" nor \"b\" is closer to exact (sign test p "
                          "= 1)") == 0,
            d.sentence("ref", "b").c_str());
        // B moves to exact on item 1: B is closer on 2 items, the reference on 1: chance
        // (sign test p = 1), not "farther".
        b.records[1] = rec(1, 0.31f, 1, 0);
        d = analysis::distanceToExact(analysis::compare(a, b, items), a, b, exact, "exact");
        QCOMPARE(d.b_closer, std::int64_t(2));
        QCOMPARE(d.sign_p, 1.0);
        QVERIFY(!d.referenceFarther());
        // Eight items more where B is exact and the reference is not: 10 to 1,
        // p = 2 (1 + 11) / 2^11.
        for (int i = 10; i < 18; ++i) {
            items.push_back({i, "i" + std::to_string(i), "t", 1, i + 1});
            a.records.push_back(rec(i, 0.6f, 1, 0));
            b.records.push_back(rec(i, 0.65f, 1, 0));
            exact.records.push_back(rec(i, 0.65f, 1, 0));
        }
        d = analysis::distanceToExact(analysis::compare(a, b, items), a, b, exact, "exact");
        QCOMPARE(d.b_closer, std::int64_t(10));
        QVERIFY(std::abs(d.sign_p - 24.0 / 2048) < 1e-12);
        QVERIFY(d.referenceFarther() && !d.referenceCloser());
        QVERIFY2(d.sentence("ref", "b")
                         .find("the reference \"ref\" is farther from exact than "
                               "\"b\" (sign test p = 0.0117): \"b\" is closer on "
                               "91% of 11 items") == 0,
                 d.sentence("ref", "b").c_str());
        const json j = analysis::toJson(d);
        QCOMPARE(j.at("b_closer").get<std::int64_t>(), std::int64_t(10));
        QCOMPARE(j.at("reference_farther").get<bool>(), true);
    }

    // A study with a float64 config: its run is the review's exact reference, every other row
    // gets its distance, and the headline table shows it; without one, nothing changes.
    void reviewWithAnExactRun() {
        QTemporaryDir dir;
        testing::Fixture f = testing::exactFixture();
        f.configs.insert(f.configs.begin() + 2, {"far", json{{"dtype", "bfloat16"}},
                                                 [](std::int64_t) { return 0.05; }, 0});
        const std::string path = dir.filePath("exact.ledger").toStdString();
        testing::writeFixtureLedger(path, f);
        const auto rv = analysis::loadReview(path);
        QCOMPARE(rv.exact_config, std::string("exact"));
        const auto* nearRow = rv.row("near");
        QVERIFY(nearRow && nearRow->exact);
        // "near" is exact on the even items (where the float32 p moved at all) and the reference
        // everywhere else.
        std::int64_t moved = 0;
        for (std::int64_t i = 0; i < f.items; i += 2) {
            moved += testing::fixtureRecord(f, i, 1e-4, 0, 0).probs !=
                     testing::fixtureRecord(f, i, 0, 0, 0).probs;
        }
        QVERIFY(moved > 0);
        QCOMPARE(nearRow->exact->b_closer, moved);
        QCOMPARE(nearRow->exact->a_closer, std::int64_t(0));
        QVERIFY(nearRow->exact->referenceFarther());
        QVERIFY(!rv.row("far")->exact->referenceFarther());
        QVERIFY(!rv.row("exact")->exact);
        QVERIFY(rv.row("reference")->exact);
        std::ostringstream table;
        analysis::writeHeadlineMarkdown(table, rv);
        QVERIFY2(table.str().find("closer to exact than the reference |") != std::string::npos,
                 table.str().c_str());
        QVERIFY(table.str().find("| exact | -") != std::string::npos);
        std::ostringstream csv;
        analysis::writeHeadlineCsv(csv, rv);
        QVERIFY(csv.str().find(",exact_config,to_exact_median_points,") != std::string::npos);

        f.configs.pop_back(); // the same study without its float64 config
        const std::string plain = dir.filePath("plain.ledger").toStdString();
        testing::writeFixtureLedger(plain, f);
        const auto without = analysis::loadReview(plain);
        QVERIFY(without.exact_config.empty());
        QVERIFY(!without.row("near")->exact);
        std::ostringstream plainTable;
        analysis::writeHeadlineMarkdown(plainTable, without);
        QVERIFY(plainTable.str().find("exact") == std::string::npos);
    }

    void seedTablesOfAKnownReview() {
        analysis::Review rv;
        rv.path = "known.ledger";
        rv.head = "h";
        rv.reference_name = "reference";
        analysis::RunData ref, batched, bf16;
        ref.run.id = 1;
        batched.run.id = 2;
        bf16.run.id = 3;
        for (int i = 0; i < 20; ++i) {
            // p from 0.05 to 0.995, item 9 (p 0.4995) and 10 (p 0.5005) are near ties
            const float p = i == 9 ? 0.4995f : i == 10 ? 0.5005f : 0.05f + 0.045f * float(i);
            rv.items.push_back({i, "i" + std::to_string(i), "t", p >= 0.5f ? 1 : 0, i + 1});
            ref.records.push_back(rec(i, p, 2, 0));
            bf16.records.push_back(rec(i, p, 2, i == 3 ? 5 : 0));
            batched.records.push_back(rec(i, i == 9 ? 0.5004f : i == 10 ? 0.4996f : p, 2, 0));
        }
        const auto row = [&](const std::string& name, const json& cfg, const analysis::RunData& d,
                             std::vector<std::string> differs) {
            analysis::ReviewRow r;
            r.config = name;
            r.config_json = cfg;
            r.differs_in = std::move(differs);
            r.reference = name == "reference";
            r.run = d.run;
            r.cmp = analysis::compare(ref, d, rv.items);
            return r;
        };
        rv.rows.push_back(row("reference", {{"batch_size", 1}}, ref, {}));
        rv.rows.push_back(
            row("bfloat16", {{"batch_size", 1}, {"dtype", "bfloat16"}}, bf16, {"dtype"}));
        rv.rows.push_back(row("batch-8", {{"batch_size", 8}}, batched, {"batch_size"}));

        const auto ties = analysis::nearTies(rv);
        QCOMPARE(ties.size(), std::size_t(2)); // the reference is not compared with itself
        QCOMPARE(ties[1].config, std::string("batch-8"));
        QCOMPARE(ties[1].flips, std::int64_t(2));
        std::int64_t items = 0;
        for (const auto& b : ties[1].bins) {
            items += b.items;
            // both flips: |logit gap| of p = 0.4995 / 0.5005 is 0.002, in [0.001, 0.01)
            QCOMPARE(b.flips, b.low == 1e-3 ? std::int64_t(2) : std::int64_t(0));
            QCOMPARE(b.rate.high, analysis::wilson(b.flips, b.items).high);
        }
        QCOMPARE(items, std::int64_t(20));
        QCOMPARE(ties[0].flips, std::int64_t(0));

        QCOMPARE(analysis::batchedPath(rv, "").value(), std::string("batch-8"));
        QVERIFY_THROWS_EXCEPTION(Error, analysis::batchedPath(rv, "no-such-config"));
        const auto acc = analysis::accuracyRow(rv, "batch-8").value();
        QCOMPARE(acc.flips, std::int64_t(2));
        QCOMPARE(acc.agreement, 0.9);
        QCOMPARE(acc.accuracy_reference.value(), 1.0); // labels are the reference's decisions
        QCOMPARE(acc.accuracy_batched.value(), 0.9);
        QVERIFY(acc.diff->estimate > 0.099 && acc.diff->estimate < 0.101); // reference - batched

        std::ostringstream md;
        analysis::writeSeedTablesMarkdown(md, {&rv}, "");
        const std::string text = md.str();
        QVERIFY2(text.find("| [0.001, 0.01) | 2 | 0 (0%, 0–65.8%) | 2 (100%, 34.2–100%) |") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("2 flipped decisions in all: 2 at a reference |margin| below 0.1") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("No diagnosis is stored") != std::string::npos, text.c_str());
        QVERIFY2(text.find("| h | batch-8 | 0.9000 | 1.0000 |") != std::string::npos, text.c_str());

        // A second head recorded under the reference only (demo B's yes/no answer): named
        // batched path or not, it has no accuracy row and is no error; for the first head a
        // config it lacks is.
        analysis::Review second = rv;
        second.head = "h2";
        second.rows.resize(1);
        for (const std::string batchedName : {"", "batch-8"}) {
            std::ostringstream both;
            analysis::writeSeedTablesMarkdown(both, {&rv, &second}, batchedName);
            QVERIFY(both.str().find("| h | batch-8 |") != std::string::npos);
            QVERIFY(both.str().find("| h2 |") == std::string::npos);
        }
        std::ostringstream none;
        QVERIFY_THROWS_EXCEPTION(
            Error, analysis::writeSeedTablesMarkdown(none, {&second, &rv}, "batch-8"));
    }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
