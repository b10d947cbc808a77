#include "core/common/run_config.h"

#include "core/common/axes.h"
#include "core/common/error.h"
#include "core/common/sha256.h"

#include <algorithm>
#include <set>

namespace probaudit {

using nlohmann::json;

json RunConfig::toJson() const {
    json j{{"device", device},
           {"dtype", dtype},
           {"batch_size", batch_size},
           {"padding_side", padding_side},
           {"pad_to", pad_to},
           {"pad_to_n", pad_to_n},
           {"order", order},
           {"order_seed", order_seed},
           {"attention", attention},
           {"kernels", kernels},
           {"threads", threads},
           {"deterministic", deterministic},
           {"tf32", tf32},
           {"cudnn_benchmark", cudnn_benchmark},
           {"cpu_capability", cpu_capability},
           {"max_length", max_length}};
    if (concurrency != 1 || arrival_seed != 0) {
        j["concurrency"] = concurrency;
        j["arrival_seed"] = arrival_seed;
    }
    if (repeat != 0) {
        j["repeat"] = repeat;
    }
    if (prefix_cache != PrefixCache::Cold) {
        j["prefix_cache"] = prefix_cache;
    }
    if (seed != -1) {
        j["seed"] = seed;
    }
    if (runner != Runner::Engine) {
        j["runner"] = runner;
    }
    if (!env.empty()) {
        j["env"] = env;
    }
    if (gemm != Gemm::Aten) {
        j["gemm"] = gemm;
    }
    if (!model.empty()) {
        j["model"] = model;
    }
    return j;
}

json RunConfig::allAxesJson() const {
    json j = toJson();
    j["concurrency"] = concurrency;
    j["arrival_seed"] = arrival_seed;
    j["repeat"] = repeat;
    j["prefix_cache"] = prefix_cache;
    j["seed"] = seed;
    j["runner"] = runner;
    j["env"] = env;
    j["gemm"] = gemm;
    j["model"] = model;
    return j;
}

// nlohmann objects keep their keys sorted: one canonical form.
std::string RunConfig::canonical() const {
    return toJson().dump();
}

std::string RunConfig::hash() const {
    const std::string c = canonical();
    return sha256Hex(c.data(), c.size()).substr(0, 16);
}

namespace {

// Checks one axis value against the axes table; appends "PATH: problem" when it does not fit.
bool validAxisValue(const Axis& axis, const json& v, const std::string& where,
                    std::vector<std::string>& errors) {
    switch (axis.kind) {
    case AxisKind::Boolean:
        if (!v.is_boolean()) {
            errors.push_back(where + ": must be true or false");
            return false;
        }
        return true;
    case AxisKind::Integer:
        // An unsigned value past INT64_MAX would wrap when read as a signed one.
        if (!v.is_number_integer() ||
            (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX) ||
            v.get<std::int64_t>() < axis.min || v.get<std::int64_t>() > axis.max) {
            errors.push_back(
                where + ": must be an integer from " + std::to_string(axis.min) +
                (axis.max == INT64_MAX ? std::string(" up") : " to " + std::to_string(axis.max)));
            return false;
        }
        return true;
    case AxisKind::Device: {
        if (!v.is_string()) {
            errors.push_back(where + ": must be a string");
            return false;
        }
        const std::string d = v.get<std::string>();
        const bool cuda = d.rfind("cuda:", 0) == 0 && d.size() > 5 &&
                          d.find_first_not_of("0123456789", 5) == std::string::npos;
        if (d != "cpu" && !cuda) {
            errors.push_back(where + ": unknown value \"" + d + "\" (cpu or cuda:N)");
            return false;
        }
        return true;
    }
    case AxisKind::Name: {
        static const std::string allowed = "abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
        if (!v.is_string() || v.get<std::string>().size() > 64 ||
            v.get<std::string>().find_first_not_of(allowed) != std::string::npos) {
            errors.push_back(where + ": must be a name of letters, digits, '.', '_' or '-'");
            return false;
        }
        return true;
    }
    case AxisKind::Choice: {
        if (!v.is_string()) {
            errors.push_back(where + ": must be a string");
            return false;
        }
        const std::string s = v.get<std::string>();
        if (std::find(axis.values.begin(), axis.values.end(), s) != axis.values.end()) {
            return true;
        }
        const std::set<std::string> sorted(axis.values.begin(), axis.values.end());
        std::string list;
        for (const auto& a : sorted) {
            list += (list.empty() ? "" : ", ") + (a.empty() ? std::string("\"\"") : a);
        }
        errors.push_back(where + ": unknown value \"" + s + "\" (one of: " + list + ")");
        return false;
    }
    }
    return false;
}

} // namespace

RunConfig RunConfig::fromJson(const json& j, const std::string& path,
                              std::vector<std::string>& errors) {
    RunConfig c;
    if (!j.is_object()) {
        errors.push_back(path + ": must be an object");
        return c;
    }
    for (const auto& [k, v] : j.items()) {
        if (findAxis(k) == nullptr) {
            errors.push_back(path + "." + k + ": unknown config axis");
        }
    }
    json values = c.allAxesJson(); // the defaults, overwritten by every valid value given
    for (const Axis& axis : configAxes()) {
        const std::string key(axis.name);
        if (j.contains(key) && validAxisValue(axis, j[key], path + "." + key, errors)) {
            values[key] = j[key];
        }
    }
    c.device = values["device"].get<std::string>();
    values["dtype"].get_to(c.dtype);
    c.batch_size = values["batch_size"].get<std::int64_t>();
    values["padding_side"].get_to(c.padding_side);
    values["pad_to"].get_to(c.pad_to);
    c.pad_to_n = values["pad_to_n"].get<std::int64_t>();
    values["order"].get_to(c.order);
    c.order_seed = values["order_seed"].get<std::uint64_t>();
    values["attention"].get_to(c.attention);
    values["kernels"].get_to(c.kernels);
    c.threads = values["threads"].get<std::int64_t>();
    c.deterministic = values["deterministic"].get<bool>();
    c.tf32 = values["tf32"].get<bool>();
    c.cudnn_benchmark = values["cudnn_benchmark"].get<bool>();
    values["cpu_capability"].get_to(c.cpu_capability);
    c.max_length = values["max_length"].get<std::int64_t>();
    c.concurrency = values["concurrency"].get<std::int64_t>();
    c.arrival_seed = values["arrival_seed"].get<std::uint64_t>();
    c.repeat = values["repeat"].get<std::int64_t>();
    values["prefix_cache"].get_to(c.prefix_cache);
    c.seed = values["seed"].get<std::int64_t>();
    values["runner"].get_to(c.runner);
    c.env = values["env"].get<std::string>();
    values["gemm"].get_to(c.gemm);
    c.model = values["model"].get<std::string>();
    if (!c.env.empty() && !j.contains("runner")) {
        c.runner = Runner::Transformers; // an environment is the transformers runner's
    }
    if (c.pad_to != PadTo::Longest && c.pad_to_n < 1) {
        errors.push_back(path + ".pad_to_n: pad_to \"" + nameString(c.pad_to) +
                         "\" needs pad_to_n >= 1");
    }
    if (c.dtype == Dtype::Float64 &&
        (c.device != "cpu" || c.kernels != Kernels::Default ||
         c.attention == Attention::BatchInvariant || c.attention == Attention::FlashAttention2 ||
         c.gemm != Gemm::Aten)) {
        errors.push_back(path + ".dtype: float64 (the exact reference) runs on the CPU with the "
                                "default kernels (device cpu, kernels default, attention math "
                                "or sdpa, gemm aten)");
    }
    if (c.gemm == Gemm::Onednn && (c.device != "cpu" || c.kernels != Kernels::Default)) {
        errors.push_back(path + ".gemm: onednn is a CPU path of the default kernels (device cpu, "
                                "kernels default)");
    }
    return c;
}

RunConfig RunConfig::fromJson(const json& j) {
    std::vector<std::string> errors;
    RunConfig c = fromJson(j, "$", errors);
    if (!errors.empty()) {
        std::string all;
        for (const auto& e : errors) {
            all += (all.empty() ? "" : "; ") + e;
        }
        throw Error("invalid run config: " + all);
    }
    return c;
}

std::vector<std::string> RunConfig::differences(const RunConfig& other) const {
    std::vector<std::string> out;
    const json a = allAxesJson();
    const json b = other.allAxesJson();
    for (const auto& [k, v] : a.items()) {
        if (b.at(k) != v) {
            out.push_back(k);
        }
    }
    return out;
}

} // namespace probaudit
