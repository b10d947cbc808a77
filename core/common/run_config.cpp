#include "common/run_config.h"

#include "common/error.h"
#include "common/sha256.h"

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
    return j;
}

json RunConfig::allAxesJson() const {
    json j = toJson();
    j["concurrency"] = concurrency;
    j["arrival_seed"] = arrival_seed;
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

void choice(const json& j, const char* key, std::string& out, const std::set<std::string>& allowed,
            const std::string& path, std::vector<std::string>& errors) {
    if (!j.contains(key)) {
        return;
    }
    const std::string where = path + "." + key;
    if (!j[key].is_string()) {
        errors.push_back(where + ": must be a string");
        return;
    }
    const std::string v = j[key].get<std::string>();
    if (!allowed.count(v)) {
        std::string list;
        for (const auto& a : allowed) {
            list += (list.empty() ? "" : ", ") + (a.empty() ? std::string("\"\"") : a);
        }
        errors.push_back(where + ": unknown value \"" + v + "\" (one of: " + list + ")");
        return;
    }
    out = v;
}

template <typename Int>
void integer(const json& j, const char* key, Int& out, std::int64_t min, const std::string& path,
             std::vector<std::string>& errors) {
    if (!j.contains(key)) {
        return;
    }
    const std::string where = path + "." + key;
    if (!j[key].is_number_integer() || j[key].get<std::int64_t>() < min) {
        errors.push_back(where + ": must be an integer >= " + std::to_string(min));
        return;
    }
    out = j[key].get<Int>();
}

void boolean(const json& j, const char* key, bool& out, const std::string& path,
             std::vector<std::string>& errors) {
    if (!j.contains(key)) {
        return;
    }
    if (!j[key].is_boolean()) {
        errors.push_back(path + "." + key + ": must be true or false");
        return;
    }
    out = j[key].get<bool>();
}

} // namespace

RunConfig RunConfig::fromJson(const json& j, const std::string& path,
                              std::vector<std::string>& errors) {
    RunConfig c;
    if (!j.is_object()) {
        errors.push_back(path + ": must be an object");
        return c;
    }
    static const std::set<std::string> kKeys = {
        "device",     "dtype",         "batch_size",  "padding_side",    "pad_to",
        "pad_to_n",   "order",         "order_seed",  "attention",       "kernels",
        "threads",    "deterministic", "tf32",        "cudnn_benchmark", "cpu_capability",
        "max_length", "concurrency",   "arrival_seed"};
    for (const auto& [k, v] : j.items()) {
        if (!kKeys.count(k)) {
            errors.push_back(path + "." + k + ": unknown config axis");
        }
    }
    if (j.contains("device")) {
        const std::string where = path + ".device";
        if (!j["device"].is_string()) {
            errors.push_back(where + ": must be a string");
        } else {
            const std::string d = j["device"].get<std::string>();
            const bool cuda = d.rfind("cuda:", 0) == 0 && d.size() > 5 &&
                              d.find_first_not_of("0123456789", 5) == std::string::npos;
            if (d == "cpu" || cuda) {
                c.device = d;
            } else {
                errors.push_back(where + ": unknown value \"" + d + "\" (cpu or cuda:N)");
            }
        }
    }
    choice(j, "dtype", c.dtype, {"float32", "bfloat16", "float16"}, path, errors);
    integer(j, "batch_size", c.batch_size, 1, path, errors);
    choice(j, "padding_side", c.padding_side, {"right", "left"}, path, errors);
    choice(j, "pad_to", c.pad_to, {"longest", "multiple", "fixed"}, path, errors);
    integer(j, "pad_to_n", c.pad_to_n, 0, path, errors);
    choice(j, "order", c.order, {"as_given", "shuffled", "by_length"}, path, errors);
    integer(j, "order_seed", c.order_seed, 0, path, errors);
    choice(j, "attention", c.attention, {"math", "sdpa", "batch_invariant"}, path, errors);
    choice(j, "kernels", c.kernels, {"default", "batch_invariant"}, path, errors);
    integer(j, "threads", c.threads, 1, path, errors);
    boolean(j, "deterministic", c.deterministic, path, errors);
    boolean(j, "tf32", c.tf32, path, errors);
    boolean(j, "cudnn_benchmark", c.cudnn_benchmark, path, errors);
    choice(j, "cpu_capability", c.cpu_capability, {"", "default", "avx2", "avx512"}, path, errors);
    integer(j, "max_length", c.max_length, 0, path, errors);
    integer(j, "concurrency", c.concurrency, 1, path, errors);
    integer(j, "arrival_seed", c.arrival_seed, 0, path, errors);
    if (c.pad_to != "longest" && c.pad_to_n < 1) {
        errors.push_back(path + ".pad_to_n: pad_to \"" + c.pad_to + "\" needs pad_to_n >= 1");
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
