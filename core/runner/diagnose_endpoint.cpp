#include "core/runner/diagnose_endpoint.h"

#include "core/analysis/compare.h"
#include "core/analysis/fingerprint.h"
#include "core/common/error.h"
#include "core/common/vocabulary.h"

#include <algorithm>
#include <map>
#include <set>

namespace probaudit::runner {

using analysis::Comparison;
using analysis::StepStatus;
using nlohmann::json;

namespace {

// The axes of an endpoint config that change how requests reach the server.
bool servingAxis(const std::string& axis) {
    return axis == "concurrency" || axis == "arrival_seed" || axis == "prefix_cache" ||
           axis == "seed";
}

std::string suspectOfEndpointAxis(const std::string& axis) {
    return axis == "repeat" ? "repeatability" : servingAxis(axis) ? "serving" : "runtime";
}

// No layers are captured from a server: a gap and its flips are the whole evidence.
std::string servedEvidence(const Comparison& c) {
    if (c.bit_identical_share == 1) {
        return "bit-identical";
    }
    return analysis::formatPoints(c.max_dp) + " points" +
           (c.flips > 0 ? ", " + std::to_string(c.flips) + " flipped" : "") + ", " +
           std::to_string(analysis::bitIdenticalItems(c)) + " of " + std::to_string(c.items) +
           " bit-identical";
}

std::string shortValue(const json& v) {
    if (v.is_null()) {
        return "absent";
    }
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// What a step says when nothing recorded answers it, when it moves the numbers, when it does not.
struct Verdicts {
    const char* untestedFinding;
    const char* untested;
    const char* moved;
    const char* clean;
};

analysis::LadderStep conclude(const std::string& step, const std::string& finding, bool moved,
                              const Verdicts& v) {
    if (finding.empty()) {
        return {step, v.untestedFinding, v.untested, StepStatus::Untested};
    }
    return {step, finding, moved ? v.moved : v.clean,
            moved ? StepStatus::Explains : StepStatus::Clean};
}

// Only recorded runs: the probes of a server would be more configs of the study itself.
class EndpointLadder {
public:
    EndpointLadder(const DiagnoseOptions& o, const study::Study& s, const HeadSpec& head,
                   ledger::Ledger& led)
        : m_o(o), m_study(s), m_head(head), m_ref(s.config(s.reference)->config), m_led(led),
          m_items(led.items()), m_runs(led.runs()) {}

    analysis::Diagnosis run();

private:
    // The latest finished study run of `configHash` for this head: from `env` when `sameEnv`,
    // else from `env` when there is one there.
    std::optional<ledger::Run> fullRun(const std::string& configHash, const std::string& env,
                                       bool sameEnv) const;
    // The runtime most of the head's runs were recorded in (ties: the latest reference run's).
    std::string mainRuntime() const;
    analysis::RunData load(std::int64_t id) const {
        return analysis::RunData{m_led.run(id), m_led.records(id, true)};
    }
    Comparison compareTo(const std::string& step, const std::string& what, std::int64_t b) {
        Comparison c = analysis::compare(load(m_refRun.id), load(b), m_items);
        m_d.table.push_back(analysis::probeRow(step, what, c));
        return c;
    }
    // The configs of the study that differ from the reference in `pick`'s axes only.
    std::vector<const study::NamedConfig*>
    configsDiffering(bool (*pick)(const std::vector<std::string>&)) const;
    // The differences between two runs' environments that can move the numbers.
    std::vector<analysis::EnvDifference> numericsChanges(const std::string& envA,
                                                         const std::string& envB) const;
    std::string runtimeChanges(const std::string& envA, const std::string& envB) const;
    void repeatStep();
    void servingStep();
    void runtimeStep();
    void explainConfigs();

    const DiagnoseOptions& m_o;
    const study::Study& m_study;
    const HeadSpec& m_head;
    const RunConfig m_ref;
    ledger::Ledger& m_led;
    const std::vector<ledger::Item> m_items;
    const std::vector<ledger::Run> m_runs;
    ledger::Run m_refRun;
    analysis::Diagnosis m_d;
};

std::optional<ledger::Run> EndpointLadder::fullRun(const std::string& configHash,
                                                   const std::string& env, bool sameEnv) const {
    return latestFullRun(m_runs, m_head.name, configHash, env, sameEnv);
}

std::string EndpointLadder::mainRuntime() const {
    std::map<std::string, int> count;
    std::string latestRef;
    for (const auto& r : m_runs) {
        if (r.kind == RunKind::Study && r.status == ledger::RunStatus::Finished &&
            r.head == m_head.name) {
            ++count[r.env_hash];
            if (r.config_hash == m_ref.hash()) {
                latestRef = r.env_hash;
            }
        }
    }
    std::string best = latestRef;
    for (const auto& [env, n] : count) {
        if (n > count[best]) {
            best = env;
        }
    }
    return best;
}

std::vector<const study::NamedConfig*>
EndpointLadder::configsDiffering(bool (*pick)(const std::vector<std::string>&)) const {
    std::vector<const study::NamedConfig*> out;
    for (const auto& nc : m_study.configs) {
        const auto diff = m_ref.differences(nc.config);
        if (nc.name != m_study.reference && !diff.empty() && pick(diff)) {
            out.push_back(&nc);
        }
    }
    return out;
}

// The differences between two runs' environments that can move the numbers, named with their
// values: "server.system_fingerprint b4000 -> b4100".
std::vector<analysis::EnvDifference>
EndpointLadder::numericsChanges(const std::string& envA, const std::string& envB) const {
    auto diff = analysis::fingerprintDiff(m_led.environment(envA), m_led.environment(envB));
    diff.erase(std::remove_if(diff.begin(), diff.end(),
                              [](const analysis::EnvDifference& d) { return !d.moves_numerics; }),
               diff.end());
    return diff;
}

std::string EndpointLadder::runtimeChanges(const std::string& envA, const std::string& envB) const {
    std::string out;
    for (const auto& d : numericsChanges(envA, envB)) {
        out += (out.empty() ? "" : "; ") + d.path + " " + shortValue(d.pinned) + " -> " +
               shortValue(d.current);
    }
    return out.empty() ? "no setting that moves the numbers" : out;
}

// 1. Does the server repeat itself at the reference's settings?
void EndpointLadder::repeatStep() {
    std::string finding;
    bool moved = false;
    for (const auto& r : m_runs) { // the reference config recorded again, same environment
        if (r.id != m_refRun.id && r.kind == RunKind::Study &&
            r.status == ledger::RunStatus::Finished && r.head == m_head.name &&
            r.config_hash == m_refRun.config_hash && r.env_hash == m_refRun.env_hash) {
            const auto c = compareTo("repeatability",
                                     "reference again (run " + std::to_string(r.id) + ")", r.id);
            moved = moved || c.bit_identical_share < 1;
            finding += (finding.empty() ? "" : "; ") + std::string("run ") + std::to_string(r.id) +
                       ": " + servedEvidence(c);
        }
    }
    for (const auto* nc : configsDiffering([](const std::vector<std::string>& d) {
             return d == std::vector<std::string>{"repeat"};
         })) {
        if (const auto run = fullRun(nc->config.hash(), m_refRun.env_hash, true)) {
            const auto c = compareTo("repeatability", nc->name, run->id);
            moved = moved || c.bit_identical_share < 1;
            finding += (finding.empty() ? "" : "; ") + nc->name + ": " + servedEvidence(c);
        }
    }
    if (finding.empty()) {
        m_d.ladder.push_back({"repeatability", "no repeat of the reference is recorded",
                              "not judged: add a config like the reference with \"repeat\": 1 "
                              "and run it",
                              StepStatus::Untested});
    } else if (moved) {
        m_d.ladder.push_back({"repeatability", finding,
                              "the server does not repeat itself at the reference's settings: "
                              "every other difference is measured against this noise",
                              StepStatus::Stop});
        m_d.stopped_at = "repeatability";
    } else {
        m_d.ladder.push_back(
            {"repeatability", finding, "the server repeats itself", StepStatus::Clean});
    }
}

// 2. Concurrency, arrival order, prefix cache and seed: how the requests reach the server.
void EndpointLadder::servingStep() {
    std::string finding;
    bool moved = false;
    for (const auto* nc : configsDiffering([](const std::vector<std::string>& d) {
             return std::all_of(
                        d.begin(), d.end(),
                        [](const std::string& a) { return servingAxis(a) || a == "repeat"; }) &&
                    d != std::vector<std::string>{"repeat"};
         })) {
        const auto run = fullRun(nc->config.hash(), m_refRun.env_hash, true);
        std::string what = nc->name + " (";
        for (const auto& a : m_ref.differences(nc->config)) {
            what += (what.back() == '(' ? "" : ", ") + a;
        }
        what += ")";
        if (!run) {
            finding += (finding.empty() ? "" : "; ") + what + ": not recorded in this runtime";
            continue;
        }
        const auto c = compareTo("serving", what, run->id);
        moved = moved || c.bit_identical_share < 1;
        finding += (finding.empty() ? "" : "; ") + what + ": " + servedEvidence(c);
    }
    m_d.ladder.push_back(conclude(
        "serving", finding, moved,
        {"no config changes only concurrency, arrival order, prefix cache or seed",
         "not judged: add one (\"concurrency\": 4) to see whether the server's batching moves "
         "the numbers",
         "how requests reach the server moves the numbers: its batching is not batch-invariant",
         "how requests reach the server does not move the numbers"}));
}

// 3. The reference config recorded against another server build, model or declared setting.
void EndpointLadder::runtimeStep() {
    std::string finding;
    bool moved = false;
    std::set<std::string> seen{m_refRun.env_hash};
    for (const auto& r : m_runs) {
        if (r.kind == RunKind::Study && r.status == ledger::RunStatus::Finished &&
            r.head == m_head.name && r.config_hash == m_refRun.config_hash &&
            seen.insert(r.env_hash).second) {
            // Named in the order the runs were recorded: "labels.server A -> B".
            const bool earlier = r.id < m_refRun.id;
            const std::string changes = earlier ? runtimeChanges(r.env_hash, m_refRun.env_hash)
                                                : runtimeChanges(m_refRun.env_hash, r.env_hash);
            const std::string runs = earlier ? "run " + std::to_string(r.id) + " -> reference"
                                             : "reference -> run " + std::to_string(r.id);
            const auto c = compareTo("environment", runs + ": " + changes, r.id);
            moved = moved || c.bit_identical_share < 1;
            finding +=
                (finding.empty() ? "" : "; ") + runs + " (" + changes + "): " + servedEvidence(c);
        }
    }
    m_d.ladder.push_back(conclude(
        "runtime", finding, moved,
        {"every run of the reference has the same server runtime",
         "not judged: record the reference again after a server upgrade or a changed server "
         "setting (declare it in $.model.labels)",
         "the server's runtime moves the numbers: pin it (server build, model, declared settings)",
         "the runtime change does not move the numbers"}));
}

void EndpointLadder::explainConfigs() {
    const auto refData = load(m_refRun.id);
    for (const auto& nc : m_study.configs) {
        if (nc.name == m_study.reference) {
            continue;
        }
        analysis::ConfigExplanation row;
        row.config = nc.name;
        row.differs_in = m_ref.differences(nc.config);
        std::set<std::string> suspects;
        for (const auto& a : row.differs_in) {
            suspects.insert(suspectOfEndpointAxis(a));
        }
        if (const auto run = fullRun(nc.config.hash(), m_refRun.env_hash, false)) {
            const Comparison full = analysis::compare(refData, load(run->id), m_items);
            if (run->env_hash != m_refRun.env_hash &&
                !numericsChanges(m_refRun.env_hash, run->env_hash).empty()) {
                suspects.insert("runtime");
            }
            row.result = analysis::ConfigResult{
                run->id,        full.flips,      full.max_dp,    full.bit_identical_share,
                "not captured", full.accuracy_a, full.accuracy_b};
        }
        row.suspects.assign(suspects.begin(), suspects.end());
        m_d.configs.push_back(row);
    }
}

analysis::Diagnosis EndpointLadder::run() {
    m_d.study = m_study.name;
    m_d.head = m_head.name;
    m_d.reference = m_study.reference;
    m_d.recorded_only = true;
    m_d.sample = std::int64_t(m_items.size()); // every item: the runs are the study's own
    // The reference run the others are explained against: the latest of the runtime most runs
    // were recorded in, so that the repeat and serving steps compare within one runtime.
    auto ref = fullRun(m_ref.hash(), mainRuntime(), true);
    if (!ref) {
        ref = fullRun(m_ref.hash(), "", false);
    }
    if (!ref) {
        throw Error(m_o.run.study, "no finished run of the reference config \"" +
                                       m_study.reference + "\" for head \"" + m_head.name +
                                       "\": an endpoint study is diagnosed from its recorded "
                                       "runs; `probaudit run` records them");
    }
    m_refRun = *ref;
    m_d.reference_run = m_refRun.id;
    repeatStep();
    if (!m_d.stopped_at) {
        servingStep();
        runtimeStep();
    }
    explainConfigs();
    return m_d;
}

} // namespace

std::optional<ledger::Run> latestFullRun(const std::vector<ledger::Run>& runs,
                                         const std::string& head, const std::string& configHash,
                                         const std::string& env, bool sameEnv) {
    std::optional<ledger::Run> found;
    for (const auto& r : runs) {
        if (r.kind == RunKind::Study && r.status == ledger::RunStatus::Finished && r.head == head &&
            r.config_hash == configHash && (!sameEnv || r.env_hash == env) &&
            (!found || found->env_hash != env || r.env_hash == env)) {
            found = r;
        }
    }
    return found;
}

analysis::Diagnosis diagnoseEndpoint(const DiagnoseOptions& o, const study::Study& s,
                                     const HeadSpec& head, ledger::Ledger& led) {
    return EndpointLadder(o, s, head, led).run();
}

} // namespace probaudit::runner
