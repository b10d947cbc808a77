#include "app/probaudit/variants_cmd.h"

#include "core/analysis/conformance.h"
#include "core/analysis/diagnosis.h"
#include "core/analysis/review.h"
#include "core/analysis/variants.h"
#include "core/common/error.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace probaudit::app {

using nlohmann::json;

namespace {

// The KL columns of a row: mean (p99) and the share with the same top token.
std::string klCells(const analysis::VariantRow& v, bool floorKnown) {
    if (!v.kl) {
        return "n/a | n/a | n/a";
    }
    return analysis::formatNats(v.kl->mean) + " (p99 " + analysis::formatNats(v.kl->p99) + ") | " +
           analysis::formatShare(v.kl->same_top_share) + " | " +
           (floorKnown ? (v.kl_above_floor ? "yes" : "no") : "not measured");
}

void printFloorKl(const analysis::VariantTable& t) {
    const auto& f = t.floor;
    if (f.kl_mean) {
        std::printf("Over the whole vocabulary at the decision position, the runtime configs' "
                    "mean KL to the reference config is at most %s nats (%s)\n\n",
                    analysis::formatNats(*f.kl_mean).c_str(), f.kl_config.c_str());
    } else {
        std::printf("KL over the vocabulary: the runtime floor is not measured (no runtime "
                    "config's run records the vocabulary)\n\n");
    }
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
    const bool withKl = std::any_of(t.rows.begin(), t.rows.end(),
                                    [](const analysis::VariantRow& v) { return v.kl.has_value(); });
    if (withKl) {
        printFloorKl(t);
    }
    std::printf("| variant | config | against | flips | churn (95%%) | net accuracy, points "
                "(95%%) | largest Δp | above the floor |%s\n",
                withKl ? " KL, nats: mean (p99) | same top token (95%) | KL above the floor |"
                       : "");
    std::printf("|---|---|---|---:|---|---|---:|---|%s\n", withKl ? "---|---|---|" : "");
    for (const auto& v : t.rows) {
        std::printf("| %s | %s | %s | %lld | %s | %s | %s | %s |%s\n", v.variant.c_str(),
                    v.config.c_str(), v.baseline.c_str(), static_cast<long long>(v.flips),
                    v.labelled > 0 ? analysis::formatShare(v.churn).c_str() : "n/a (no labels)",
                    analysis::formatNetPoints(v.net).c_str(),
                    analysis::formatPoints(v.max_dp).c_str(),
                    f.configs == 0 ? "not measured" : (v.above_floor ? "yes" : "no"),
                    withKl ? (" " + klCells(v, f.kl_mean.has_value()) + " |").c_str() : "");
    }
    for (const auto& c : t.unpaired) {
        std::printf("\n%s: no run of the reference variant with the same runtime settings to "
                    "compare it with; add such a config",
                    c.c_str());
    }
    std::printf("%s", t.unpaired.empty() ? "" : "\n");
}

// "Is the provider serving my model?": each server variant's config against the local variant
// it claims to serve, its floor, and the local variant its decisions are closest to.
void printServers(const std::vector<analysis::ServerConformance>& servers) {
    if (servers.empty()) {
        return;
    }
    std::printf("\nServers against the variant they claim to serve:\n\n");
    std::printf("| server | config | serves | against | flips | largest Δp | no decision / "
                "label unlisted | floor: flips, Δp | closest variant | verdict |\n");
    std::printf("|---|---|---|---|---:|---:|---|---|---|---|\n");
    for (const auto& c : servers) {
        const std::string floor = c.floor_configs == 0
                                      ? "not measured"
                                      : std::to_string(c.floor_flips) + ", " +
                                            analysis::formatPoints(c.floor_dp) + " (" +
                                            std::to_string(c.floor_configs) + " config" +
                                            (c.floor_configs == 1 ? ")" : "s)");
        std::string closest;
        for (const auto& v : c.closest) {
            closest += (closest.empty() ? "" : ", ") + v;
        }
        closest = closest.empty() ? "n/a" : closest;
        std::printf("| %s | %s | %s | %s | %lld | %s | %lld / %lld | %s | %s | %s |\n",
                    c.variant.c_str(), c.config.c_str(), c.serves.c_str(),
                    c.baseline.empty() ? "none" : c.baseline.c_str(),
                    static_cast<long long>(c.flips), analysis::formatPoints(c.max_dp).c_str(),
                    static_cast<long long>(c.undecided), static_cast<long long>(c.inexact),
                    floor.c_str(), closest.c_str(), analysis::verdictName(c.verdict));
    }
    std::printf("\n");
    for (const auto& c : servers) {
        std::printf("%s (%s): %s\n", c.variant.c_str(), c.config.c_str(), c.finding.c_str());
    }
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
    analysis::VariantTable t = analysis::variantTable(rv);
    analysis::addVocabularyKl(t, ledger::Ledger(path, ledger::Ledger::Mode::Read));
    const std::vector<analysis::ServerConformance> servers = analysis::serverConformance(rv);
    if (asJson) {
        json out = analysis::toJson(t);
        out["servers"] = json::array();
        for (const auto& c : servers) {
            out["servers"].push_back(analysis::toJson(c));
        }
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
    printServers(servers);
    std::printf("\nchurn: labelled items whose correctness changed either way (Wilson 95%%); net: "
                "the accuracy difference (paired bootstrap 95%%); above the floor: more flips "
                "than any runtime config of the reference variant, or as many and a larger Δp; KL: "
                "KL(reference variant || variant) over the whole vocabulary at the decision "
                "position, per item (heads with \"vocabulary\": true); same top token: items "
                "whose most likely vocabulary token is the same (Wilson 95%%)\n");
    return 0;
}

} // namespace probaudit::app
