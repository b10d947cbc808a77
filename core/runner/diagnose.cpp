#include "core/runner/diagnose.h"

#include "core/runner/diagnose_endpoint.h"
#include "core/runner/localize.h"

#include "core/analysis/compare.h"
#include "core/analysis/fingerprint.h"
#include "core/analysis/variants.h"
#include "core/common/error.h"
#include "core/common/vocabulary.h"
#include "core/engine/engine.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <random>
#include <set>

namespace probaudit::runner {

using analysis::Comparison;
using analysis::StepStatus;

namespace {

// One diagnosis: the probe sample, the probe runs and their comparisons, step by step.
class Ladder {
public:
    Ladder(const DiagnoseOptions& o, StudySession& session, const HeadSpec& head,
           const std::atomic<bool>& stop)
        : m_o(o), m_session(session), m_stop(stop), m_study(session.study()), m_head(head),
          m_ref(m_study.config(m_study.reference)->config), m_led(session.ledger()),
          m_items(m_led.items()), m_batch(std::max(2, o.batch)) {}

    analysis::Diagnosis run();

private:
    void chooseSample();
    void loaderStep();
    void neighbourStep();
    void shapeStep();
    void kernelStep();
    void explainConfigs();
    void causeStep();
    analysis::ConfigCause cause(const std::string& config);
    void forecast(const study::NamedConfig& nc, const analysis::RunData& refData,
                  const std::optional<Comparison>& full);

    std::int64_t probe(const std::string& label, const RunConfig& cfg);
    analysis::RunData load(std::int64_t id) const {
        return analysis::RunData{m_led.run(id), m_led.records(id, true)};
    }
    Comparison compareRuns(const std::string& step, const std::string& what, std::int64_t a,
                           std::int64_t b);
    void step(const std::string& name, const std::string& finding, const std::string& verdict,
              StepStatus status) {
        m_d.ladder.push_back({name, finding, verdict, status});
    }
    bool stopped() const { return m_d.stopped_at.has_value(); }
    // The latest finished study run of `configHash` for this head, from `env` when it has one.
    std::optional<ledger::Run> fullRun(const std::string& configHash, const std::string& env) const;
    // The vary() probes of step 4: one setting changed from one-at-a-time.
    void vary(const std::string& what, const RunConfig& c, std::string& finding);

    const DiagnoseOptions& m_o;
    StudySession& m_session;
    const std::atomic<bool>& m_stop;
    const study::Study& m_study;
    const HeadSpec& m_head;
    const RunConfig m_ref;
    ledger::Ledger& m_led;
    const std::vector<ledger::Item> m_items;
    const int m_batch; // N
    std::vector<std::int64_t> m_sample;
    std::int64_t m_padL = 0, m_padL2 = 0;
    RunConfig m_base1; // the reference, one input at a time, no padding
    RunConfig m_fixed; // batch N, every item padded to L, shuffled
    std::int64_t m_r1 = 0, m_n1 = 0, m_b1 = 0;
    analysis::Diagnosis m_d;
};

std::int64_t Ladder::probe(const std::string& label, const RunConfig& cfg) {
    RunRequest req;
    req.head = &m_head;
    req.configName = "probe";
    req.config = cfg;
    req.capture = m_study.capture == "none" ? "hashes" : m_study.capture; // probes need layers
    req.kind = RunKind::Probe;
    req.label = label;
    req.items = m_sample;
    const RunOutcome out = m_session.record(req);
    if (out.cancelled) {
        throw Error("stopped by a signal");
    }
    return out.id;
}

Comparison Ladder::compareRuns(const std::string& step, const std::string& what, std::int64_t a,
                               std::int64_t b) {
    Comparison c = analysis::compare(load(a), load(b), m_items);
    m_d.table.push_back(analysis::probeRow(step, what, c));
    return c;
}

void Ladder::chooseSample() {
    // Seeded, a multiple of N so that every item sits in a full batch.
    std::vector<std::int64_t> sample(m_items.size());
    std::iota(sample.begin(), sample.end(), 0);
    std::mt19937_64 gen(m_o.seed);
    for (std::size_t i = sample.size(); i > 1; --i) {
        std::swap(sample[i - 1], sample[std::size_t(gen() % i)]);
    }
    const std::size_t N = std::size_t(m_batch);
    const std::size_t n =
        std::min(sample.size() / N * N, std::size_t(std::max(m_batch, m_o.sample)));
    if (n == 0) {
        throw Error(m_o.run.study,
                    "the study has fewer items than one batch of " + std::to_string(m_batch));
    }
    sample.resize(n);
    std::sort(sample.begin(), sample.end());
    m_sample = sample;
    const auto& enc = m_session.encodings(m_head, m_ref.max_length, m_ref.model);
    std::int64_t longest = 0;
    for (std::int64_t i : m_sample) {
        longest = std::max<std::int64_t>(longest, std::int64_t(enc[std::size_t(i)].ids.size()));
    }
    const std::int64_t maxPos =
        m_session.engine(m_head, m_ref.model).checkpoint().spec().max_positions;
    m_padL = (longest + 7) / 8 * 8;
    m_padL2 = m_padL + 64;
    if (maxPos > 0) {
        m_padL2 = std::min(m_padL2, maxPos);
    }
    m_base1 = m_ref;
    m_base1.batch_size = 1;
    m_base1.pad_to = PadTo::Longest;
    m_base1.pad_to_n = 0;
    m_fixed = m_ref;
    m_fixed.batch_size = m_batch;
    m_fixed.pad_to = PadTo::Fixed;
    m_fixed.pad_to_n = m_padL;
    // Each item keeps its row in its batch: between two seeds only its neighbours change (a
    // GEMM may give a row other bits in another row of the same batch; that is the shape step's).
    m_fixed.order = ItemOrder::NeighboursShuffled;
}

// 1. loader and repeatability
void Ladder::loaderStep() {
    m_r1 = probe("reference, first", m_ref);
    const std::int64_t r2 = probe("reference, second", m_ref);
    const auto rep = compareRuns("loader", "the reference config run twice", m_r1, r2);
    std::string finding =
        "the reference config run twice: " + std::to_string(analysis::bitIdenticalItems(rep)) +
        "/" + std::to_string(rep.items) + " items bit-identical";
    for (const auto& run : m_led.runs()) {
        if (run.kind == RunKind::Study && run.status == ledger::RunStatus::Finished &&
            run.config_hash == m_ref.hash() && run.head == m_head.name &&
            run.env_hash == m_led.run(m_r1).env_hash && m_ref.canonical() == m_base1.canonical()) {
            const auto rec = compareRuns("loader", "the recorded reference run against a fresh one",
                                         run.id, m_r1);
            finding += "; recorded run " + std::to_string(run.id) + " vs fresh: max Δp " +
                       analysis::formatPoints(rec.max_dp);
            break;
        }
    }
    const bool repeatable = std::all_of(m_d.table.begin(), m_d.table.end(),
                                        [](const auto& r) { return r.bit_identical == 1; });
    if (!repeatable) {
        step("loader and repeatability", finding,
             "the reference does not reproduce itself: the computation is not deterministic "
             "here, so no other difference can be attributed (try \"deterministic\": true)",
             StepStatus::Stop);
        m_d.stopped_at = "loader and repeatability";
    } else {
        step("loader and repeatability", finding,
             "clean: the loader and the reference config repeat bit for bit", StepStatus::Clean);
    }
}

// 2. neighbour interference
void Ladder::neighbourStep() {
    std::vector<std::int64_t> shuffles;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        RunConfig c = m_fixed;
        c.order_seed = seed;
        shuffles.push_back(probe("neighbours: shuffle " + std::to_string(seed), c));
    }
    m_n1 = shuffles[0];
    std::int64_t changed = 0;
    for (std::size_t k = 1; k < shuffles.size(); ++k) {
        const auto c = compareRuns("neighbours",
                                   "neighbour content only, same shape (shuffle 1 vs " +
                                       std::to_string(k + 1) + ")",
                                   shuffles[0], shuffles[k]);
        changed += c.items - analysis::bitIdenticalItems(c);
    }
    const std::string finding =
        "batch " + std::to_string(m_batch) + ", every item padded to " + std::to_string(m_padL) +
        " and in its own row, neighbours shuffled 3 ways: " + std::to_string(changed) +
        " item results changed";
    if (changed > 0) {
        step("neighbour interference", finding,
             "SERIOUS: an item's result depends on the other items in its batch; stop and find "
             "the kernel or mask that mixes rows",
             StepStatus::Stop);
        m_d.stopped_at = "neighbour interference";
    } else {
        step("neighbour interference", finding,
             "none: other items in a batch do not change an item's result", StepStatus::Clean);
    }
}

// 3. shape
void Ladder::shapeStep() {
    const std::string N = std::to_string(m_batch);
    const std::string L = std::to_string(m_padL), L2 = std::to_string(m_padL2);
    m_b1 = m_r1;
    if (m_ref.canonical() != m_base1.canonical()) {
        m_b1 = probe("shape: one at a time", m_base1);
    }
    RunConfig padded = m_base1;
    padded.pad_to = PadTo::Fixed;
    padded.pad_to_n = m_padL;
    const auto a = compareRuns("shape", "padding added to one input (to " + L + ")", m_b1,
                               probe("shape: padded to " + L, padded));
    RunConfig batched = m_base1;
    batched.batch_size = m_batch;
    const auto b =
        compareRuns("shape", "batch size 1 -> " + N, m_b1, probe("shape: batch " + N, batched));
    RunConfig longer = m_fixed;
    longer.order_seed = 1;
    longer.pad_to_n = m_padL2;
    const auto c = compareRuns("shape", "padding length " + L + " -> " + L2 + " at batch " + N,
                               m_n1, probe("shape: batch " + N + ", padded to " + L2, longer));
    // The same batches' shape, every item in another row: with the neighbours clean (step 2),
    // a difference here is the row an item sits in.
    RunConfig rows = m_fixed;
    rows.order = ItemOrder::Shuffled;
    rows.order_seed = 1;
    const auto d =
        compareRuns("shape", "row in the batch changed at batch " + N + ", padded to " + L, m_n1,
                    probe("shape: batch " + N + ", other rows", rows));
    const double worst = std::max({a.max_dp, b.max_dp, c.max_dp, d.max_dp});
    step("shape",
         "padding added: " + analysis::evidence(a) + "; batch 1 -> " + N + ": " +
             analysis::evidence(b) + "; longer padding: " + analysis::evidence(c) +
             "; another row: " + analysis::evidence(d),
         worst > 0 ? "the batch shape changes the numbers (largest gap " +
                         analysis::formatPoints(worst) + " points)"
                   : "no shape effect on this sample",
         worst > 0 ? StepStatus::Explains : StepStatus::Clean);
}

void Ladder::vary(const std::string& what, const RunConfig& c, std::string& finding) {
    const auto cmp = compareRuns("kernels", what, m_b1, probe("kernels: " + what, c));
    finding += (finding.empty() ? "" : "; ") + what + ": " + analysis::evidence(cmp);
    std::size_t only = 0;
    for (const auto& k : cmp.kernel_diff) {
        only += k.count_a == 0 || k.count_b == 0;
    }
    if (only > 0) {
        finding += " (" + std::to_string(only) + " operators in one path only)";
    }
}

// 4. kernels and runtime
void Ladder::kernelStep() {
    std::string finding;
    RunConfig attn = m_base1;
    attn.attention = m_base1.attention == Attention::Sdpa ? Attention::Math : Attention::Sdpa;
    vary("attention " + nameString(attn.attention), attn, finding);
    RunConfig threads = m_base1;
    threads.threads = m_base1.threads == 1 ? 2 : 1;
    vary(std::to_string(threads.threads) + (threads.threads == 1 ? " thread" : " threads"), threads,
         finding);
    if (m_base1.dtype == Dtype::Float32) {
        RunConfig bf = m_base1;
        bf.dtype = Dtype::BFloat16;
        vary("bfloat16", bf, finding);
    }
    if (m_base1.runner == Runner::Engine) {
        // The fix this engine offers: the batch-invariant kernel set, one at a time against batch N
        // with padding. Bit-identical there means pinning it removes the shape effect.
        const std::string N = std::to_string(m_batch), L2 = std::to_string(m_padL2);
        RunConfig bi1 = m_base1;
        bi1.kernels = Kernels::BatchInvariant;
        RunConfig biN = bi1;
        biN.batch_size = m_batch;
        biN.pad_to = PadTo::Fixed;
        biN.pad_to_n = m_padL2;
        const auto fix =
            compareRuns("kernels", "batch-invariant kernels: batch 1 -> " + N + ", padded to " + L2,
                        probe("kernels: batch-invariant, batch 1", bi1),
                        probe("kernels: batch-invariant, batch " + N, biN));
        finding += "; batch-invariant kernels, batch 1 -> " + N + " padded to " + L2 + ": " +
                   analysis::evidence(fix) +
                   (fix.bit_identical_share == 1 ? " (a fix: pin kernels: batch_invariant)" : "");
    } else {
        finding += "; batch-invariant kernels: the engine's, not probed on the transformers runner";
    }
    if (m_base1.device != "cpu") {
        RunConfig tf = m_base1;
        tf.tf32 = !m_base1.tf32;
        vary(std::string("TF32 ") + (tf.tf32 ? "on" : "off"), tf, finding);
    }
    // Runs of the reference config recorded in other environments (imported or older builds).
    const std::string here = m_led.run(m_r1).env_hash;
    std::set<std::string> seen;
    for (const auto& run : m_led.runs()) {
        if (run.status == ledger::RunStatus::Finished && run.config_hash == m_ref.hash() &&
            run.env_hash != here && run.head == m_head.name && seen.insert(run.env_hash).second) {
            const auto cmp =
                compareRuns("environment",
                            "environment " + run.env_hash + " (run " + std::to_string(run.id) + ")",
                            m_r1, run.id);
            finding += "; environment " + run.env_hash + ": " + analysis::evidence(cmp);
        }
    }
    const bool moved = std::any_of(m_d.table.begin(), m_d.table.end(), [](const auto& r) {
        return (r.step == "kernels" || r.step == "environment") && r.bit_identical < 1;
    });
    step("kernels and runtime", finding,
         "see the table: each line changes one setting from the reference",
         moved ? StepStatus::Explains : StepStatus::Clean);
}

std::optional<ledger::Run> Ladder::fullRun(const std::string& configHash,
                                           const std::string& env) const {
    return latestFullRun(m_led.runs(), m_head.name, configHash, env, false);
}

// Fragility forecast: the logit perturbation this config causes on the probe sample, applied
// to every reference margin.
void Ladder::forecast(const study::NamedConfig& nc, const analysis::RunData& refData,
                      const std::optional<Comparison>& full) {
    if (nc.config.cpu_capability != CpuCapability::Auto) {
        return; // needs its own engine process; not probed here
    }
    if (m_study.onServer(nc.config)) {
        return; // a server variant's: its requests are not the engine's logits to perturb
    }
    const std::int64_t p = probe("forecast: " + nc.name, nc.config);
    const auto delta = analysis::logitPerturbation(load(m_r1).records, load(p).records);
    analysis::FlipForecast f{nc.name, analysis::predictedFlips(refData.records, delta),
                             std::int64_t(delta.size()), std::nullopt};
    if (full) {
        f.observed_flips = full->flips;
    }
    m_d.forecast.push_back(f);
}

// Study configs against the reference, explained by the suspects they differ in.
void Ladder::explainConfigs() {
    // The reference run over all items: from this environment when there is one, else the latest.
    const std::optional<ledger::Run> refRun = fullRun(m_ref.hash(), m_led.run(m_r1).env_hash);
    if (refRun) {
        m_d.reference_run = refRun->id;
    }
    if (!refRun || stopped()) {
        return;
    }
    const auto refData = load(refRun->id);
    for (const auto& nc : m_study.configs) {
        if (nc.name == m_study.reference) {
            continue;
        }
        // From the reference run's environment when there is one.
        const std::optional<ledger::Run> run = fullRun(nc.config.hash(), refRun->env_hash);
        analysis::ConfigExplanation row;
        row.config = nc.name;
        row.differs_in = m_ref.differences(nc.config);
        row.suspects = analysis::suspectsOf(row.differs_in);
        std::optional<Comparison> full;
        if (run) {
            full = analysis::compare(refData, load(run->id), m_items);
            // Another environment is a suspect of its own unless the only difference is the
            // thread count, which is a config axis; the differences say what it is.
            row.environment = analysis::environmentSentences(m_led.environment(refRun->env_hash),
                                                             m_led.environment(run->env_hash));
            if (!row.environment.empty() && std::find(row.suspects.begin(), row.suspects.end(),
                                                      "environment") == row.suspects.end()) {
                row.suspects.push_back("environment");
            }
            row.result = analysis::ConfigResult{run->id,
                                                full->flips,
                                                full->max_dp,
                                                full->bit_identical_share,
                                                analysis::firstLayers(*full),
                                                full->accuracy_a,
                                                full->accuracy_b};
        }
        m_d.configs.push_back(row);
        forecast(nc, refData, full);
    }
}

analysis::Diagnosis Ladder::run() {
    m_d.study = m_study.name;
    m_d.head = m_head.name;
    m_d.reference = m_study.reference;
    m_d.batch = m_batch;
    m_d.seed = m_o.seed;
    chooseSample();
    m_d.sample = std::int64_t(m_sample.size());
    loaderStep();
    if (!stopped()) {
        neighbourStep();
    }
    if (!stopped()) {
        shapeStep();
    }
    if (!stopped()) {
        kernelStep();
    }
    explainConfigs();
    if (auto variant = analysis::variantStep(m_d.configs); variant && !stopped()) {
        step(variant->step, variant->finding, variant->verdict, variant->status);
    }
    if (!stopped()) {
        causeStep();
    }
    return m_d;
}

// One config's counterfactual localisation against the reference: its flips, then its largest
// Δp, up to the ladder's sample size. A pair that cannot be spliced gets the sentence why.
analysis::ConfigCause Ladder::cause(const std::string& config) {
    LocalizeOptions lo;
    lo.run = m_o.run;
    lo.head = m_head.name;
    lo.a = m_study.reference;
    lo.b = config;
    lo.sample = m_o.causeSample < 0 ? m_o.sample : m_o.causeSample;
    analysis::ConfigCause c{config, "", std::nullopt};
    try {
        c.localization = localizeIn(m_session, m_head, lo);
    } catch (const std::exception& e) { // a pair that cannot be spliced, or a pass that failed
        if (m_stop) {
            throw;
        }
        // The sentence without the study's path (the diagnosis names the study already, and a
        // remote one's path is that host's).
        const std::string prefix = m_o.run.study + ": ";
        const std::string why = e.what();
        c.not_localised = why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why;
    }
    return c;
}

// 5. cause: for each study config that differs from the reference, which operation in which
// layer makes the difference (runner/localize.h).
void Ladder::causeStep() {
    if (!m_d.reference_run) {
        step("cause", "no recorded run of the reference config to localise against",
             "record the study (`probaudit run --all`), then diagnose again", StepStatus::Untested);
        return;
    }
    if (m_o.causeSample == 0) {
        step("cause", "not run (--cause-sample 0)",
             "diagnose again without --cause-sample 0 to localise each config that differs",
             StepStatus::Untested);
        return;
    }
    m_d.cause_sample = m_o.causeSample < 0 ? m_o.sample : m_o.causeSample;
    std::string finding;
    bool localised = false;
    for (const auto& row : m_d.configs) {
        if (!row.result || (row.result->flips == 0 && row.result->bit_identical == 1)) {
            continue; // not run yet, or bit-identical to the reference: nothing to localise
        }
        if (std::find(row.differs_in.begin(), row.differs_in.end(), "model") !=
            row.differs_in.end()) {
            continue; // other weights: no splice explains them (the "model variant" step)
        }
        analysis::ConfigCause c = cause(row.config);
        finding += (finding.empty() ? "" : "; ") + row.config + ": " +
                   (c.localization ? analysis::causeSummary(*c.localization)
                                   : "not localised (" + c.not_localised + ")");
        localised = localised || c.localization.has_value();
        m_d.causes.push_back(std::move(c));
    }
    if (m_d.causes.empty()) {
        step("cause", "no study config differs from the reference", "nothing to localise",
             StepStatus::Clean);
        return;
    }
    std::int64_t explained = 0;
    for (const auto& c : m_d.causes) {
        for (const auto& item :
             c.localization ? c.localization->items : std::vector<analysis::ItemCause>{}) {
            explained += item.explained();
        }
    }
    step("cause", finding,
         explained > 0 ? "see the causes: each config's difference, by the operator class whose "
                         "computation as the reference does it removes"
         : localised   ? "localised, but no operator class or set of them explains an item"
                       : "no config's difference could be localised",
         explained > 0 ? StepStatus::Explains : StepStatus::Untested);
}

// The head the ladder diagnoses: named, or the study's first; decision heads only.
const HeadSpec& ladderHead(const DiagnoseOptions& o, const study::Study& s) {
    return decisionHead(s, o.run.study, o.head,
                        "the diagnosis ladder is for decision heads; a generation study's "
                        "comparisons are in `probaudit summary`");
}

} // namespace

analysis::Diagnosis diagnose(const DiagnoseOptions& o, Events& events,
                             const std::atomic<bool>& stop) {
    const study::Study loaded = study::Study::load(o.run.study);
    const HeadSpec& head = ladderHead(o, loaded);
    if (loaded.isEndpoint()) {
        // Read from the recorded runs: no server is contacted, nothing is recorded but the
        // diagnosis itself.
        const std::string path =
            o.run.ledger.empty() ? defaultLedgerPath(o.run.study) : o.run.ledger;
        if (!std::filesystem::exists(path)) {
            throw Error(path, "no ledger yet: `probaudit run " + o.run.study +
                                  "` records the study's runs, then diagnose explains them");
        }
        ledger::Ledger led(path, ledger::Ledger::Mode::Write);
        analysis::Diagnosis d = diagnoseEndpoint(o, loaded, head, led);
        led.putDiagnosis(head.name, d.toJson());
        return d;
    }
    StudySession session(o.run, events, stop);
    const HeadSpec& sessionHead = *session.study().head(head.name);
    analysis::Diagnosis d = Ladder(o, session, sessionHead, stop).run();
    session.ledger().putDiagnosis(head.name, d.toJson()); // the workbench's diagnosis view
    return d;
}

} // namespace probaudit::runner
