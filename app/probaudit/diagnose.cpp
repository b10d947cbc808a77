#include "diagnose.h"

#include "analysis/compare.h"
#include "analysis/fingerprint.h"
#include "common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <random>
#include <set>

namespace probaudit::app {

using nlohmann::json;

namespace {

// One row of the report's table: a probe comparison.
struct Row {
    std::string step; // loader | neighbours | shape | kernels | environment
    std::string what; // "padding added to one input"
    analysis::Comparison cmp;
    std::int64_t run_a = 0, run_b = 0;
};

std::string points(double dp) {
    char buf[32];
    if (dp == 0) {
        return "0";
    }
    std::snprintf(buf, sizeof buf, dp >= 0.01 ? "%.2f" : "%.1e", dp);
    return buf;
}

// One phrase of evidence: "bit-identical", or the largest gap and where it starts.
std::string evidence(const analysis::Comparison& c) {
    if (c.bit_identical_share == 1) {
        return "bit-identical";
    }
    return points(c.max_dp) + " points, from " + analysis::firstLayers(c) +
           (c.flips > 0 ? ", " + std::to_string(c.flips) + " flipped" : "");
}

json rowJson(const Row& r) {
    return {{"step", r.step},
            {"what", r.what},
            {"run_a", r.run_a},
            {"run_b", r.run_b},
            {"items", r.cmp.items},
            {"max_dp", r.cmp.max_dp},
            {"first_layer", analysis::firstLayers(r.cmp)},
            {"flips", r.cmp.flips},
            {"bit_identical", r.cmp.bit_identical_share}};
}

// Axes of a config grouped by the suspect they belong to.
std::string suspectOf(const std::string& axis) {
    static const std::set<std::string> shape{"batch_size", "padding_side", "pad_to",    "pad_to_n",
                                             "order",      "order_seed",   "max_length"};
    return shape.count(axis) ? "shape" : "kernels";
}

} // namespace

namespace {

// Probe runs are short: one line each on stderr ("probe 3: neighbours: shuffle 1 ... 4.4 s"),
// warnings and errors as they come; no per-run progress bars.
class ProbeEvents : public Events {
public:
    void emit(const json& e) override {
        const std::string kind = e.value("event", "");
        if (kind == "started") {
            std::fprintf(stderr, "probe %lld: %s ...", static_cast<long long>(e.value("run", 0)),
                         e.value("label", e.value("config", "")).c_str());
        } else if (kind == "run-finished") {
            std::fprintf(stderr, " %.1f s\n", e.value("seconds", 0.0));
        } else if (kind == "warning" || kind == "error") {
            std::fprintf(stderr, "%s: %s\n", kind.c_str(), e.value("message", "").c_str());
        }
    }
};

} // namespace

int diagnose(const DiagnoseOptions& o, const std::atomic<bool>& stop) {
    ProbeEvents events;
    try {
        StudySession session(o.run, events, stop);
        const study::Study& s = session.study();
        const HeadSpec* head = o.head.empty() ? &s.heads.front() : s.head(o.head);
        if (head == nullptr) {
            throw Error(o.run.study, "no head variant \"" + o.head + "\"");
        }
        if (head->generation()) {
            throw Error(o.run.study, "the diagnosis ladder is for decision heads; a generation "
                                     "study's comparisons are in `probaudit summary`");
        }
        const RunConfig ref = s.config(s.reference)->config;
        ledger::Ledger& led = session.ledger();
        const auto ledgerItems = led.items();
        const int N = std::max(2, o.batch);
        // The sample: seeded, a multiple of N so that every item sits in a full batch.
        std::vector<std::int64_t> sample(ledgerItems.size());
        std::iota(sample.begin(), sample.end(), 0);
        std::mt19937_64 gen(o.seed);
        for (std::size_t i = sample.size(); i > 1; --i) {
            std::swap(sample[i - 1], sample[std::size_t(gen() % i)]);
        }
        const std::size_t n = std::min(sample.size() / std::size_t(N) * std::size_t(N),
                                       std::size_t(std::max(N, o.sample)));
        if (n == 0) {
            throw Error(o.run.study,
                        "the study has fewer items than one batch of " + std::to_string(N));
        }
        sample.resize(n);
        std::sort(sample.begin(), sample.end());
        const auto& enc = session.encodings(*head, ref.max_length);
        std::int64_t longest = 0;
        for (std::int64_t i : sample) {
            longest = std::max<std::int64_t>(longest, std::int64_t(enc[std::size_t(i)].ids.size()));
        }
        const std::int64_t maxPos = session.engine(*head).checkpoint().spec().max_positions;
        const std::int64_t padL = (longest + 7) / 8 * 8;
        std::int64_t padL2 = padL + 64;
        if (maxPos > 0) {
            padL2 = std::min(padL2, maxPos);
        }

        auto probe = [&](const std::string& label, RunConfig cfg) {
            RunRequest req;
            req.head = head;
            req.configName = "probe";
            req.config = cfg;
            req.capture = s.capture == "none" ? "hashes" : s.capture; // probes need the layers
            req.kind = "probe";
            req.label = label;
            req.items = sample;
            const RunOutcome out = session.record(req);
            if (out.cancelled) {
                throw Error("stopped by a signal");
            }
            return out.id;
        };
        auto load = [&](std::int64_t id) {
            return analysis::RunData{led.run(id), led.records(id, true)};
        };
        std::vector<Row> rows;
        auto compareRuns = [&](const std::string& step, const std::string& what, std::int64_t a,
                               std::int64_t b) {
            Row r{step, what, analysis::compare(load(a), load(b), ledgerItems), a, b};
            rows.push_back(r);
            return rows.back().cmp;
        };
        json ladder = json::array();
        std::string stoppedAt;
        // status: "clean" (not this suspect), "explains" (this suspect moves the numbers),
        // "stop" (the later steps cannot be judged).
        auto step = [&](const std::string& name, const std::string& finding,
                        const std::string& verdict, const std::string& status) {
            ladder.push_back(
                {{"step", name}, {"finding", finding}, {"verdict", verdict}, {"status", status}});
        };

        // 1. loader and repeatability
        RunConfig base1 = ref; // one input at a time, no padding
        base1.batch_size = 1;
        base1.pad_to = "longest";
        base1.pad_to_n = 0;
        const std::int64_t r1 = probe("reference, first", ref);
        const std::int64_t r2 = probe("reference, second", ref);
        const auto rep = compareRuns("loader", "the reference config run twice", r1, r2);
        std::string loaderFinding =
            "the reference config run twice: " +
            std::to_string(
                std::int64_t(std::llround(rep.bit_identical_share * double(rep.items)))) +
            "/" + std::to_string(rep.items) + " items bit-identical";
        for (const auto& run : led.runs()) {
            if (run.kind == "study" && run.status == ledger::RunStatus::Finished &&
                run.config_hash == ref.hash() && run.head == head->name &&
                run.env_hash == led.run(r1).env_hash && ref.canonical() == base1.canonical()) {
                const auto rec = compareRuns(
                    "loader", "the recorded reference run against a fresh one", run.id, r1);
                loaderFinding += "; recorded run " + std::to_string(run.id) + " vs fresh: max Δp " +
                                 points(rec.max_dp);
                break;
            }
        }
        bool repeatable = true;
        for (const auto& r : rows) {
            repeatable = repeatable && r.cmp.bit_identical_share == 1;
        }
        if (!repeatable) {
            step("loader and repeatability", loaderFinding,
                 "the reference does not reproduce itself: the computation is not deterministic "
                 "here, so no other "
                 "difference can be attributed (try \"deterministic\": true)",
                 "stop");
            stoppedAt = "loader and repeatability";
        } else {
            step("loader and repeatability", loaderFinding,
                 "clean: the loader and the reference config repeat bit for bit", "clean");
        }

        // 2. neighbour interference
        RunConfig fixed = ref;
        fixed.batch_size = N;
        fixed.pad_to = "fixed";
        fixed.pad_to_n = padL;
        fixed.order = "shuffled";
        std::int64_t n1 = 0;
        if (stoppedAt.empty()) {
            std::vector<std::int64_t> shuffles;
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                RunConfig c = fixed;
                c.order_seed = seed;
                shuffles.push_back(probe("neighbours: shuffle " + std::to_string(seed), c));
            }
            n1 = shuffles[0];
            std::int64_t changed = 0;
            for (std::size_t k = 1; k < shuffles.size(); ++k) {
                const auto c = compareRuns("neighbours",
                                           "neighbour content only, same shape (shuffle 1 vs " +
                                               std::to_string(k + 1) + ")",
                                           shuffles[0], shuffles[k]);
                changed +=
                    c.items - std::int64_t(std::llround(c.bit_identical_share * double(c.items)));
            }
            const std::string finding = "batch " + std::to_string(N) + ", every item padded to " +
                                        std::to_string(padL) +
                                        ", neighbours shuffled 3 ways: " + std::to_string(changed) +
                                        " item results changed";
            if (changed > 0) {
                step("neighbour interference", finding,
                     "SERIOUS: an item's result depends on the other items in its batch; stop and "
                     "find the kernel or "
                     "mask that mixes rows",
                     "stop");
                stoppedAt = "neighbour interference";
            } else {
                step("neighbour interference", finding,
                     "none: other items in a batch do not change an item's result", "clean");
            }
        }

        // 3. shape
        std::int64_t b1 = r1;
        if (stoppedAt.empty()) {
            if (ref.canonical() != base1.canonical()) {
                b1 = probe("shape: one at a time", base1);
            }
            RunConfig padded = base1;
            padded.pad_to = "fixed";
            padded.pad_to_n = padL;
            const auto a =
                compareRuns("shape", "padding added to one input (to " + std::to_string(padL) + ")",
                            b1, probe("shape: padded to " + std::to_string(padL), padded));
            RunConfig batched = base1;
            batched.batch_size = N;
            const auto b = compareRuns("shape", "batch size 1 -> " + std::to_string(N), b1,
                                       probe("shape: batch " + std::to_string(N), batched));
            RunConfig longer = fixed;
            longer.order_seed = 1;
            longer.pad_to_n = padL2;
            const auto c = compareRuns(
                "shape",
                "padding length " + std::to_string(padL) + " -> " + std::to_string(padL2) +
                    " at batch " + std::to_string(N),
                n1,
                probe("shape: batch " + std::to_string(N) + ", padded to " + std::to_string(padL2),
                      longer));
            const double worst = std::max({a.max_dp, b.max_dp, c.max_dp});
            step("shape",
                 "padding added: " + evidence(a) + "; batch 1 -> " + std::to_string(N) + ": " +
                     evidence(b) + "; longer padding: " + evidence(c),
                 worst > 0 ? "the batch shape changes the numbers (largest gap " + points(worst) +
                                 " points)"
                           : "no shape effect on this sample",
                 worst > 0 ? "explains" : "clean");
        }

        // 4. kernels and runtime
        if (stoppedAt.empty()) {
            std::string finding;
            auto vary = [&](const std::string& what, RunConfig c) {
                const auto cmp = compareRuns("kernels", what, b1, probe("kernels: " + what, c));
                finding += (finding.empty() ? "" : "; ") + what + ": " + evidence(cmp);
                std::size_t only = 0;
                for (const auto& k : cmp.kernel_diff) {
                    only += k.count_a == 0 || k.count_b == 0;
                }
                if (only > 0) {
                    finding += " (" + std::to_string(only) + " operators in one path only)";
                }
            };
            RunConfig attn = base1;
            attn.attention = base1.attention == "sdpa" ? "math" : "sdpa";
            vary("attention " + attn.attention, attn);
            RunConfig threads = base1;
            threads.threads = base1.threads == 1 ? 2 : 1;
            vary(std::to_string(threads.threads) + (threads.threads == 1 ? " thread" : " threads"),
                 threads);
            if (base1.dtype == "float32") {
                RunConfig bf = base1;
                bf.dtype = "bfloat16";
                vary("bfloat16", bf);
            }
            // The fix this engine offers: the batch-invariant kernel set, one at a time against
            // batch N with padding. Bit-identical there means pinning it removes the shape effect.
            RunConfig bi1 = base1;
            bi1.kernels = "batch_invariant";
            RunConfig biN = bi1;
            biN.batch_size = N;
            biN.pad_to = "fixed";
            biN.pad_to_n = padL2;
            const auto fix =
                compareRuns("kernels",
                            "batch-invariant kernels: batch 1 -> " + std::to_string(N) +
                                ", padded to " + std::to_string(padL2),
                            probe("kernels: batch-invariant, batch 1", bi1),
                            probe("kernels: batch-invariant, batch " + std::to_string(N), biN));
            finding +=
                "; batch-invariant kernels, batch 1 -> " + std::to_string(N) + " padded to " +
                std::to_string(padL2) + ": " + evidence(fix) +
                (fix.bit_identical_share == 1 ? " (a fix: pin kernels: batch_invariant)" : "");
            if (base1.device != "cpu") {
                RunConfig tf = base1;
                tf.tf32 = !base1.tf32;
                vary(std::string("TF32 ") + (tf.tf32 ? "on" : "off"), tf);
            }
            // Runs of the reference config recorded in other environments (imported or older
            // builds).
            const std::string here = led.run(r1).env_hash;
            std::set<std::string> seen;
            for (const auto& run : led.runs()) {
                if (run.status == ledger::RunStatus::Finished && run.config_hash == ref.hash() &&
                    run.env_hash != here && run.head == head->name &&
                    seen.insert(run.env_hash).second) {
                    const auto cmp = compareRuns("environment",
                                                 "environment " + run.env_hash + " (run " +
                                                     std::to_string(run.id) + ")",
                                                 r1, run.id);
                    finding += "; environment " + run.env_hash + ": " + evidence(cmp);
                }
            }
            bool moved = false;
            for (const auto& r : rows) {
                moved = moved || ((r.step == "kernels" || r.step == "environment") &&
                                  r.cmp.bit_identical_share < 1);
            }
            step("kernels and runtime", finding,
                 "see the table: each line changes one setting from the reference",
                 moved ? "explains" : "clean");
        }

        // Study configs against the reference, explained by the suspects they differ in.
        json configs = json::array();
        json forecast = json::array();
        // The reference run over all items: from this environment when there is one, else the
        // latest.
        std::optional<ledger::Run> refRun;
        const std::string hereEnv = led.run(r1).env_hash;
        for (const auto& run : led.runs()) {
            if (run.kind == "study" && run.status == ledger::RunStatus::Finished &&
                run.head == head->name && run.config_hash == ref.hash() &&
                (!refRun || refRun->env_hash != hereEnv || run.env_hash == hereEnv)) {
                refRun = run;
            }
        }
        if (refRun && stoppedAt.empty()) {
            const auto refData = load(refRun->id);
            for (const auto& nc : s.configs) {
                if (nc.name == s.reference) {
                    continue;
                }
                std::optional<ledger::Run>
                    run; // from the reference run's environment when there is one
                for (const auto& r : led.runs()) {
                    if (r.kind == "study" && r.status == ledger::RunStatus::Finished &&
                        r.head == head->name && r.config_hash == nc.config.hash() &&
                        (!run || run->env_hash != refRun->env_hash ||
                         r.env_hash == refRun->env_hash)) {
                        run = r;
                    }
                }
                const auto axes = ref.differences(nc.config);
                std::set<std::string> suspects;
                for (const auto& a : axes) {
                    suspects.insert(suspectOf(a));
                }
                json row{{"config", nc.name}, {"differs_in", axes}, {"suspects", suspects}};
                std::optional<analysis::Comparison> full;
                if (run) {
                    full = analysis::compare(refData, load(run->id), ledgerItems);
                    // Another environment is a suspect of its own unless the only difference is
                    // the thread count, which is a config axis.
                    for (const auto& d : analysis::fingerprintDiff(
                             led.environment(refRun->env_hash), led.environment(run->env_hash))) {
                        if (d.moves_numerics && d.path.rfind("threads.", 0) != 0) {
                            row["suspects"].push_back("environment");
                            break;
                        }
                    }
                    row.update(
                        {{"run", run->id},
                         {"flips", full->flips},
                         {"max_dp", full->max_dp},
                         {"bit_identical", full->bit_identical_share},
                         {"first_layer", analysis::firstLayers(*full)},
                         {"accuracy_ref", full->accuracy_a ? json(*full->accuracy_a) : json()},
                         {"accuracy", full->accuracy_b ? json(*full->accuracy_b) : json()}});
                }
                configs.push_back(row);
                // Fragility forecast: the logit perturbation this config causes on the probe
                // sample, applied to every reference margin.
                if (!nc.config.cpu_capability.empty()) {
                    continue; // needs its own engine process; not probed here
                }
                const std::int64_t p = probe("forecast: " + nc.name, nc.config);
                const auto sampleRef = load(r1);
                const auto sampleC = load(p);
                std::vector<double>
                    delta; // change of the signed logit gap (binary) or of the margin
                for (std::size_t k = 0; k < sampleRef.records.size() && k < sampleC.records.size();
                     ++k) {
                    const auto& x = sampleRef.records[k];
                    const auto& y = sampleC.records[k];
                    if (x.logits.size() == 2) {
                        delta.push_back(double(y.logits[1] - y.logits[0]) -
                                        double(x.logits[1] - x.logits[0]));
                    } else {
                        delta.push_back(std::abs(double(y.margin) - double(x.margin)));
                    }
                }
                double predicted = 0;
                for (const auto& r : refData.records) {
                    std::size_t crossing = 0;
                    for (double d : delta) {
                        if (r.logits.size() == 2) {
                            const double g = double(r.logits[1] - r.logits[0]);
                            crossing += g >= 0 ? (g + d < 0) : (g + d >= 0);
                        } else {
                            crossing += d > double(r.margin);
                        }
                    }
                    predicted += double(crossing) / double(delta.size()) *
                                 (r.logits.size() == 2 ? 1.0 : 0.5);
                }
                json f{
                    {"config", nc.name}, {"predicted_flips", predicted}, {"sample", delta.size()}};
                if (full) {
                    f["observed_flips"] = full->flips;
                }
                forecast.push_back(f);
            }
        }

        json rowsJson = json::array();
        for (const auto& r : rows) {
            rowsJson.push_back(rowJson(r));
        }
        const json result{{"study", s.name},
                          {"head", head->name},
                          {"reference", s.reference},
                          {"sample", sample.size()},
                          {"batch", N},
                          {"seed", o.seed},
                          {"ladder", ladder},
                          {"stopped_at", stoppedAt.empty() ? json() : json(stoppedAt)},
                          {"table", rowsJson},
                          {"configs", configs},
                          {"forecast", forecast},
                          {"reference_run", refRun ? json(refRun->id) : json()}};
        led.putDiagnosis(head->name, result); // the workbench's diagnosis view reads it
        if (o.json) {
            std::cout << result.dump(2) << "\n";
            return 0;
        }
        std::printf("\nDiagnosis of study \"%s\", head \"%s\": why do results differ from the "
                    "reference config \"%s\"?\n",
                    s.name.c_str(), head->name.c_str(), s.reference.c_str());
        std::printf("Probes on a seeded sample of %zu items (seed %llu); every probe run is in the "
                    "ledger.\n\n",
                    sample.size(), static_cast<unsigned long long>(o.seed));
        int k = 1;
        for (const auto& st : ladder) {
            std::printf("%d. %s\n   %s\n   -> %s\n", k++, st["step"].get<std::string>().c_str(),
                        st["finding"].get<std::string>().c_str(),
                        st["verdict"].get<std::string>().c_str());
        }
        if (!stoppedAt.empty()) {
            std::printf(
                "\nStopped at \"%s\": the later steps cannot be judged until this is fixed.\n",
                stoppedAt.c_str());
        }
        std::printf("\n| what changed | largest probability gap (points) | first layer that "
                    "differs | flipped decisions | "
                    "bit-identical |\n|---|---|---|---|---|\n");
        for (const auto& r : rows) {
            std::printf("| %s | %s | %s | %lld / %lld | %lld / %lld |\n", r.what.c_str(),
                        points(r.cmp.max_dp).c_str(), analysis::firstLayers(r.cmp).c_str(),
                        static_cast<long long>(r.cmp.flips), static_cast<long long>(r.cmp.items),
                        static_cast<long long>(
                            std::llround(r.cmp.bit_identical_share * double(r.cmp.items))),
                        static_cast<long long>(r.cmp.items));
        }
        if (!refRun) {
            std::printf("\nNo finished run of the reference config over all items yet: `probaudit "
                        "run %s --all` "
                        "records the study, then diagnose explains each config.\n",
                        o.run.study.c_str());
        } else if (!configs.empty()) {
            std::printf("\nThe study's configs against the reference (run %lld, all %zu "
                        "items):\n\n| config | differs in | "
                        "suspect | flips | largest gap (points) | first layer | forecast flips "
                        "|\n|---|---|---|---|---|---|---|\n",
                        static_cast<long long>(refRun->id), ledgerItems.size());
            for (const auto& c : configs) {
                std::string axes, suspects, predicted = "-";
                for (const auto& a : c["differs_in"]) {
                    axes += (axes.empty() ? "" : ", ") + a.get<std::string>();
                }
                for (const auto& a : c["suspects"]) {
                    suspects += (suspects.empty() ? "" : ", ") + a.get<std::string>();
                }
                for (const auto& f : forecast) {
                    if (f["config"] == c["config"]) {
                        char buf[32];
                        std::snprintf(buf, sizeof buf, "%.1f", f["predicted_flips"].get<double>());
                        predicted = buf;
                    }
                }
                if (c.contains("run")) {
                    std::printf("| %s | %s | %s | %lld | %s | %s | %s |\n",
                                c["config"].get<std::string>().c_str(), axes.c_str(),
                                suspects.c_str(),
                                static_cast<long long>(c["flips"].get<std::int64_t>()),
                                points(c["max_dp"].get<double>()).c_str(),
                                c["first_layer"].get<std::string>().c_str(), predicted.c_str());
                } else {
                    std::printf("| %s | %s | %s | not run yet | | | %s |\n",
                                c["config"].get<std::string>().c_str(), axes.c_str(),
                                suspects.c_str(), predicted.c_str());
                }
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "probaudit: error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace probaudit::app
