#include "core/analysis/diagnosis.h"

#include "core/common/axes.h"
#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>

namespace probaudit::analysis {

using nlohmann::json;

std::string_view statusName(StepStatus s) {
    switch (s) {
    case StepStatus::Explains:
        return "explains";
    case StepStatus::Stop:
        return "stop";
    case StepStatus::Untested:
        return "untested";
    case StepStatus::Clean:
        break;
    }
    return "clean";
}

namespace {

StepStatus statusFromName(const std::string& s) {
    if (s == "explains") {
        return StepStatus::Explains;
    }
    if (s == "stop") {
        return StepStatus::Stop;
    }
    if (s == "untested") {
        return StepStatus::Untested;
    }
    return StepStatus::Clean;
}

json optional(const std::optional<double>& v) {
    return v ? json(*v) : json();
}

template <typename T> T get(const json& j, const char* key, T fallback) {
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) {
        return fallback;
    }
    try {
        return j[key].get<T>();
    } catch (const json::exception&) {
        throw Error(std::string("the stored diagnosis has a malformed \"") + key + "\"");
    }
}

const json& array(const json& j, const char* key) {
    static const json empty = json::array();
    if (!j.is_object() || !j.contains(key) || j[key].is_null()) {
        return empty;
    }
    if (!j[key].is_array()) {
        throw Error(std::string("the stored diagnosis has a malformed \"") + key + "\"");
    }
    return j[key];
}

json stepJson(const LadderStep& s) {
    return {{"step", s.step},
            {"finding", s.finding},
            {"verdict", s.verdict},
            {"status", std::string(statusName(s.status))}};
}

json rowJson(const ProbeRow& r) {
    return {{"step", r.step},
            {"what", r.what},
            {"run_a", r.run_a},
            {"run_b", r.run_b},
            {"items", r.items},
            {"max_dp", r.max_dp},
            {"flips", r.flips},
            {"first_layer", r.first_layer},
            {"bit_identical", r.bit_identical}};
}

json configJson(const ConfigExplanation& c) {
    json row{{"config", c.config}, {"differs_in", c.differs_in}, {"suspects", c.suspects}};
    if (!c.environment.empty()) { // absent without: earlier diagnoses keep their form
        row["environment"] = c.environment;
    }
    if (c.result) {
        const ConfigResult& r = *c.result;
        row.update({{"run", r.run},
                    {"flips", r.flips},
                    {"max_dp", r.max_dp},
                    {"bit_identical", r.bit_identical},
                    {"first_layer", r.first_layer},
                    {"accuracy_ref", optional(r.accuracy_ref)},
                    {"accuracy", optional(r.accuracy)}});
    }
    return row;
}

json forecastJson(const FlipForecast& f) {
    json j{{"config", f.config}, {"predicted_flips", f.predicted_flips}, {"sample", f.sample}};
    if (f.observed_flips) {
        j["observed_flips"] = *f.observed_flips;
    }
    return j;
}

json causeJson(const ConfigCause& c) {
    json j{{"config", c.config}};
    if (c.localization) {
        j["localization"] = c.localization->toJson();
    } else {
        j["not_localised"] = c.not_localised;
    }
    return j;
}

} // namespace

json Diagnosis::toJson() const {
    json steps = json::array(), rows = json::array(), cfgs = json::array(), fc = json::array();
    for (const auto& s : ladder) {
        steps.push_back(stepJson(s));
    }
    for (const auto& r : table) {
        rows.push_back(rowJson(r));
    }
    for (const auto& c : configs) {
        cfgs.push_back(configJson(c));
    }
    for (const auto& f : forecast) {
        fc.push_back(forecastJson(f));
    }
    json out = {
        {"study", study},         {"head", head},
        {"reference", reference}, {"sample", sample},
        {"batch", batch},         {"seed", seed},
        {"ladder", steps},        {"stopped_at", stopped_at ? json(*stopped_at) : json()},
        {"table", rows},          {"configs", cfgs},
        {"forecast", fc},         {"reference_run", reference_run ? json(*reference_run) : json()}};
    if (recorded_only) {
        out["recorded_only"] = true; // absent for the engine's ladder: its JSON is as it was
    }
    if (!causes.empty()) {
        json cs = json::array();
        for (const auto& c : causes) {
            cs.push_back(causeJson(c));
        }
        out["causes"] = cs;
        out["cause_sample"] = cause_sample;
    }
    return out;
}

Diagnosis Diagnosis::fromJson(const json& j) {
    if (!j.is_object()) {
        throw Error("the stored diagnosis is not a JSON object");
    }
    Diagnosis d;
    d.study = get<std::string>(j, "study", "");
    d.head = get<std::string>(j, "head", "");
    d.reference = get<std::string>(j, "reference", "");
    d.sample = get<std::int64_t>(j, "sample", 0);
    d.batch = get<std::int64_t>(j, "batch", 0);
    d.seed = get<std::uint64_t>(j, "seed", 0);
    d.recorded_only = get<bool>(j, "recorded_only", false);
    for (const auto& s : array(j, "ladder")) {
        d.ladder.push_back({get<std::string>(s, "step", ""), get<std::string>(s, "finding", ""),
                            get<std::string>(s, "verdict", ""),
                            statusFromName(get<std::string>(s, "status", "clean"))});
    }
    if (j.contains("stopped_at") && !j["stopped_at"].is_null()) {
        d.stopped_at = get<std::string>(j, "stopped_at", "");
    }
    for (const auto& r : array(j, "table")) {
        d.table.push_back({get<std::string>(r, "step", ""), get<std::string>(r, "what", ""),
                           get<std::int64_t>(r, "run_a", -1), get<std::int64_t>(r, "run_b", -1),
                           get<std::int64_t>(r, "items", 0), get<double>(r, "max_dp", 0.0),
                           get<std::string>(r, "first_layer", ""), get<std::int64_t>(r, "flips", 0),
                           get<double>(r, "bit_identical", 0.0)});
    }
    for (const auto& c : array(j, "configs")) {
        ConfigExplanation e{get<std::string>(c, "config", ""),
                            get<std::vector<std::string>>(c, "differs_in", {}),
                            get<std::vector<std::string>>(c, "suspects", {}), std::nullopt,
                            get<std::vector<std::string>>(c, "environment", {})};
        if (c.contains("run")) {
            ConfigResult r;
            r.run = get<std::int64_t>(c, "run", 0);
            r.flips = get<std::int64_t>(c, "flips", 0);
            r.max_dp = get<double>(c, "max_dp", 0.0);
            r.bit_identical = get<double>(c, "bit_identical", 0.0);
            r.first_layer = get<std::string>(c, "first_layer", "");
            if (c.contains("accuracy_ref") && !c["accuracy_ref"].is_null()) {
                r.accuracy_ref = get<double>(c, "accuracy_ref", 0.0);
            }
            if (c.contains("accuracy") && !c["accuracy"].is_null()) {
                r.accuracy = get<double>(c, "accuracy", 0.0);
            }
            e.result = r;
        }
        d.configs.push_back(std::move(e));
    }
    for (const auto& f : array(j, "forecast")) {
        FlipForecast x{get<std::string>(f, "config", ""), get<double>(f, "predicted_flips", 0.0),
                       get<std::int64_t>(f, "sample", 0), std::nullopt};
        if (f.contains("observed_flips") && !f["observed_flips"].is_null()) {
            x.observed_flips = get<std::int64_t>(f, "observed_flips", 0);
        }
        d.forecast.push_back(std::move(x));
    }
    if (j.contains("reference_run") && !j["reference_run"].is_null()) {
        d.reference_run = get<std::int64_t>(j, "reference_run", 0);
    }
    d.cause_sample = get<std::int64_t>(j, "cause_sample", 0);
    for (const auto& c : array(j, "causes")) { // absent in diagnoses made before the rung
        if (!c.is_object()) {
            throw Error("the stored diagnosis's \"causes\" holds an entry that is not an object");
        }
        ConfigCause x{get<std::string>(c, "config", ""), get<std::string>(c, "not_localised", ""),
                      std::nullopt};
        if (c.contains("localization")) {
            x.localization = Localization::fromJson(c["localization"]);
        }
        d.causes.push_back(std::move(x));
    }
    return d;
}

namespace {
std::int64_t renumbered(std::int64_t id, const std::map<std::int64_t, std::int64_t>& ids) {
    const auto it = ids.find(id);
    return it == ids.end() ? id : it->second;
}

// "run 12" -> "run 40" for each id in `ids`, in one pass (a new id is never renumbered again).
std::string renumberedText(const std::string& text,
                           const std::map<std::int64_t, std::int64_t>& ids) {
    static const std::regex runId(R"(\brun (\d{1,18})\b)");
    std::string out;
    auto from = text.cbegin();
    for (std::sregex_iterator m(text.begin(), text.end(), runId), end; m != end; ++m) {
        out.append(from, (*m)[1].first);
        out += std::to_string(renumbered(std::stoll((*m)[1].str()), ids));
        from = (*m)[1].second;
    }
    out.append(from, text.cend());
    return out;
}
} // namespace

void renumberRuns(Diagnosis& d, const std::map<std::int64_t, std::int64_t>& ids) {
    for (LadderStep& s : d.ladder) {
        s.finding = renumberedText(s.finding, ids);
        s.verdict = renumberedText(s.verdict, ids);
    }
    for (ProbeRow& r : d.table) {
        r.what = renumberedText(r.what, ids);
        r.run_a = renumbered(r.run_a, ids);
        r.run_b = renumbered(r.run_b, ids);
    }
    for (ConfigExplanation& c : d.configs) {
        if (c.result) {
            c.result->run = renumbered(c.result->run, ids);
        }
    }
    if (d.reference_run) {
        d.reference_run = renumbered(*d.reference_run, ids);
    }
    for (ConfigCause& c : d.causes) {
        if (auto& l = c.localization) {
            l->probe_a = renumbered(l->probe_a, ids);
            l->probe_b = renumbered(l->probe_b, ids);
            for (auto& p : l->probes) {
                p = renumbered(p, ids);
            }
        }
    }
}

const ConfigCause* Diagnosis::causeOf(const std::string& config) const {
    for (const auto& c : causes) {
        if (c.config == config) {
            return &c;
        }
    }
    return nullptr;
}

const FlipForecast* Diagnosis::forecastOf(const std::string& config) const {
    for (const auto& f : forecast) {
        if (f.config == config) {
            return &f;
        }
    }
    return nullptr;
}

std::string formatPoints(double dp) {
    if (dp == 0) {
        return "0";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, dp >= 0.01 ? "%.2f" : "%.1e", dp);
    return buf;
}

std::int64_t bitIdenticalItems(const Comparison& c) {
    return std::int64_t(std::llround(c.bit_identical_share * double(c.items)));
}

std::string evidence(const Comparison& c) {
    if (c.bit_identical_share == 1) {
        return "bit-identical";
    }
    return formatPoints(c.max_dp) + " points, from " + firstLayers(c) +
           (c.flips > 0 ? ", " + std::to_string(c.flips) + " flipped" : "");
}

ProbeRow probeRow(const std::string& step, const std::string& what, const Comparison& c) {
    return {step,           what,    c.run_a,
            c.run_b,        c.items, c.max_dp,
            firstLayers(c), c.flips, c.bit_identical_share};
}

std::vector<std::string> suspectsOf(const std::vector<std::string>& axes) {
    std::set<std::string> s;
    for (const auto& a : axes) {
        s.insert(suspectOf(a));
    }
    return {s.begin(), s.end()};
}

std::vector<double> logitPerturbation(const std::vector<ledger::Record>& reference,
                                      const std::vector<ledger::Record>& config) {
    std::vector<double> delta;
    for (std::size_t k = 0; k < reference.size() && k < config.size(); ++k) {
        const auto& x = reference[k];
        const auto& y = config[k];
        if (x.logits.size() == 2) {
            delta.push_back(double(y.logits[1] - y.logits[0]) - double(x.logits[1] - x.logits[0]));
        } else {
            delta.push_back(std::abs(double(y.margin) - double(x.margin)));
        }
    }
    return delta;
}

double predictedFlips(const std::vector<ledger::Record>& reference,
                      const std::vector<double>& perturbation) {
    double predicted = 0;
    if (perturbation.empty()) {
        return predicted;
    }
    for (const auto& r : reference) {
        std::size_t crossing = 0;
        for (double d : perturbation) {
            if (r.logits.size() == 2) {
                const double g = double(r.logits[1] - r.logits[0]);
                crossing += g >= 0 ? (g + d < 0) : (g + d >= 0);
            } else {
                crossing += d > double(r.margin);
            }
        }
        predicted +=
            double(crossing) / double(perturbation.size()) * (r.logits.size() == 2 ? 1.0 : 0.5);
    }
    return predicted;
}

std::optional<NoiseFloor> noiseFloor(const Comparison& ab, const std::vector<Comparison>& others) {
    if (others.empty()) {
        return std::nullopt;
    }
    NoiseFloor f;
    for (const auto& n : others) {
        // Flips scaled to the A/B's item count, so a probe on a sample compares fairly.
        f.flips = std::max<std::int64_t>(
            f.flips, std::llround(double(n.flips) * double(ab.items) / double(n.items)));
        f.max_dp = std::max(f.max_dp, n.max_dp);
        f.runs.push_back(n.run_b);
    }
    f.exceeded = ab.flips > f.flips && ab.max_dp > f.max_dp;
    return f;
}

} // namespace probaudit::analysis
