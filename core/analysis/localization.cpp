#include "core/analysis/localization.h"

#include "core/analysis/diagnosis.h"
#include "core/common/error.h"

#include <algorithm>
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
    json classes = json::array();
    for (const auto& k : c.classes) {
        classes.push_back(
            {{"class", k.cls}, {"removed", k.removed}, {"decision", k.decision}, {"p", k.p}});
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
            {"evaluated", points},
            {"classes", classes},
            {"cause_class", c.cause_class ? json(*c.cause_class) : json(nullptr)},
            {"cause_removed", c.cause_removed},
            {"cause_explains", c.cause_explains},
            {"cause_set", c.cause_set},
            {"set_removed", c.set_removed},
            {"set_decision", c.set_decision},
            {"set_explains", c.set_explains}};
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
    if (!j.contains("classes")) {
        return c; // stored before operator classes were localised
    }
    for (const auto& k : j.at("classes")) {
        c.classes.push_back({k.at("class").get<OpClass>(), number(k, "removed"),
                             k.at("decision").get<int>(), number(k, "p")});
    }
    if (!j.at("cause_class").is_null()) {
        c.cause_class = j.at("cause_class").get<OpClass>();
    }
    c.cause_removed = number(j, "cause_removed");
    c.cause_explains = j.at("cause_explains").get<bool>();
    c.cause_set = j.at("cause_set").get<std::vector<OpClass>>();
    c.set_removed = number(j, "set_removed");
    c.set_decision = j.at("set_decision").get<int>();
    c.set_explains = j.at("set_explains").get<bool>();
    return c;
}

// "; cause: the MLP computed as A removes 98% of Δp (next: the norms, 3%)", or that no class
// alone removes the share.
std::string classClause(const ItemCause& c) {
    if (!c.cause_class) {
        return "";
    }
    const ClassSplice* next = nullptr;
    for (const auto& k : c.classes) {
        if (k.cls != *c.cause_class && (next == nullptr || k.removed > next->removed)) {
            next = &k;
        }
    }
    const std::string rest =
        next != nullptr ? " (next: " + opClassTitle(next->cls) + ", " + percent(next->removed) + ")"
                        : "";
    if (c.cause_explains) {
        return "; cause: " + opClassTitle(*c.cause_class) + " computed as A removes " +
               percent(c.cause_removed) + " of Δp" + rest;
    }
    std::string line =
        "; no operator class alone explains it (" + opClassTitle(*c.cause_class) +
        " computed as A removes the most, " + percent(c.cause_removed) +
        (next != nullptr ? "; next: " + opClassTitle(next->cls) + ", " + percent(next->removed)
                         : std::string()) +
        ")";
    if (c.cause_set.empty()) {
        return line;
    }
    std::string set;
    for (std::size_t i = 0; i < c.cause_set.size(); ++i) {
        set += (i == 0                        ? ""
                : i + 1 == c.cause_set.size() ? " and "
                                              : ", ") +
               opClassTitle(c.cause_set[i]);
    }
    return line + (c.set_explains ? "; cause: " : "; ") + set + " computed as A together remove " +
           percent(c.set_removed) + " of Δp";
}

} // namespace

std::vector<OpClass> classSetToTry(const ItemCause& c, double threshold) {
    if (c.cause_explains || c.status == CauseStatus::NoDifference) {
        return {};
    }
    const double gap = c.p_b - c.p_a;
    const bool measurable = gap != 0 && std::isfinite(gap);
    std::vector<std::pair<double, OpClass>> moving; // contribution, class
    for (const auto& k : c.classes) {
        if (measurable && std::isfinite(k.p) && k.p != c.p_b) {
            moving.emplace_back((c.p_b - k.p) / gap, k.cls);
        } else if (!measurable && k.decision == c.decision_a) {
            moving.emplace_back(1.0, k.cls);
        }
    }
    std::stable_sort(moving.begin(), moving.end(), [](const auto& x, const auto& y) {
        return std::abs(x.first) > std::abs(y.first);
    });
    std::vector<OpClass> set;
    double sum = 0;
    for (const auto& [share, cls] : moving) {
        if (set.size() >= 2 && std::abs(1.0 - sum) <= 1.0 - threshold) {
            break;
        }
        set.push_back(cls);
        sum += share;
    }
    if (set.size() < 2) {
        return {};
    }
    std::sort(set.begin(), set.end());
    return set;
}

void chooseCause(ItemCause& c, double threshold) {
    c.cause_class.reset();
    c.cause_removed = 0;
    c.cause_explains = false;
    for (const auto& k : c.classes) {
        if (!c.cause_class || k.removed > c.cause_removed) {
            c.cause_class = k.cls;
            c.cause_removed = k.removed;
            c.cause_explains = k.removed >= threshold &&
                               (c.decision_a == c.decision_b || k.decision == c.decision_a);
        }
    }
}

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
            {"reverse", reverse},
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
        l.reverse = j.value("reverse", true); // the reverse splice always ran before --reverse
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

int Localization::passBudget(int layers, bool reverse) {
    int bisect = 0;
    while ((1 << bisect) < layers + 2) {
        ++bisect;
    }
    return 2 + bisect + kOpClassCount + 1 + (reverse ? 1 : 0);
}

std::string opClassTitle(OpClass c) {
    switch (c) {
    case OpClass::Embeddings:
        return "the embeddings";
    case OpClass::Norms:
        return "the norms";
    case OpClass::Projections:
        return "the attention projections";
    case OpClass::Attention:
        return "the attention scores and softmax";
    case OpClass::AttentionOutput:
        return "the attention output";
    case OpClass::Mlp:
        return "the MLP";
    case OpClass::Residual:
        return "the residual adds";
    case OpClass::Head:
        break;
    }
    return "the head";
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
               percent(1.0 - c.removed) + " of Δp" + classClause(c);
    case CauseStatus::Localised:
        break;
    }
    line += "complete by " + name(c.complete_by) + ": A's state after it removes " +
            percent(c.removed) + " of Δp";
    if (c.complete_by > 0) {
        line += " (after " + name(c.complete_by - 1) + ": " + percent(c.removed_before) + ")";
    }
    if (l.reverse) {
        line += "; B's state after it gives A " + percent(c.reproduced) + " of Δp";
        if (c.flip()) {
            line +=
                c.reverse_decision == c.decision_b ? " and B's decision" : " but not B's decision";
        }
    }
    return line + classClause(c);
}

int causeRowIndex(const ItemCause& c, const Localization& l) {
    return c.status == CauseStatus::Localised   ? c.complete_by
           : c.status == CauseStatus::InTheHead ? l.layers + 1
                                                : -1;
}

std::vector<CauseRow> causeTable(const Localization& l) {
    std::map<int, CauseRow> rows; // by index; L + 1: the head, L + 2: no difference
    for (const auto& c : l.items) {
        const int index = causeRowIndex(c, l);
        const int key = index >= 0 ? index : l.layers + 2;
        CauseRow& r = rows[key];
        r.where = key <= l.layers       ? hiddenName(key, l.layers, l.final_norm)
                  : key == l.layers + 1 ? "the head"
                                        : "no difference";
        r.index = key <= l.layers + 1 ? key : -1;
        r.mean_removed += c.removed;
        ++r.items;
        for (const auto& k : c.classes) {
            r.class_removed[std::size_t(k.cls)] += k.removed;
        }
        if (c.cause_class && c.cause_explains) {
            ++r.class_items[std::size_t(*c.cause_class)];
        } else if (c.set_explains) {
            ++r.set_items;
        }
    }
    std::vector<CauseRow> out;
    for (auto& [key, r] : rows) {
        r.mean_removed /= double(r.items);
        for (double& share : r.class_removed) {
            share /= double(r.items);
        }
        out.push_back(r);
    }
    return out;
}

std::string causeSummary(const Localization& l) {
    std::int64_t differ = 0, explained = 0, bySet = 0;
    std::array<std::int64_t, kOpClassCount> byClass{};
    for (const auto& c : l.items) {
        differ += c.status != CauseStatus::NoDifference;
        explained += c.explained();
        if (c.cause_class && c.cause_explains) {
            ++byClass[std::size_t(*c.cause_class)];
        } else if (c.set_explains) {
            ++bySet;
        }
    }
    std::string out = std::to_string(explained) + " of " + std::to_string(differ) +
                      " items that differ explained";
    std::vector<std::pair<std::int64_t, std::string>> parts;
    for (std::size_t k = 0; k < byClass.size(); ++k) {
        if (byClass[k] > 0) {
            parts.emplace_back(byClass[k], opClassTitle(static_cast<OpClass>(k)));
        }
    }
    std::stable_sort(parts.begin(), parts.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    if (bySet > 0) {
        parts.emplace_back(bySet, "a set of classes");
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {
        out += (k == 0 ? ": " : ", ") + parts[k].second + " " + std::to_string(parts[k].first);
    }
    return out;
}

} // namespace probaudit::analysis
