#include "core/common/policy_spec.h"

#include "core/common/sha256.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>

namespace probaudit {

using nlohmann::json;

namespace {

struct CriterionInfo {
    Criterion criterion;
    std::string_view name;
    bool records;    // applies to record heads
    bool generation; // applies to generation heads
    bool count;      // the limit is a count (an integer >= 0)
    bool share;      // the limit is a share in [0, 1]
};

constexpr std::array<CriterionInfo, 9> kCriteria{{
    {Criterion::MaxFlips, "max_flips", true, false, true, false},
    {Criterion::MaxFlipRate, "max_flip_rate", true, false, false, true},
    {Criterion::MinAgreement, "min_agreement", true, false, false, true},
    {Criterion::MaxDpPoints, "max_dp_points", true, false, false, false},
    {Criterion::BitIdentical, "bit_identical", true, true, false, false},
    {Criterion::AccuracyMarginPoints, "accuracy_margin_points", true, false, false, false},
    {Criterion::MinJaccard, "min_jaccard", false, true, false, true},
    {Criterion::MinAnswerAgreement, "min_answer_agreement", false, true, false, true},
    {Criterion::MaxKl, "max_kl", false, true, false, false},
}};

const CriterionInfo& info(Criterion c) {
    return *std::find_if(kCriteria.begin(), kCriteria.end(),
                         [c](const CriterionInfo& i) { return i.criterion == c; });
}

// Which class an axis (or "environment") puts a config in.
std::string_view classOfAxis(std::string_view axis) {
    static const std::array<std::pair<std::string_view, std::string_view>, 21> byAxis{{
        {"batch_size", "shape"},
        {"padding_side", "shape"},
        {"pad_to", "shape"},
        {"pad_to_n", "shape"},
        {"order", "shape"},
        {"order_seed", "shape"},
        {"max_length", "shape"},
        {"attention", "kernels"},
        {"kernels", "kernels"},
        {"gemm", "kernels"},
        {"cpu_capability", "kernels"},
        {"deterministic", "kernels"},
        {"tf32", "kernels"},
        {"cudnn_benchmark", "kernels"},
        {"device", "kernels"},
        {"dtype", "dtype"},
        {"threads", "threads"},
        {"runner", "environment"},
        {"env", "environment"},
        {"environment", "environment"},
        {"model", "variant"}, // classesOf gives a variant's config no class at all
    }};
    for (const auto& [a, c] : byAxis) {
        if (a == axis) {
            return c;
        }
    }
    // The serving axes (concurrency, arrival order, prefix cache, seed, repeat) and any other.
    return "serving";
}

bool readLimit(const json& v, const CriterionInfo& ci, const std::string& path,
               std::vector<std::string>& errors, double& out) {
    if (ci.criterion == Criterion::BitIdentical) {
        if (!v.is_boolean() || !v.get<bool>()) {
            errors.push_back(path + ": must be true (leave it out to allow differences)");
            return false;
        }
        out = 1;
        return true;
    }
    if (ci.count) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
            errors.push_back(path + ": must be an integer >= 0");
            return false;
        }
        out = double(v.get<std::int64_t>());
        return true;
    }
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
        (ci.share && v.get<double>() > 1)) {
        errors.push_back(path +
                         (ci.share ? ": must be a number in [0, 1]" : ": must be a number >= 0"));
        return false;
    }
    out = v.get<double>();
    if (ci.criterion == Criterion::AccuracyMarginPoints && out <= 0) {
        errors.push_back(path + ": must be a number > 0 (points)");
        return false;
    }
    return true;
}

void readSelector(const json& c, PolicyRule& r, const std::string& path,
                  std::vector<std::string>& errors) {
    const auto known = configClasses();
    const auto one = [&](const json& e, const std::string& at) {
        if (e.is_string() && e.get<std::string>() == "all") {
            r.all_configs = true;
        } else if (e.is_string() && !e.get<std::string>().empty()) {
            r.configs.push_back(e.get<std::string>());
        } else if (e.is_object() && e.size() == 1 && e.contains("class") &&
                   e["class"].is_string()) {
            const std::string cls = e["class"].get<std::string>();
            if (cls == "variant" || cls == "model variant") {
                errors.push_back(at + ".class: a class of model variants is not supported yet; "
                                      "name the variants' configs instead; one of: shape, "
                                      "kernels, dtype, threads, serving, environment");
            } else if (std::find(known.begin(), known.end(), cls) == known.end()) {
                errors.push_back(at + ".class: unknown class \"" + cls +
                                 "\" (one of: shape, kernels, dtype, threads, serving, "
                                 "environment)");
            } else {
                r.classes.push_back(cls);
            }
        } else {
            errors.push_back(at + R"(: must be a config name, "all" or {"class": NAME})");
        }
    };
    if (c.is_array() && !c.empty()) {
        for (std::size_t i = 0; i < c.size(); ++i) {
            one(c[i], path + "[" + std::to_string(i) + "]");
        }
    } else if (c.is_string() || c.is_object()) {
        one(c, path);
    } else {
        errors.push_back(path +
                         R"(: must be "all", a config name, {"class": NAME} or an array of them)");
    }
}

PolicyRule readRule(const json& j, const std::string& path, std::vector<std::string>& errors) {
    PolicyRule r;
    if (!j.is_object()) {
        errors.push_back(path + ": must be an object (a rule)");
        return r;
    }
    for (const auto& [key, v] : j.items()) {
        const std::string at = path + "." + key;
        if (key == "name") {
            if (!v.is_string() || v.get<std::string>().empty()) {
                errors.push_back(at + ": must be a non-empty string");
            } else {
                r.name = v.get<std::string>();
            }
        } else if (key == "configs") {
            readSelector(v, r, at, errors);
        } else if (key == "against" || key == "head") {
            if (!v.is_string() || v.get<std::string>().empty()) {
                errors.push_back(at + ": must be a name");
            } else {
                (key == "head" ? r.head : r.against) = v.get<std::string>();
            }
        } else if (const auto c = criterionFromName(key)) {
            PolicyCheck check{*c, 0};
            if (readLimit(v, info(*c), at, errors, check.limit)) {
                r.checks.push_back(check);
            }
        } else {
            errors.push_back(at + ": unknown field");
        }
    }
    if (!j.contains("name")) {
        errors.push_back(path + ".name: missing");
    }
    if (!j.contains("configs")) {
        errors.push_back(path + R"(.configs: missing ("all", names or {"class": NAME}))");
    }
    if (r.checks.empty() && std::none_of(kCriteria.begin(), kCriteria.end(), [&](const auto& ci) {
            return j.contains(std::string(ci.name));
        })) {
        errors.push_back(path + ": no limit (one or more of max_flips, max_flip_rate, "
                                "min_agreement, max_dp_points, bit_identical, "
                                "accuracy_margin_points, min_jaccard, min_answer_agreement, "
                                "max_kl)");
    }
    return r;
}

} // namespace

std::string_view criterionName(Criterion c) {
    return info(c).name;
}

std::optional<Criterion> criterionFromName(std::string_view name) {
    for (const auto& ci : kCriteria) {
        if (ci.name == name) {
            return ci.criterion;
        }
    }
    return std::nullopt;
}

bool criterionApplies(Criterion c, bool generationHead) {
    return generationHead ? info(c).generation : info(c).records;
}

const std::vector<std::string_view>& configClasses() {
    static const std::vector<std::string_view> classes{"shape",   "kernels", "dtype",
                                                       "threads", "serving", "environment"};
    return classes;
}

std::vector<std::string> classesOf(const std::vector<std::string>& differingAxes) {
    // Another model variant is other weights, whatever else differs: no runtime class holds it.
    if (std::find(differingAxes.begin(), differingAxes.end(), "model") != differingAxes.end()) {
        return {};
    }
    std::set<std::string> found;
    for (const std::string& a : differingAxes) {
        found.insert(std::string(classOfAxis(a)));
    }
    std::vector<std::string> out;
    for (std::string_view c : configClasses()) { // in the classes' order
        if (found.count(std::string(c))) {
            out.emplace_back(c);
        }
    }
    return out;
}

json Policy::toJson() const {
    json rules = json::array();
    for (const PolicyRule& r : this->rules) {
        json configs = json::array();
        if (r.all_configs) {
            configs.push_back("all");
        }
        for (const std::string& c : r.configs) {
            configs.push_back(c);
        }
        for (const std::string& c : r.classes) {
            configs.push_back({{"class", c}});
        }
        json rule{{"name", r.name}, {"configs", configs}};
        if (!r.against.empty()) {
            rule["against"] = r.against;
        }
        if (!r.head.empty()) {
            rule["head"] = r.head;
        }
        for (const PolicyCheck& c : r.checks) {
            const CriterionInfo& ci = info(c.criterion);
            const std::string key(ci.name);
            if (c.criterion == Criterion::BitIdentical) {
                rule[key] = true;
            } else if (ci.count) {
                rule[key] = std::int64_t(c.limit);
            } else {
                rule[key] = c.limit;
            }
        }
        rules.push_back(std::move(rule));
    }
    return {{"rules", rules}}; // the file's form: fromJson(toJson()) is the same policy
}

std::string Policy::sha256() const {
    const std::string text = toJson().dump();
    return sha256Hex(text.data(), text.size());
}

Policy Policy::fromJson(const json& j, const std::string& path, std::vector<std::string>& errors) {
    Policy p;
    if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array() || j["rules"].empty()) {
        errors.push_back(path + R"(: must be {"rules": [RULE, ...]} with at least one rule)");
        return p;
    }
    for (const auto& [key, v] : j.items()) {
        if (key != "rules" && key != "$comment") {
            errors.push_back(path + "." + key + ": unknown field");
        }
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < j["rules"].size(); ++i) {
        const std::string at = path + ".rules[" + std::to_string(i) + "]";
        PolicyRule r = readRule(j["rules"][i], at, errors);
        if (!r.name.empty() && !names.insert(r.name).second) {
            errors.push_back(at + ".name: \"" + r.name + "\" names another rule too");
        }
        p.rules.push_back(std::move(r));
    }
    return p;
}

void Policy::checkAgainstStudy(const std::vector<std::string>& configNames,
                               const std::vector<std::pair<std::string, bool>>& heads,
                               const std::string& path, std::vector<std::string>& errors) const {
    const auto isConfig = [&](const std::string& n) {
        return std::find(configNames.begin(), configNames.end(), n) != configNames.end();
    };
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const PolicyRule& r = rules[i];
        const std::string at = path + ".rules[" + std::to_string(i) + "]";
        for (const std::string& c : r.configs) {
            if (!isConfig(c)) {
                errors.push_back(at + ".configs: \"" + c + "\" is not one of the configs");
            }
        }
        if (!r.against.empty() && !isConfig(r.against)) {
            errors.push_back(at + ".against: \"" + r.against + "\" is not one of the configs");
        }
        const auto head = std::find_if(heads.begin(), heads.end(),
                                       [&](const auto& h) { return h.first == r.head; });
        if (!r.head.empty() && head == heads.end()) {
            errors.push_back(at + ".head: \"" + r.head + "\" is not one of the heads");
            continue;
        }
        for (const PolicyCheck& c : r.checks) {
            const bool applies = head != heads.end()
                                     ? criterionApplies(c.criterion, head->second)
                                     : std::any_of(heads.begin(), heads.end(), [&](const auto& h) {
                                           return criterionApplies(c.criterion, h.second);
                                       });
            if (!applies) {
                errors.push_back(
                    at + "." + std::string(criterionName(c.criterion)) + ": " +
                    (info(c.criterion).generation ? "applies to generation heads"
                                                  : "applies to decision heads") +
                    ", and " +
                    (r.head.empty() ? "the study has none" : "\"" + r.head + "\" is not one"));
            }
        }
    }
}

std::string runRanges(std::vector<std::int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ", ") + std::to_string(ids[i]);
        if (j > i) {
            out += "\u2013" + std::to_string(ids[j]);
        }
        i = j + 1;
    }
    return out;
}

} // namespace probaudit
