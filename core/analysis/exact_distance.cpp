#include "core/analysis/exact_distance.h"

#include "core/analysis/stats.h"
#include "core/common/run_config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The record of `item` in records sorted by item (Ledger::records), or null.
const ledger::Record* recordOf(const std::vector<ledger::Record>& records, std::int64_t item) {
    const auto it =
        std::lower_bound(records.begin(), records.end(), item,
                         [](const ledger::Record& r, std::int64_t i) { return r.item < i; });
    return it != records.end() && it->item == item ? &*it : nullptr;
}

ExactStats statsOf(const std::vector<double>& values) {
    ExactStats s;
    if (!values.empty()) {
        s.median = quantile(values, 0.5);
        s.p99 = quantile(values, 0.99);
        s.max = *std::max_element(values.begin(), values.end());
    }
    return s;
}

std::string points(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

json statsJson(const ExactStats& s) {
    return {{"median", s.median}, {"p99", s.p99}, {"max", s.max}};
}

} // namespace

bool isExactConfig(const json& config) {
    if (!config.is_object()) {
        return false;
    }
    std::vector<std::string> errors;
    const RunConfig c = RunConfig::fromJson(config, "$", errors);
    return errors.empty() && c.dtype == Dtype::Float64;
}

double distanceToExact(const ledger::Record& r, const ledger::Record& exact) {
    if (r.probs.empty() || r.probs.size() != exact.probs.size()) {
        return kNaN;
    }
    double d = 0;
    for (std::size_t k = 0; k < r.probs.size(); ++k) {
        const double v = 100.0 * std::abs(double(r.probs[k]) - double(exact.probs[k]));
        if (std::isnan(v)) {
            return kNaN;
        }
        d = std::max(d, v);
    }
    return d;
}

ExactDistance distanceToExact(const Comparison& cmp, const RunData& a, const RunData& b,
                              const RunData& exact, const std::string& exactConfig) {
    ExactDistance d;
    d.exact_config = exactConfig;
    d.exact_run = exact.run.id;
    std::vector<double> da, db;
    for (const ItemDiff& diff : cmp.diffs) {
        const ledger::Record* ra = recordOf(a.records, diff.item);
        const ledger::Record* rb = recordOf(b.records, diff.item);
        const ledger::Record* re = recordOf(exact.records, diff.item);
        const double xa = ra && re ? distanceToExact(*ra, *re) : kNaN;
        const double xb = rb && re ? distanceToExact(*rb, *re) : kNaN;
        d.item_a.push_back(xa);
        d.item_b.push_back(xb);
        if (std::isnan(xa) || std::isnan(xb)) {
            continue;
        }
        da.push_back(xa);
        db.push_back(xb);
        ++d.items;
        d.a_closer += xa < xb;
        d.b_closer += xb < xa;
        d.ties += xa == xb;
    }
    d.a = statsOf(da);
    d.b = statsOf(db);
    d.sign_p = mcnemarExactP(d.a_closer, d.b_closer);
    return d;
}

std::string ExactDistance::sentence(const std::string& nameA, const std::string& nameB) const {
    const std::string ra = "the reference \"" + nameA + "\"";
    const std::string rb = "\"" + nameB + "\"";
    if (items == 0) {
        return "no item of " + ra + " and " + rb + " is in the exact run \"" + exact_config + "\"";
    }
    const auto pct = [this](std::int64_t k) {
        return std::to_string(int(std::lround(100.0 * double(k) / double(items)))) + "%";
    };
    const std::string test = " (sign test p = " + points(sign_p) + ")";
    const std::string lead = referenceFarther() ? ra + " is farther from exact than " + rb + test
                             : referenceCloser()
                                 ? ra + " is closer to exact than " + rb + test
                                 : "neither " + ra + " nor " + rb + " is closer to exact" + test;
    return lead + ": " + rb + " is closer on " + pct(b_closer) + " of " + std::to_string(items) +
           " items, the reference on " + pct(a_closer) + ", as close on " + pct(ties) +
           "; median |p - p_exact| " + points(b.median) + " against " + points(a.median) +
           " points, max " + points(b.max) + " against " + points(a.max);
}

json toJson(const ExactDistance& d) {
    return {{"exact_config", d.exact_config},
            {"exact_run", d.exact_run},
            {"items", d.items},
            {"a", statsJson(d.a)},
            {"b", statsJson(d.b)},
            {"a_closer", d.a_closer},
            {"b_closer", d.b_closer},
            {"ties", d.ties},
            {"b_closer_share", d.bCloserShare()},
            {"sign_p", d.sign_p},
            {"reference_farther", d.referenceFarther()}};
}

} // namespace probaudit::analysis
