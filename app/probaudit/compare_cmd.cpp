#include "app/probaudit/compare_cmd.h"

#include "core/analysis/compare.h"
#include "core/analysis/diagnosis.h"
#include "core/analysis/export.h"
#include "core/analysis/generation_compare.h"
#include "core/analysis/review.h"
#include "core/analysis/seed_tables.h"
#include "core/analysis/token_metrics.h"
#include "core/common/error.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/ledger/trust.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

namespace probaudit::app {

using nlohmann::json;

namespace {

// What the ledger's chain says, on stderr before any figure (stdout stays the table): every
// reading view says whether the ledger is intact and who signed it; a tampered one loudly.
void sayTrust(const std::string& path, const ledger::Trust& t) {
    std::fprintf(stderr, "%s: ledger %s\n", path.c_str(), t.line().c_str());
    if (t.state == ledger::Trust::State::Tampered) {
        std::fprintf(stderr,
                     "%s: WARNING: the figures below come from a ledger that was changed "
                     "after it was sealed; do not sign them off\n",
                     path.c_str());
    }
}

json trustJson(const ledger::Trust& t) {
    json j{{"state", t.stateName()}, {"line", t.line()}};
    if (t.verify.head) {
        j["head"] = t.verify.head->text();
    }
    if (t.state == ledger::Trust::State::Signed) {
        j["signed_by"] = t.fingerprint;
    }
    return j;
}

std::string layerName(int l) {
    return l == 0 ? "embeddings" : "layer " + std::to_string(l);
}

std::string idOf(const std::vector<ledger::Item>& items, std::int64_t i) {
    return i >= 0 && std::size_t(i) < items.size() ? items[std::size_t(i)].id : std::to_string(i);
}

void itemTable(const char* title, const std::vector<analysis::ItemDiff>& rows,
               const std::vector<ledger::Item>& items) {
    if (rows.empty()) {
        return;
    }
    std::printf("\n%s\n  %-18s %9s %9s %8s %9s %9s %5s %5s %5s\n", title, "item", "p (A)", "p (B)",
                "Δp", "margin A", "margin B", "dec A", "dec B", "label");
    for (const auto& d : rows) {
        std::printf("  %-18s %9.6f %9.6f %8.4f %9.5f %9.5f %5d %5d %5s\n",
                    idOf(items, d.item).c_str(), d.p_a, d.p_b, d.dp, double(d.margin_a),
                    double(d.margin_b), d.decision_a, d.decision_b,
                    d.label ? std::to_string(*d.label).c_str() : "-");
    }
}

} // namespace

// Two generation runs (a generation head): the generation comparison, as the summary's table
// has it, with every differing item.
int compareGenerationRuns(const CompareOptions& o, const ledger::Ledger& led,
                          const ledger::Trust& trust) {
    const auto items = led.items();
    const ledger::Run ra = led.run(o.a), rb = led.run(o.b);
    const auto outputs = [&](std::int64_t run) {
        std::vector<analysis::GenerationOutput> out;
        for (const auto& g : led.generations(run)) {
            out.push_back({idOf(items, g.item), g.tokens, g.gaps, g.text});
        }
        return out;
    };
    if (headKindOf(ra.head_json) != HeadKind::Generation ||
        headKindOf(rb.head_json) != HeadKind::Generation) {
        throw Error(o.ledger, "runs " + std::to_string(o.a) + " and " + std::to_string(o.b) +
                                  ": a generation run compares only with a generation run");
    }
    const RecordSpec records = RecordSpec::fromJson(ra.head_json.value("records", json::object()));
    json c = analysis::generationComparisonJson(
        analysis::compareGenerations(outputs(o.a), outputs(o.b), records));
    // Both runs with top-K log-probabilities per step (an endpoint's top_logprobs, or an engine
    // head's): the per-token metrics.
    const auto traces = [&](std::int64_t run) {
        return analysis::runTokenTraces(led.requests(run), led.generations(run), items.size());
    };
    const analysis::TokenMetrics tm = analysis::tokenMetrics(traces(o.a), traces(o.b));
    if (tm.available()) {
        c["token_metrics"] = analysis::toJson(tm);
    }
    c["a"] = ra.config_name + " (run " + std::to_string(o.a) + ")";
    c["b"] = rb.config_name + " (run " + std::to_string(o.b) + ")";
    c["name"] = c["b"].get<std::string>() + " vs " + c["a"].get<std::string>();
    c["ledger"] = trustJson(trust);
    sayTrust(o.ledger, trust);
    if (o.json) {
        std::cout << c.dump(2) << "\n";
        return 0;
    }
    if (o.csv || o.jsonl) {
        throw Error(o.ledger, "--csv and --jsonl are for decision runs; use --json for two "
                              "generation runs");
    }
    analysis::writeGenerationMarkdown(std::cout, json::array({c}));
    if (tm.available()) {
        std::printf("\nPer-token distributions (%lld positions where both runs have top-K "
                    "log-probabilities, up to each output's first differing token):\n"
                    "  KL divergence over the top-K overlap: mean %.3g, median %.3g, p99 %.3g, "
                    "max %.3g nats (%lld positions share no token)\n"
                    "  same top token: %.4f (95%% %.4f-%.4f)\n"
                    "  RMS Δp of the chosen token: %.4f points (%lld positions)\n",
                    static_cast<long long>(tm.positions), tm.kl_mean, tm.kl_median, tm.kl_p99,
                    tm.kl_max, static_cast<long long>(tm.no_overlap), tm.top1.estimate, tm.top1.low,
                    tm.top1.high, tm.rms_dp, static_cast<long long>(tm.dp_positions));
    }
    if (!c.at("differing_items").empty()) {
        std::printf("\nOutputs that differ (first divergent token, the reference's top-2 logit "
                    "gap there, record Jaccard):\n");
        for (const auto& d : c.at("differing_items")) {
            std::printf("  %-18s token %4lld  gap %-10.3g  Jaccard %.3f\n",
                        d.at("id").get<std::string>().c_str(),
                        static_cast<long long>(d.at("first_divergence").get<std::int64_t>() + 1),
                        d.at("gap_at_divergence").get<double>(), d.at("jaccard").get<double>());
        }
    }
    return 0;
}

namespace {

// The run pair, the three-level verdict, the A/B noise floor and the three levels in numbers.
void printLevels(const analysis::Comparison& c, const analysis::RunData& a,
                 const analysis::RunData& b, const json& noise, const CompareOptions& o) {
    std::printf("run %lld (%s, %s)  vs  run %lld (%s, %s): %lld items\n", o.a, a.run.head.c_str(),
                a.run.config_name.c_str(), o.b, b.run.head.c_str(), b.run.config_name.c_str(),
                static_cast<long long>(c.items));
    if (a.run.env_hash != b.run.env_hash) {
        std::printf("environments differ: %s vs %s\n", a.run.env_hash.c_str(),
                    b.run.env_hash.c_str());
    }
    std::printf("\nverdict: %s\n", c.verdict.sentence().c_str());
    if (a.run.head != b.run.head) {
        if (noise.is_null()) {
            std::printf("  A/B of two head variants: no other runs of \"%s\" to measure the "
                        "runtime noise floor "
                        "(run more configs or `probaudit diagnose`)\n",
                        a.run.head.c_str());
        } else {
            std::printf("  A/B of two head variants: %lld flips, Δp up to %.4f points; runtime "
                        "noise floor of \"%s\" "
                        "(configs alone, %zu runs): up to %lld flips, Δp up to %.4f points\n",
                        static_cast<long long>(c.flips), c.max_dp, a.run.head.c_str(),
                        noise["runs"].size(),
                        static_cast<long long>(noise["flips"].get<std::int64_t>()),
                        noise["max_dp"].get<double>());
            if (!noise["exceeded"].get<bool>()) {
                std::printf("  WARNING: the variant difference does not exceed the runtime noise "
                            "floor; the runtime "
                            "alone could produce it\n");
            }
        }
    }
    if (c.accuracy_a) {
        std::printf("  accuracy      %.4f vs %.4f on %lld labelled items; difference %+.4f, 95%% "
                    "interval %+.4f to %+.4f\n",
                    *c.accuracy_a, *c.accuracy_b, static_cast<long long>(c.labelled),
                    c.accuracy_diff->estimate, c.accuracy_diff->low, c.accuracy_diff->high);
        std::printf(
            "                McNemar exact p = %.4g (%lld right only in A, %lld right only in B)\n",
            *c.mcnemar_p, static_cast<long long>(c.only_a_correct),
            static_cast<long long>(c.only_b_correct));
    } else {
        std::printf("  accuracy      no labels\n");
    }
    std::printf("  decisions     %lld flipped, agreement %.4f\n", static_cast<long long>(c.flips),
                c.agreement);
    std::printf(
        "  probabilities %.1f%% of items bit-identical; Δp max %.4f, mean %.4f, p99 %.4f points\n",
        100 * c.bit_identical_share, c.max_dp, c.mean_dp, c.p99_dp);
    if (c.inexact > 0) {
        std::printf("  not exact     %lld items have a label the server did not list (its p is "
                    "not known, not 0); the Δp figures leave them out\n",
                    static_cast<long long>(c.inexact));
    }
    if (c.undecided > 0) {
        std::printf("  no decision   %lld items in one run or both (a failed request or "
                    "non-finite logits)\n",
                    static_cast<long long>(c.undecided));
    }
}

void printLayers(const analysis::Comparison& c) {
    if (!c.layers.empty()) {
        std::printf("\nfirst divergent layer (items):");
        for (std::size_t l = 0; l < c.first_divergent.size(); ++l) {
            if (c.first_divergent[l] > 0) {
                std::printf("  %s %lld", layerName(int(l)).c_str(),
                            static_cast<long long>(c.first_divergent[l]));
            }
        }
        std::printf("  none (identical, or only the head differs) %lld\n",
                    static_cast<long long>(c.no_divergent_layer));
        std::printf("\n  %-12s %10s %14s %14s\n", "hidden state", "differ", "rel L2 median",
                    "rel L2 max");
        for (const auto& l : c.layers) {
            std::printf("  %-12s %9.1f%% %14s %14s\n", layerName(l.layer).c_str(),
                        100 * l.share_different,
                        l.rel_l2_median ? std::to_string(*l.rel_l2_median).c_str() : "-",
                        l.rel_l2_max ? std::to_string(*l.rel_l2_max).c_str() : "-");
        }
    }
}

void printBins(const analysis::Comparison& c) {
    std::printf("\nmargin of run A (logit gap)   items   flips  changed  mean Δp  flip rate "
                "(Wilson 95%%)\n");
    for (const auto& bin : c.margin_bins) {
        char range[64];
        if (bin.high > 1e30) {
            std::snprintf(range, sizeof range, ">= %g", bin.low);
        } else {
            std::snprintf(range, sizeof range, "[%g, %g)", bin.low, bin.high);
        }
        const analysis::Interval rate = analysis::wilson(bin.flips, bin.count);
        std::printf("  %-27s %7lld %7lld %8lld %8.4f  ", range, static_cast<long long>(bin.count),
                    static_cast<long long>(bin.flips), static_cast<long long>(bin.changed),
                    bin.mean_dp);
        if (bin.count > 0) {
            std::printf("%.1f%% (%.1f-%.1f%%)\n", 100 * rate.estimate, 100 * rate.low,
                        100 * rate.high);
        } else {
            std::printf("-\n");
        }
    }
    std::printf("\nΔp (points)                   items   flips\n  %-27s %7lld\n", "exactly 0",
                static_cast<long long>(c.dp_zero));
    for (const auto& bin : c.dp_bins) {
        if (bin.count > 0) {
            char range[64];
            std::snprintf(range, sizeof range, "[%g, %g)", bin.low, bin.high);
            std::printf("  %-27s %7lld %7lld\n", range, static_cast<long long>(bin.count),
                        static_cast<long long>(bin.flips));
        }
    }
}

void printKernelTrace(const analysis::Comparison& c) {
    // Kernel trace: operators or device kernels that ran in one run only are evidence of a
    // different computation path; different counts of the same ones mostly follow the number
    // of batches.
    std::vector<analysis::KernelDiff> onlyOne;
    std::size_t countsDiffer = 0;
    for (const auto& k : c.kernel_diff) {
        if (k.count_a == 0 || k.count_b == 0) {
            onlyOne.push_back(k);
        } else {
            ++countsDiffer;
        }
    }
    if (onlyOne.empty()) {
        std::printf("\nkernel trace: the same operators and device kernels ran in both");
    } else {
        std::printf("\nkernel trace: ran in one run only (evidence of a different computation "
                    "path)\n  %-14s %-44s %10s %10s\n",
                    "kind", "name", "run A", "run B");
        for (const auto& k : onlyOne) {
            std::printf("  %-14s %-44s %10lld %10lld\n", nameString(k.kind).c_str(), k.name.c_str(),
                        static_cast<long long>(k.count_a), static_cast<long long>(k.count_b));
        }
    }
    if (countsDiffer > 0) {
        std::printf("%s%zu ran a different number of times (--json lists them)\n",
                    onlyOne.empty() ? "; " : "  ", countsDiffer);
    } else {
        std::printf("%s", onlyOne.empty() ? ", the same number of times\n" : "");
    }
}

void printItems(const analysis::Comparison& c, const std::vector<ledger::Item>& items,
                const CompareOptions& o) {
    std::vector<analysis::ItemDiff> byDp = c.diffs;
    std::stable_sort(byDp.begin(), byDp.end(),
                     [](const auto& x, const auto& y) { return x.dpOrder() > y.dpOrder(); });
    byDp.erase(std::remove_if(byDp.begin(), byDp.end(), [](const auto& d) { return d.dp == 0; }),
               byDp.end());
    if (byDp.size() > std::size_t(o.top)) {
        byDp.resize(std::size_t(o.top));
    }
    itemTable("largest Δp", byDp, items);
    std::vector<analysis::ItemDiff> flips;
    for (const auto& d : c.diffs) {
        if (d.flip) {
            flips.push_back(d);
        }
    }
    itemTable("flipped decisions", flips, items);
    if (o.nearBoundary > 0) {
        std::vector<analysis::ItemDiff> near = c.diffs;
        std::stable_sort(near.begin(), near.end(), [](const auto& x, const auto& y) {
            return std::abs(x.margin_a) < std::abs(y.margin_a);
        });
        if (near.size() > std::size_t(o.nearBoundary)) {
            near.resize(std::size_t(o.nearBoundary));
        }
        itemTable("near the boundary (smallest margins in run A)", near, items);
    }
}

} // namespace

namespace {

bool isFloat64(const ledger::Ledger& led, const ledger::Run& r) {
    return analysis::isExactConfig(led.config(r.config_hash));
}

// Both sides' distance to the exact reference: the latest finished float64 study run of A's
// head in the ledger. None when there is none, or when A or B is itself a float64 run.
std::optional<analysis::ExactDistance> exactDistanceOf(const ledger::Ledger& led,
                                                       const analysis::Comparison& c,
                                                       const analysis::RunData& a,
                                                       const analysis::RunData& b) {
    if (isFloat64(led, a.run) || isFloat64(led, b.run)) {
        return std::nullopt;
    }
    const auto runs = led.runs();
    for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
        if (r->kind == RunKind::Study && r->head == a.run.head &&
            r->status == ledger::RunStatus::Finished && isFloat64(led, *r)) {
            const analysis::RunData exact{*r, led.records(r->id, false)};
            return analysis::distanceToExact(c, a, b, exact, r->config_name);
        }
    }
    return std::nullopt;
}

} // namespace

int compareRuns(const CompareOptions& o) {
    const ledger::Ledger led(o.ledger, ledger::Ledger::Mode::Read);
    const ledger::Trust trust = ledger::assessTrust(led);
    if (headKindOf(led.run(o.a).head_json) == HeadKind::Generation ||
        headKindOf(led.run(o.b).head_json) == HeadKind::Generation) {
        return compareGenerationRuns(o, led, trust);
    }
    const auto items = led.items();
    analysis::RunData a{led.run(o.a), led.records(o.a, true)};
    analysis::RunData b{led.run(o.b), led.records(o.b, true)};
    const analysis::Comparison c = analysis::compare(a, b, items);
    sayTrust(o.ledger, trust); // after the records were read: a damaged one is its own error
    // An A/B of two head variants under one config means something only above the runtime
    // noise floor: the flips and Δp that configs alone cause for variant A (its other runs,
    // probes included, against this one).
    std::optional<analysis::NoiseFloor> floor;
    if (a.run.head != b.run.head && a.run.config_hash == b.run.config_hash) {
        std::vector<analysis::Comparison> others;
        for (const auto& r : led.runs()) {
            if (r.id != a.run.id && r.head == a.run.head &&
                r.status == ledger::RunStatus::Finished) {
                others.push_back(
                    analysis::compare(a, analysis::RunData{r, led.records(r.id, false)}, items));
            }
        }
        floor = analysis::noiseFloor(c, others);
    }
    const std::optional<analysis::ExactDistance> exact = exactDistanceOf(led, c, a, b);
    json noise;
    if (floor) {
        noise = {{"flips", floor->flips},
                 {"max_dp", floor->max_dp},
                 {"runs", floor->runs},
                 {"exceeded", floor->exceeded}};
    }
    if (o.json) {
        json j = analysis::toJson(c, true);
        j["noise_floor"] = noise;
        if (exact) { // absent without a float64 run (the JSON of such ledgers is unchanged)
            j["distance_to_exact"] = analysis::toJson(*exact);
        }
        j["run_a_info"] = {
            {"head", a.run.head}, {"config", a.run.config_name}, {"environment", a.run.env_hash}};
        j["run_b_info"] = {
            {"head", b.run.head}, {"config", b.run.config_name}, {"environment", b.run.env_hash}};
        j["ledger"] = trustJson(trust);
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    if (o.csv) {
        analysis::writeItemsCsv(std::cout, c, items);
        return 0;
    }
    if (o.jsonl) {
        analysis::writeItemsJsonl(std::cout, c, items);
        return 0;
    }
    printLevels(c, a, b, noise, o);
    if (exact) {
        std::printf("  exact         against the float64 run %lld (\"%s\"): %s\n",
                    static_cast<long long>(exact->exact_run), exact->exact_config.c_str(),
                    exact->sentence(a.run.config_name, b.run.config_name).c_str());
    }
    printLayers(c);
    printBins(c);
    printKernelTrace(c);
    printItems(c, items, o);
    return 0;
}

namespace {

// Below the headline table of a study with an exact reference: which side of each comparison
// is closer to exact, and loudly where the reference is the farther one.
void printDistanceToExact(const analysis::Review& rv) {
    if (rv.exact_config.empty()) {
        return;
    }
    std::printf("\nDistance to exact (|p - p_exact| against the float64 run \"%s\"):\n",
                rv.exact_config.c_str());
    for (const auto& row : rv.rows) {
        if (row.exact && !row.reference) {
            std::printf("  %s%s\n", row.exact->referenceFarther() ? "NOTE: " : "",
                        row.exact->sentence(rv.reference_name, row.config).c_str());
        }
        if (row.config == rv.exact_config) {
            std::printf("  \"%s\" is the exact reference (float64 throughout; |p - p_exact| is "
                        "measured on the float32 probabilities the ledger keeps)\n",
                        row.config.c_str());
        }
    }
}

} // namespace

int summarize(const std::string& path, const std::string& headName, bool asJson, bool asCsv) {
    const analysis::Review rv = analysis::loadReview(path, headName);
    sayTrust(path, rv.trust);
    if (rv.generation) {
        if (asJson) {
            std::cout << json{{"study", rv.facts.name},
                              {"head", rv.head},
                              {"ledger", trustJson(rv.trust)},
                              {"generation", true},
                              {"items", rv.items.size()},
                              {"rows", analysis::generationTableJson(rv)}}
                             .dump(2)
                      << "\n";
        } else if (asCsv) {
            analysis::writeHeadlineCsv(std::cout, rv);
        } else {
            std::printf("study \"%s\", generation head \"%s\": runs compared pairwise (run to "
                        "run, serving, configs), %zu prompts\n\n",
                        rv.facts.name.c_str(), rv.head.c_str(), rv.items.size());
            analysis::writeHeadlineMarkdown(std::cout, rv);
        }
        return 0;
    }
    if (!rv.reference_run) {
        throw Error(path, "no finished run of the reference config \"" + rv.reference_name +
                              "\" for head \"" + rv.head + "\"");
    }
    const auto& ref = rv.reference_run;
    const std::string& head = rv.head;
    const std::string& refName = rv.reference_name;
    const auto& items = rv.items;
    json rows = json::array();
    for (const auto& row : rv.rows) {
        if (!row.run || !row.cmp) {
            rows.push_back({{"config", row.config}, {"run", nullptr}});
            continue;
        }
        if (row.other_env) { // recorded in another environment (imported, another build)
            rows.push_back({{"config", row.config},
                            {"config_name", row.config_name},
                            {"environment", row.env_hash},
                            {"run_label", row.run->label}});
        } else {
            rows.push_back({{"config", row.config}});
        }
        const auto& c = *row.cmp;
        rows.back().update({{"run", row.run->id},
                            {"reference", row.reference},
                            {"accuracy", c.accuracy_b ? json(*c.accuracy_b) : json()},
                            {"agreement", c.agreement},
                            {"flips", c.flips},
                            {"max_dp", c.max_dp},
                            {"bit_identical", c.bit_identical_share},
                            {"first_layer", analysis::firstLayers(c)},
                            {"items", c.items}});
        if (row.exact) {
            rows.back()["distance_to_exact"] = analysis::toJson(*row.exact);
        }
    }
    if (asCsv) {
        analysis::writeHeadlineCsv(std::cout, rv);
        return 0;
    }
    if (asJson) {
        json out{{"study", rv.facts.name},
                 {"head", head},
                 {"ledger", trustJson(rv.trust)},
                 {"reference_run", ref->id},
                 {"rows", rows}};
        if (!rv.exact_config.empty()) { // absent without a float64 run
            out["exact_config"] = rv.exact_config;
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("study \"%s\", head \"%s\": every config against the reference \"%s\" (run %lld), "
                "%zu items\n\n",
                rv.facts.name.c_str(), head.c_str(), refName.c_str(),
                static_cast<long long>(ref->id), items.size());
    analysis::writeHeadlineMarkdown(std::cout, rv);
    printDistanceToExact(rv);
    bool first = true;
    for (const auto& row : rv.rows) {
        if (row.other_env && row.run) {
            std::printf("%s  %s: run %lld, recorded in environment %s%s\n",
                        first ? "\nRows of another environment than the reference's run (never "
                                "merged with the config's own row):\n"
                              : "",
                        row.config.c_str(), static_cast<long long>(row.run->id),
                        row.env_hash.c_str(),
                        row.run->label.empty() ? "" : (", " + row.run->label).c_str());
            first = false;
        }
    }
    return 0;
}

int seedTables(const std::string& path, const std::string& headName, const std::string& batched,
               bool asJson) {
    std::vector<analysis::Review> reviews;
    reviews.push_back(analysis::loadReview(path, headName));
    for (const auto& h : reviews.front().heads) {
        if (h != reviews.front().head && !reviews.front().generation) {
            reviews.push_back(analysis::loadReview(path, h));
        }
    }
    sayTrust(path, reviews.front().trust);
    std::vector<const analysis::Review*> heads;
    for (const auto& rv : reviews) {
        heads.push_back(&rv);
    }
    if (asJson) {
        json j = analysis::seedTablesJson(heads, batched);
        j["study"] = reviews.front().facts.name;
        j["head"] = reviews.front().head;
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::ostringstream tables; // whole before anything is printed: a refusal prints nothing
    analysis::writeSeedTablesMarkdown(tables, heads, batched);
    std::cout << "study \"" << reviews.front().facts.name << "\": the field reports' tables\n\n"
              << tables.str();
    return 0;
}

} // namespace probaudit::app
