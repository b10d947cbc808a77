#include "core/runner/localize.h"

#include "core/analysis/compare.h"
#include "core/common/error.h"
#include "core/engine/engine.h"
#include "core/runner/diagnose_endpoint.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

namespace probaudit::runner {

using analysis::CauseStatus;
using analysis::ItemCause;
using probaudit::OpClass;

namespace {

// The hidden states one pass computed for the sample: [item position][index] -> [T, H] on
// the CPU, in the pass's dtype.
using States = std::vector<std::vector<at::Tensor>>;

// What one pass gave an item: the probability compare() reads and the decision.
struct Outcome {
    double p = 0;
    int decision = -1;
};

// How a config's study run batched the sample's items: the items of those batches (the probe's
// items, ascending), the batches as positions among them in row order, and each position's
// place in the sample (-1: a neighbour, computed as in the study run but not localised).
struct Replay {
    std::vector<std::int64_t> items;
    std::vector<std::vector<std::size_t>> batches;
    std::vector<int> samplePos;
};

Replay replayOf(const std::vector<ledger::Record>& study, const std::vector<std::int64_t>& sample) {
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> byBatch;
    for (const auto& r : study) {
        byBatch[r.batch].emplace_back(r.row, r.item);
    }
    std::map<std::int64_t, bool> wanted; // batch -> holds a sample item
    for (const auto& r : study) {
        if (std::binary_search(sample.begin(), sample.end(), r.item)) {
            wanted[r.batch] = true;
        }
    }
    Replay rp;
    for (const auto& [batch, members] : byBatch) {
        if (wanted.count(batch) != 0) {
            for (const auto& m : members) {
                rp.items.push_back(m.second);
            }
        }
    }
    std::sort(rp.items.begin(), rp.items.end());
    const auto posOf = [&rp](std::int64_t item) {
        return std::size_t(std::lower_bound(rp.items.begin(), rp.items.end(), item) -
                           rp.items.begin());
    };
    for (auto& [batch, members] : byBatch) {
        if (wanted.count(batch) == 0) {
            continue;
        }
        std::sort(members.begin(), members.end());
        std::vector<std::size_t> b;
        for (const auto& m : members) {
            b.push_back(posOf(m.second));
        }
        rp.batches.push_back(b);
    }
    for (std::int64_t item : rp.items) {
        const auto it = std::lower_bound(sample.begin(), sample.end(), item);
        rp.samplePos.push_back(it != sample.end() && *it == item ? int(it - sample.begin()) : -1);
    }
    return rp;
}

using Observe = std::function<void(std::size_t pos, int index, const at::Tensor& state)>;
// The operator classes (engine::opClassBit) of a sample item that a pass computes as A.
using AsA = std::function<std::uint32_t(std::size_t pos)>;
using Replace = std::function<at::Tensor(std::size_t pos, int index)>;

class Localizer {
public:
    Localizer(const LocalizeOptions& o, StudySession& session, const HeadSpec& head)
        : m_o(o), m_session(session), m_study(session.study()), m_head(head),
          m_led(session.ledger()), m_items(m_led.items()) {}

    analysis::Localization run(const std::function<void(const LocalizePlan&)>& onPlan);

private:
    const study::NamedConfig& config(const std::string& name) const;
    void checkPair() const;
    void chooseSample();
    std::vector<const analysis::ItemDiff*> largest(const analysis::Comparison& c) const;
    std::vector<const analysis::ItemDiff*> named(const analysis::Comparison& c) const;
    // One pass under A or B over the batches its study run had for the sample, observing and
    // replacing the sample's states (by sample position); the outcome per sample item.
    std::vector<Outcome> pass(const std::string& label, bool isA, const Observe& observe,
                              const Replace& replace, std::int64_t* probeId = nullptr,
                              const AsA& asA = {});
    std::vector<Outcome> baseline(bool isA, States& states, std::int64_t& probeId,
                                  bool keepStates = true);
    std::vector<Outcome> baselineB(const States& statesA, States& statesB,
                                   std::vector<int>& firstDiff);
    void bisect(const States& statesA, const std::vector<Outcome>& a,
                const std::vector<int>& firstDiff);
    void reverse(const States& statesB, const std::vector<Outcome>& a);
    // One pass per operator class: B with that class computed as A for every item with a
    // difference.
    void classes();
    // One pass for the items no class explains alone: B with a set of classes computed as A
    // (by their single shares, largest first, until those add up to the threshold).
    void classSets();
    // Share of Δp removed when B gives `p` and `decision` instead of its baseline (what is left
    // of the gap to A, on either side of A). Where p cannot measure it (the same p in A and B
    // with other decisions, or a p that is not finite), the decision alone: 1 back to A's, else 0.
    static double removed(const ItemCause& c, double p, int decision) {
        const double gap = std::abs(c.p_b - c.p_a);
        if (!(gap > 0) || !std::isfinite(gap) || !std::isfinite(p)) {
            return decision == c.decision_a ? 1.0 : 0.0;
        }
        return 1.0 - std::abs(p - c.p_a) / gap;
    }

    const LocalizeOptions& m_o;
    StudySession& m_session;
    const study::Study& m_study;
    const HeadSpec& m_head;
    ledger::Ledger& m_led;
    const std::vector<ledger::Item> m_items;
    const study::NamedConfig* m_a = nullptr;
    const study::NamedConfig* m_b = nullptr;
    std::vector<std::int64_t> m_sample;             // ledger item indices, ascending
    std::vector<int> m_class;                       // per item: the class whose p is compared
    std::vector<ledger::Record> m_studyA, m_studyB; // the sample's records in the study runs
    Replay m_replayA, m_replayB;
    analysis::Localization m_l;
    std::vector<ItemCause*> m_byPos; // m_l.items by sample position
};

const study::NamedConfig& Localizer::config(const std::string& name) const {
    const study::NamedConfig* nc = m_study.config(name);
    if (nc == nullptr) {
        throw Error(m_o.run.study, "no config \"" + name + "\"");
    }
    return *nc;
}

// The engine splices only passes it computes itself, of one model and head, in one process.
void Localizer::checkPair() const {
    if (m_a->name == m_b->name) {
        throw Error(m_o.run.study, "A and B are the same config \"" + m_a->name + "\"");
    }
    for (const auto* nc : {m_a, m_b}) {
        if (!nc->config.env.empty()) {
            throw Error(m_o.run.study,
                        "config \"" + nc->name +
                            "\" runs in a Python environment (the transformers runner); "
                            "localize splices the engine's own passes only");
        }
    }
    if (m_a->config.model != m_b->config.model) {
        throw Error(m_o.run.study, "A and B are different model variants (" + m_a->config.model +
                                       ", " + m_b->config.model +
                                       "): their weights differ, so one's hidden states cannot "
                                       "stand in for the other's");
    }
    if (m_a->config.max_length != m_b->config.max_length) {
        throw Error(m_o.run.study, "A and B cut items at different lengths (max_length): their "
                                   "hidden states cannot be spliced token for token");
    }
    if (m_a->config.cpu_capability != m_b->config.cpu_capability) {
        throw Error(m_o.run.study, "A and B run under different CPU capabilities, which need "
                                   "two processes; localize splices within one");
    }
    if (m_a->config.device != m_b->config.device) {
        throw Error(m_o.run.study, "A and B run on different devices (" + m_a->config.device +
                                       ", " + m_b->config.device + ")");
    }
}

void Localizer::chooseSample() {
    const auto runs = m_led.runs();
    std::vector<ledger::Record> studyA, studyB;
    const auto load = [&](const study::NamedConfig& nc, std::vector<ledger::Record>& keep) {
        const auto run = latestFullRun(runs, m_head.name, nc.config.hash(), "", false);
        if (!run) {
            throw Error(m_o.run.study, "config \"" + nc.name + "\" has no finished run of head \"" +
                                           m_head.name + "\": `probaudit run " + m_o.run.study +
                                           "` records it first");
        }
        keep = m_led.records(run->id, false);
        return analysis::RunData{*run, keep};
    };
    const analysis::Comparison c =
        analysis::compare(load(*m_a, studyA), load(*m_b, studyB), m_items);
    std::vector<const analysis::ItemDiff*> chosen = m_o.items.empty() ? largest(c) : named(c);
    std::sort(chosen.begin(), chosen.end(),
              [](const auto* x, const auto* y) { return x->item < y->item; });
    const auto recordOf = [](const std::vector<ledger::Record>& recs, std::int64_t item) {
        return *std::lower_bound(
            recs.begin(), recs.end(), item,
            [](const ledger::Record& r, std::int64_t i) { return r.item < i; });
    };
    for (const auto* d : chosen) {
        ItemCause cause;
        cause.item = d->item;
        cause.id = m_items.at(std::size_t(d->item)).id;
        cause.study_dp = d->exact() ? d->dp : 0;
        cause.study_flip = d->flip;
        m_sample.push_back(d->item);
        m_l.items.push_back(cause);
        m_studyA.push_back(recordOf(studyA, d->item));
        m_studyB.push_back(recordOf(studyB, d->item));
        const auto& ra = m_studyA.back();
        m_class.push_back(ra.probs.size() == 2 ? 1 : ra.decision);
    }
    for (auto& cause : m_l.items) {
        m_byPos.push_back(&cause);
    }
    m_replayA = replayOf(studyA, m_sample);
    m_replayB = replayOf(studyB, m_sample);
}

// The items to localise by default: B's flips, then the largest Δp, up to the sample size.
std::vector<const analysis::ItemDiff*> Localizer::largest(const analysis::Comparison& c) const {
    std::vector<const analysis::ItemDiff*> chosen;
    for (const auto& d : c.diffs) {
        if (d.decision_a < 0 || d.decision_b < 0 || !d.exact()) {
            continue; // no decision or no p to localise (non-finite logits, a missing label)
        }
        if (d.flip || d.dp > 0) {
            chosen.push_back(&d);
        }
    }
    std::stable_sort(chosen.begin(), chosen.end(), [](const auto* x, const auto* y) {
        return x->flip != y->flip ? x->flip : x->dpOrder() > y->dpOrder();
    });
    if (chosen.empty()) {
        throw Error(m_o.run.study, "\"" + m_a->name + "\" and \"" + m_b->name +
                                       "\" give every item the same probabilities: nothing "
                                       "to localise");
    }
    chosen.resize(std::min(chosen.size(), std::size_t(std::max(1, m_o.sample))));
    return chosen;
}

// The items named with --items, each recorded in both study runs.
std::vector<const analysis::ItemDiff*> Localizer::named(const analysis::Comparison& c) const {
    std::map<std::string, std::int64_t> byId;
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        byId[m_items[i].id] = std::int64_t(i);
    }
    std::vector<const analysis::ItemDiff*> chosen;
    for (const auto& id : m_o.items) {
        const auto it = byId.find(id);
        if (it == byId.end()) {
            throw Error(m_o.run.study, "no item \"" + id + "\" in the study");
        }
        const auto d = std::find_if(c.diffs.begin(), c.diffs.end(),
                                    [&](const auto& x) { return x.item == it->second; });
        if (d == c.diffs.end()) {
            throw Error(m_o.run.study, "item \"" + id + "\" is not recorded in both runs");
        }
        if (d->decision_a < 0 || d->decision_b < 0 || !d->exact()) {
            throw Error(m_o.run.study, "item \"" + id +
                                           "\" has no decision or no probability in one of the "
                                           "runs: there is nothing to localise");
        }
        if (std::find(chosen.begin(), chosen.end(), &*d) == chosen.end()) {
            chosen.push_back(&*d);
        }
    }
    return chosen;
}

std::vector<Outcome> Localizer::pass(const std::string& label, bool isA, const Observe& observe,
                                     const Replace& replace, std::int64_t* probeId,
                                     const AsA& asA) {
    const Replay& rp = isA ? m_replayA : m_replayB;
    engine::Counterfactual cf;
    cf.batches = rp.batches;
    if (asA) {
        cf.other = m_a->config;
        cf.asOther = [&](std::size_t u) {
            return rp.samplePos[u] >= 0 ? asA(std::size_t(rp.samplePos[u])) : 0;
        };
    }
    if (observe) {
        cf.observe = [&](std::size_t u, int index, const at::Tensor& state) {
            if (rp.samplePos[u] >= 0) {
                observe(std::size_t(rp.samplePos[u]), index, state);
            }
        };
    }
    if (replace) {
        cf.replace = [&](std::size_t u, int index) {
            return rp.samplePos[u] >= 0 ? replace(std::size_t(rp.samplePos[u]), index)
                                        : at::Tensor();
        };
    }
    engine::Engine& eng = m_session.engine(m_head, m_a->config.model);
    struct Reset {
        engine::Engine& e;
        ~Reset() { e.setCounterfactual(nullptr); }
    } reset{eng};
    eng.setCounterfactual(&cf);
    RunRequest req;
    req.head = &m_head;
    req.configName = "probe";
    req.config = (isA ? m_a : m_b)->config;
    req.capture = "hashes";
    req.kind = RunKind::Probe;
    req.label = "localize " + m_l.config_a + " vs " + m_l.config_b + ": " + label;
    req.items = rp.items;
    eng.prepare(req.config); // a model converted for another dtype is not the pass's time
    const auto t0 = std::chrono::steady_clock::now();
    const RunOutcome out = m_session.record(req);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (out.cancelled) {
        throw Error("stopped by a signal");
    }
    m_l.seconds += seconds;
    ++m_l.passes;
    m_l.probes.push_back(out.id);
    if (probeId != nullptr) {
        *probeId = out.id;
    }
    const bool baseline = !replace && !asA;
    if (!isA && baseline) {
        m_l.baseline_b_seconds = seconds;
    }
    std::vector<Outcome> outcomes(m_sample.size());
    for (const auto& r : m_led.records(out.id, false)) {
        const auto it = std::lower_bound(m_sample.begin(), m_sample.end(), r.item);
        if (it == m_sample.end() || *it != r.item) {
            continue; // a neighbour
        }
        const auto pos = std::size_t(it - m_sample.begin());
        const auto cls = std::size_t(m_class[pos]);
        outcomes[pos] = {cls < r.probs.size() ? double(r.probs[cls]) : NAN, r.decision};
        const auto& study = (isA ? m_studyA : m_studyB)[pos];
        if (baseline && r.probs == study.probs) {
            ++(isA ? m_l.replayed_a : m_l.replayed_b); // the baseline repeats the study's bits
        }
    }
    return outcomes;
}

std::vector<Outcome> Localizer::baseline(bool isA, States& states, std::int64_t& probeId,
                                         bool keepStates) {
    states.assign(m_sample.size(), std::vector<at::Tensor>(std::size_t(m_l.layers + 1)));
    const Observe keep = [&states](std::size_t pos, int index, const at::Tensor& state) {
        states.at(pos).at(std::size_t(index)) = state.to(at::kCPU).clone();
    };
    return pass(keepStates ? (isA ? "A in its study batches, its hidden states kept"
                                  : "B in its study batches, its hidden states kept")
                           : "B in its study batches",
                isA, keepStates ? keep : Observe(), nullptr, &probeId);
}

// The same dtype, shape and bytes (at::equal compares values: -0.0 == 0.0).
bool sameBits(const at::Tensor& x, const at::Tensor& y) {
    if (x.scalar_type() != y.scalar_type() || !x.sizes().equals(y.sizes())) {
        return false;
    }
    const at::Tensor a = x.contiguous(), b = y.contiguous();
    return std::memcmp(a.data_ptr(), b.data_ptr(), std::size_t(a.nbytes())) == 0;
}

// B's baseline, noting per item the first hidden index whose state is not A's bit for bit (a
// splice before it changes nothing, so the bisection starts there; none: L + 1).
std::vector<Outcome> Localizer::baselineB(const States& statesA, States& statesB,
                                          std::vector<int>& firstDiff) {
    firstDiff.assign(m_sample.size(), m_l.layers + 1);
    statesB.assign(m_sample.size(), std::vector<at::Tensor>(std::size_t(m_l.layers + 1)));
    const Observe compare = [&](std::size_t pos, int index, const at::Tensor& state) {
        const at::Tensor mine = state.to(at::kCPU);
        const at::Tensor& theirs = statesA.at(pos).at(std::size_t(index));
        if (index < firstDiff[pos] && !sameBits(mine, theirs)) {
            firstDiff[pos] = index;
        }
        if (m_o.reverse) {
            statesB.at(pos).at(std::size_t(index)) = mine.clone();
        }
    };
    return pass(m_o.reverse ? "B in its study batches, its hidden states kept"
                            : "B in its study batches, its hidden states compared with A's",
                false, compare, nullptr, &m_l.probe_b);
}

void Localizer::bisect(const States& statesA, const std::vector<Outcome>& a,
                       const std::vector<int>& firstDiff) {
    const int L = m_l.layers;
    std::vector<int> lo(firstDiff), hi(m_sample.size(), L + 1), mid(m_sample.size(), -1);
    for (std::size_t k = 0; k < m_sample.size(); ++k) {
        if (m_byPos[k]->status == CauseStatus::NoDifference) {
            lo[k] = hi[k]; // nothing to find
        }
    }
    for (int step = 1;; ++step) {
        bool any = false;
        for (std::size_t k = 0; k < m_sample.size(); ++k) {
            mid[k] = lo[k] < hi[k] ? (lo[k] + hi[k]) / 2 : -1;
            any = any || mid[k] >= 0;
        }
        if (!any) {
            break;
        }
        const Replace fromA = [&](std::size_t pos, int index) {
            return index == mid[pos] ? statesA[pos][std::size_t(index)] : at::Tensor();
        };
        const auto out =
            pass("B with A's state after a layer, bisection step " + std::to_string(step), false,
                 nullptr, fromA);
        for (std::size_t k = 0; k < m_sample.size(); ++k) {
            if (mid[k] < 0) {
                continue;
            }
            ItemCause& c = *m_byPos[k];
            const double share = removed(c, out[k].p, out[k].decision);
            c.evaluated.push_back({mid[k], share, out[k].decision});
            const bool back = share >= m_o.threshold &&
                              (c.decision_a == c.decision_b || out[k].decision == a[k].decision);
            (back ? hi[k] : lo[k]) = back ? mid[k] : mid[k] + 1;
        }
    }
    for (std::size_t k = 0; k < m_sample.size(); ++k) {
        ItemCause& c = *m_byPos[k];
        if (c.status == CauseStatus::NoDifference) {
            continue;
        }
        const auto at = [&](int index) {
            for (const auto& p : c.evaluated) {
                if (p.index == index) {
                    return p.removed;
                }
            }
            return 0.0;
        };
        c.complete_by = lo[k] <= L ? lo[k] : -1;
        c.status = lo[k] <= L ? CauseStatus::Localised : CauseStatus::InTheHead;
        c.removed = at(std::min(lo[k], L));
        c.removed_before = lo[k] > 0 ? at(lo[k] - 1) : 0;
    }
}

void Localizer::reverse(const States& statesB, const std::vector<Outcome>& a) {
    bool any = false;
    for (const auto* c : m_byPos) {
        any = any || c->status == CauseStatus::Localised;
    }
    if (!any) {
        return;
    }
    const Replace fromB = [&](std::size_t pos, int index) {
        const ItemCause& c = *m_byPos[pos];
        return c.status == CauseStatus::Localised && index == c.complete_by
                   ? statesB[pos][std::size_t(index)]
                   : at::Tensor();
    };
    const auto out =
        pass("A with B's state after the layer Δp is complete by (reverse)", true, nullptr, fromB);
    for (std::size_t k = 0; k < m_sample.size(); ++k) {
        ItemCause& c = *m_byPos[k];
        if (c.status == CauseStatus::Localised) {
            const double gap = c.p_b - c.p_a;
            c.reproduced = gap != 0 && std::isfinite(gap) && std::isfinite(out[k].p)
                               ? (out[k].p - a[k].p) / gap // signed: toward B
                               : (out[k].decision == c.decision_b ? 1.0 : 0.0);
            c.reverse_decision = out[k].decision;
        }
    }
}

void Localizer::classes() {
    bool any = false;
    for (const auto* c : m_byPos) {
        any = any || c->status != CauseStatus::NoDifference;
    }
    for (int k = 0; any && k < kOpClassCount; ++k) {
        const auto cls = static_cast<OpClass>(k);
        const AsA asA = [&](std::size_t pos) {
            return m_byPos[pos]->status != CauseStatus::NoDifference ? engine::opClassBit(cls) : 0;
        };
        const auto out = pass("B with " + analysis::opClassTitle(cls) + " computed as A", false,
                              nullptr, nullptr, nullptr, asA);
        for (std::size_t i = 0; i < m_sample.size(); ++i) {
            ItemCause& c = *m_byPos[i];
            if (c.status != CauseStatus::NoDifference) {
                c.classes.push_back(
                    {cls, removed(c, out[i].p, out[i].decision), out[i].decision, out[i].p});
            }
        }
    }
    for (auto* c : m_byPos) {
        analysis::chooseCause(*c, m_o.threshold);
    }
}

void Localizer::classSets() {
    std::vector<std::uint32_t> masks(m_sample.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i < m_sample.size(); ++i) {
        ItemCause& c = *m_byPos[i];
        c.cause_set = analysis::classSetToTry(c, m_o.threshold);
        for (OpClass k : c.cause_set) {
            masks[i] |= engine::opClassBit(k);
        }
        any = any || masks[i] != 0;
    }
    if (!any) {
        return;
    }
    const auto out = pass("B with a set of operator classes computed as A", false, nullptr, nullptr,
                          nullptr, [&](std::size_t pos) { return masks[pos]; });
    for (std::size_t i = 0; i < m_sample.size(); ++i) {
        ItemCause& c = *m_byPos[i];
        if (masks[i] != 0) {
            c.set_removed = removed(c, out[i].p, out[i].decision);
            c.set_decision = out[i].decision;
            c.set_explains = c.set_removed >= m_o.threshold &&
                             (c.decision_a == c.decision_b || c.set_decision == c.decision_a);
        }
    }
}

analysis::Localization Localizer::run(const std::function<void(const LocalizePlan&)>& onPlan) {
    m_a = &config(m_o.a.empty() ? m_study.reference : m_o.a);
    m_b = &config(m_o.b);
    checkPair();
    m_l.study = m_study.name;
    m_l.head = m_head.name;
    m_l.config_a = m_a->name;
    m_l.config_b = m_b->name;
    m_l.threshold = m_o.threshold;
    m_l.reverse = m_o.reverse;
    const engine::Engine& eng = m_session.engine(m_head, m_a->config.model);
    m_l.layers = int(eng.checkpoint().spec().num_layers);
    m_l.final_norm = eng.checkpoint().spec().family == model::Family::Llama;
    chooseSample();
    if (onPlan) {
        onPlan({m_a->name, m_b->name, std::int64_t(m_sample.size()), m_l.layers,
                analysis::Localization::passBudget(m_l.layers, m_o.reverse), m_o.reverse});
    }
    States statesA, statesB;
    const auto a = baseline(true, statesA, m_l.probe_a);
    std::vector<int> firstDiff;
    const auto b = baselineB(statesA, statesB, firstDiff);
    for (std::size_t k = 0; k < m_sample.size(); ++k) {
        ItemCause& c = *m_byPos[k];
        c.p_a = a[k].p;
        c.p_b = b[k].p;
        c.decision_a = a[k].decision;
        c.decision_b = b[k].decision;
        c.status = c.p_a == c.p_b && c.decision_a == c.decision_b ? CauseStatus::NoDifference
                                                                  : CauseStatus::Localised;
    }
    bisect(statesA, a, firstDiff);
    statesA.clear(); // nothing after the bisection reads A's states
    classes();
    classSets();
    if (m_o.reverse) {
        reverse(statesB, a);
    }
    return m_l;
}

// The head localised: named, or the study's first; decision heads only.
const HeadSpec& localizedHead(const LocalizeOptions& o, const study::Study& s) {
    return decisionHead(s, o.run.study, o.head,
                        "localize explains decision heads; a generation head's differences are "
                        "in `probaudit summary`");
}

} // namespace

analysis::Localization localize(const LocalizeOptions& o, Events& events,
                                const std::atomic<bool>& stop,
                                const std::function<void(const LocalizePlan&)>& onPlan) {
    if (o.b.empty()) {
        throw Error(o.run.study, "localize needs config B (--b NAME)");
    }
    if (!(o.threshold > 0 && o.threshold <= 1)) {
        throw Error("the share to remove must be in (0, 1]");
    }
    const study::Study loaded = study::Study::load(o.run.study);
    localizedHead(o, loaded);
    if (loaded.isEndpoint()) {
        throw Error(o.run.study, "the study's model is a server: localize splices the "
                                 "engine's own forward passes, which a server does not expose");
    }
    // Only A and B are prepared (a study's other environments are not started).
    RunOptions run = o.run;
    run.configs = {o.a.empty() ? loaded.reference : o.a, o.b};
    StudySession session(run, events, stop);
    return localizeIn(session, *session.study().head(localizedHead(o, loaded).name), o, onPlan);
}

analysis::Localization localizeIn(StudySession& session, const HeadSpec& head,
                                  const LocalizeOptions& o,
                                  const std::function<void(const LocalizePlan&)>& onPlan) {
    analysis::Localization l;
    try {
        l = Localizer(o, session, head).run(onPlan);
    } catch (const std::exception& e) {
        session.markFailed(e.what()); // a pass cut off is marked, not left running
        throw;
    }
    session.ledger().putLocalization(head.name, l.config_a, l.config_b, l.toJson());
    return l;
}

} // namespace probaudit::runner
