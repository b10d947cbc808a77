#include "core/analysis/localization.h"

#include "core/analysis/diagnosis.h"
#include "core/common/error.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * share);
    return buf;
}

json pointJson(const SplicePoint& p) {
    return {{"index", p.index}, {"removed", p.removed}, {"decision", p.decision}};
}

json itemJson(const ItemCause& c) {
    json points = json::array();
    for (const auto& p : c.evaluated) {
        points.push_back(pointJson(p));
    }
    return {{"item", c.item},
            {"id", c.id},
            {"study_dp", c.study_dp},
            {"study_flip", c.study_flip},
            {"p_a", c.p_a},
            {"p_b", c.p_b},
            {"decision_a", c.decision_a},
            {"decision_b", c.decision_b},
            {"status", causeStatusName(c.status)},
            {"complete_by", c.complete_by},
            {"removed", c.removed},
            {"removed_before", c.removed_before},
            {"reproduced", c.reproduced},
            {"reverse_decision", c.reverse_decision},
            {"evaluated", points}};
}

// A stored share or probability: JSON has no NaN, so a number that was not finite is null.
double number(const json& j, const char* key) {
    const json& v = j.at(key);
    return v.is_null() ? NAN : v.get<double>();
}

ItemCause itemFromJson(const json& j) {
    ItemCause c;
    c.item = j.at("item").get<std::int64_t>();
    c.id = j.at("id").get<std::string>();
    c.study_dp = number(j, "study_dp");
    c.study_flip = j.at("study_flip").get<bool>();
    c.p_a = number(j, "p_a");
    c.p_b = number(j, "p_b");
    c.decision_a = j.at("decision_a").get<int>();
    c.decision_b = j.at("decision_b").get<int>();
    c.status = causeStatusFromName(j.at("status").get<std::string>());
    c.complete_by = j.at("complete_by").get<int>();
    c.removed = number(j, "removed");
    c.removed_before = number(j, "removed_before");
    c.reproduced = number(j, "reproduced");
    c.reverse_decision = j.at("reverse_decision").get<int>();
    for (const auto& p : j.at("evaluated")) {
        c.evaluated.push_back(
            {p.at("index").get<int>(), number(p, "removed"), p.at("decision").get<int>()});
    }
    return c;
}

} // namespace

std::string causeStatusName(CauseStatus s) {
    switch (s) {
    case CauseStatus::Localised:
        return "localised";
    case CauseStatus::InTheHead:
        return "in the head";
    case CauseStatus::NoDifference:
        break;
    }
    return "no difference";
}

CauseStatus causeStatusFromName(const std::string& name) {
    for (CauseStatus s :
         {CauseStatus::Localised, CauseStatus::InTheHead, CauseStatus::NoDifference}) {
        if (causeStatusName(s) == name) {
            return s;
        }
    }
    throw Error("unknown localisation status \"" + name + "\"");
}

double ItemCause::dp() const {
    return 100.0 * std::abs(p_b - p_a);
}

json Localization::toJson() const {
    json items = json::array();
    for (const auto& c : this->items) {
        items.push_back(itemJson(c));
    }
    return {{"study", study},
            {"head", head},
            {"config_a", config_a},
            {"config_b", config_b},
            {"layers", layers},
            {"final_norm", final_norm},
            {"threshold", threshold},
            {"probe_a", probe_a},
            {"probe_b", probe_b},
            {"probes", probes},
            {"passes", passes},
            {"seconds", seconds},
            {"baseline_b_seconds", baseline_b_seconds},
            {"replayed_a", replayed_a},
            {"replayed_b", replayed_b},
            {"items", items}};
}

Localization Localization::fromJson(const json& j) {
    try {
        Localization l;
        l.study = j.at("study").get<std::string>();
        l.head = j.at("head").get<std::string>();
        l.config_a = j.at("config_a").get<std::string>();
        l.config_b = j.at("config_b").get<std::string>();
        l.layers = j.at("layers").get<int>();
        l.final_norm = j.at("final_norm").get<bool>();
        l.threshold = j.at("threshold").get<double>();
        l.probe_a = j.at("probe_a").get<std::int64_t>();
        l.probe_b = j.at("probe_b").get<std::int64_t>();
        l.probes = j.at("probes").get<std::vector<std::int64_t>>();
        l.passes = j.at("passes").get<int>();
        l.seconds = j.at("seconds").get<double>();
        l.baseline_b_seconds = j.at("baseline_b_seconds").get<double>();
        l.replayed_a = j.at("replayed_a").get<std::int64_t>();
        l.replayed_b = j.at("replayed_b").get<std::int64_t>();
        for (const auto& c : j.at("items")) {
            l.items.push_back(itemFromJson(c));
        }
        return l;
    } catch (const json::exception& e) {
        throw Error(std::string("a stored localisation is malformed: ") + e.what());
    }
}

int Localization::passBudget(int layers) {
    int bisect = 0;
    while ((1 << bisect) < layers + 2) {
        ++bisect;
    }
    return 2 + bisect + 1;
}

std::string hiddenName(int index, int layers, bool finalNorm) {
    if (index == 0) {
        return "the embeddings";
    }
    if (index == layers && finalNorm) {
        return "layer " + std::to_string(index) + " (with the final norm)";
    }
    return "layer " + std::to_string(index);
}

std::string causeLine(const ItemCause& c, const Localization& l) {
    const auto name = [&](int i) { return hiddenName(i, l.layers, l.final_norm); };
    std::string line =
        c.id + " (Δp " + formatPoints(c.dp()) + " points" + (c.flip() ? ", flip" : "") + "): ";
    switch (c.status) {
    case CauseStatus::NoDifference:
        return line + "no difference between A and B in the localisation's passes";
    case CauseStatus::InTheHead:
        return line + "in the head: with A's state after " + name(l.layers) + " B keeps " +
               percent(1.0 - c.removed) + " of Δp";
    case CauseStatus::Localised:
        break;
    }
    line += "complete by " + name(c.complete_by) + ": A's state after it removes " +
            percent(c.removed) + " of Δp";
    if (c.complete_by > 0) {
        line += " (after " + name(c.complete_by - 1) + ": " + percent(c.removed_before) + ")";
    }
    line += "; B's state after it gives A " + percent(c.reproduced) + " of Δp";
    if (c.flip()) {
        line += c.reverse_decision == c.decision_b ? " and B's decision" : " but not B's decision";
    }
    return line;
}

std::vector<CauseRow> causeTable(const Localization& l) {
    std::map<int, CauseRow> rows; // by index; L + 1: the head, L + 2: no difference
    for (const auto& c : l.items) {
        const int key = c.status == CauseStatus::Localised   ? c.complete_by
                        : c.status == CauseStatus::InTheHead ? l.layers + 1
                                                             : l.layers + 2;
        CauseRow& r = rows[key];
        r.where = key <= l.layers       ? hiddenName(key, l.layers, l.final_norm)
                  : key == l.layers + 1 ? "the head"
                                        : "no difference";
        r.mean_removed += c.removed;
        ++r.items;
    }
    std::vector<CauseRow> out;
    for (auto& [key, r] : rows) {
        r.mean_removed /= double(r.items);
        out.push_back(r);
    }
    return out;
}

} // namespace probaudit::analysis
