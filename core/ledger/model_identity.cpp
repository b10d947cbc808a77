#include "core/ledger/model_identity.h"

namespace probaudit::ledger {

using nlohmann::json;

namespace {

// A server variant is the same when it serves the same model name and claims the same local
// variant; where it is (its URL) may move, and what it is is its runs' environment fingerprint.
bool sameServer(const json& a, const json& b) {
    const auto served = [](const json& v) {
        const auto it = v.find("server");
        return it != v.end() && it->is_object() ? it->value("name", "") : std::string();
    };
    return a.value("serves", "") == b.value("serves", "") && served(a) == served(b);
}

bool sameWeights(const json& a, const json& b) {
    if (!a.is_object() || !b.is_object() || a.value("format", "") != b.value("format", "")) {
        return false;
    }
    if (a.value("format", "") == "endpoint") {
        return sameServer(a, b);
    }
    return a.value("sha256", "") == b.value("sha256", "");
}

const json& variantsOf(const json& study) {
    static const json none = json::object();
    const auto it = study.find("models");
    return it != study.end() && it->is_object() ? *it : none;
}

} // namespace

std::string modelsDiffer(const json& theirs, const json& ours) {
    if (!theirs.is_object() || !ours.is_object()) {
        return "a stored study is not an object";
    }
    if (theirs.contains("models") != ours.contains("models")) {
        return "one holds model variants ($.models) and the other one model";
    }
    if (!theirs.contains("models")) {
        const auto model = [](const json& s) { return s.contains("model") ? s["model"] : json(); };
        return sameWeights(model(theirs), model(ours)) ? "" : "the model's files differ";
    }
    const json& mine = variantsOf(ours);
    for (const auto& [name, v] : variantsOf(theirs).items()) {
        if (mine.contains(name) && !sameWeights(v, mine[name])) {
            return v.value("format", "") == "endpoint"
                       ? "server variant \"" + name +
                             "\" serves another model or claims another "
                             "variant"
                       : "the files of model variant \"" + name + "\" differ";
        }
    }
    return "";
}

json withVariantsOf(json ours, const json& theirs) {
    if (!ours.is_object() || !ours.contains("models") || !ours["models"].is_object()) {
        return ours;
    }
    for (const auto& [name, v] : variantsOf(theirs).items()) {
        if (!variantsOf(ours).contains(name)) {
            ours["models"][name] = v;
        }
    }
    return ours;
}

} // namespace probaudit::ledger
