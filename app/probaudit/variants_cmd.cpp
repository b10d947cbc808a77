#include "app/probaudit/variants_cmd.h"

#include "core/analysis/diagnosis.h"
#include "core/analysis/review.h"
#include "core/analysis/variants.h"
#include "core/common/error.h"

#include <cstdio>
#include <iostream>

namespace probaudit::app {

using nlohmann::json;

namespace {

// "2.5% [1.1, 5.7]" of a share interval.
std::string percent(const analysis::Interval& i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f%% [%.1f, %.1f]", 100 * i.estimate, 100 * i.low,
                  100 * i.high);
    return buf;
}

// "+0.5 [-1.0, 2.0]" points of an accuracy difference.
std::string points(const std::optional<analysis::Interval>& i) {
    if (!i) {
        return "n/a (no labels)";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1f [%+.1f, %+.1f]", 100 * i->estimate, 100 * i->low,
                  100 * i->high);
    return buf;
}

void printTable(const analysis::VariantTable& t) {
    const auto& f = t.floor;
    if (f.configs == 0) {
        std::printf("Runtime noise floor: not measured (no runtime config of \"%s\" besides the "
                    "reference has a run)\n\n",
                    t.reference_variant.c_str());
    } else {
        std::printf("Runtime noise floor: the reference variant under %d other runtime config%s "
                    "flips at most %lld decision%s%s, largest Δp %s points\n\n",
                    f.configs, f.configs == 1 ? "" : "s", static_cast<long long>(f.max_flips),
                    f.max_flips == 1 ? "" : "s",
                    f.max_flips_config.empty() ? "" : (" (" + f.max_flips_config + ")").c_str(),
                    analysis::formatPoints(f.max_dp).c_str());
    }
    std::printf("| variant | config | against | flips | churn (95%%) | net accuracy, points "
                "(95%%) | largest Δp | above the floor |\n");
    std::printf("|---|---|---|---:|---|---|---:|---|\n");
    for (const auto& v : t.rows) {
        std::printf("| %s | %s | %s | %lld | %s | %s | %s | %s |\n", v.variant.c_str(),
                    v.config.c_str(), v.baseline.c_str(), static_cast<long long>(v.flips),
                    v.labelled > 0 ? percent(v.churn).c_str() : "n/a (no labels)",
                    points(v.net).c_str(), analysis::formatPoints(v.max_dp).c_str(),
                    f.configs == 0 ? "not measured" : (v.above_floor ? "yes" : "no"));
    }
    for (const auto& c : t.unpaired) {
        std::printf("\n%s: no run of the reference variant with the same runtime settings to "
                    "compare it with; add such a config",
                    c.c_str());
    }
    std::printf("%s", t.unpaired.empty() ? "" : "\n");
}

} // namespace

int summarizeVariants(const std::string& path, const std::string& headName, bool asJson) {
    const analysis::Review rv = analysis::loadReview(path, headName);
    if (!rv.study.contains("models")) {
        throw Error(path, "the study has one model; --variants needs model variants ($.models)");
    }
    if (rv.generation) {
        throw Error(path, "head \"" + rv.head +
                              "\" is a generation head; --variants compares "
                              "decision heads for now");
    }
    if (!rv.reference_run) {
        throw Error(path, "no finished run of the reference config \"" + rv.reference_name +
                              "\" for head \"" + rv.head + "\"");
    }
    const analysis::VariantTable t = analysis::variantTable(rv);
    if (asJson) {
        json out = analysis::toJson(t);
        out["study"] = rv.facts.name;
        out["head"] = rv.head;
        out["items"] = rv.items.size();
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("study \"%s\", head \"%s\": model variants against the reference variant \"%s\" "
                "under the same runtime settings, %zu items\n\n",
                rv.facts.name.c_str(), rv.head.c_str(), t.reference_variant.c_str(),
                rv.items.size());
    printTable(t);
    std::printf("\nchurn: labelled items whose correctness changed either way (Wilson 95%%); net: "
                "the accuracy difference (paired bootstrap 95%%); above the floor: more flips "
                "than any runtime config of the reference variant, or as many and a larger Δp\n");
    return 0;
}

} // namespace probaudit::app
