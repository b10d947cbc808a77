#include "app/probaudit/predict.h"

#include <cstdio>

#include <sstream>

namespace probaudit::app {

using nlohmann::json;

std::string formatPrediction(const json& p) {
    std::ostringstream o;
    char buf[256];
    o << "Tokens          " << p.at("tokens").get<std::int64_t>()
      << (p.at("truncated").get<bool>() ? " (truncated to the model's maximum)" : "") << "\n";
    for (const auto& c : p.at("classes")) {
        std::snprintf(buf, sizeof buf, "  %-14s p = %.6f   logit %.6f\n",
                      json(c.at("label").get<std::string>()).dump().c_str(),
                      c.at("probability").get<double>(), c.at("logit").get<double>());
        o << buf;
    }
    if (p.at("nonfinite").get<bool>()) {
        o << "Decision        none: the logits are not finite (NaN or Inf)\n";
    } else {
        std::snprintf(buf, sizeof buf, "Decision        %s (margin %.6f logits)\n",
                      p.at("decision").get<std::string>().c_str(), p.at("margin").get<double>());
        o << buf;
    }
    o << "Config          " << p.at("config_hash").get<std::string>() << " "
      << p.at("config").dump() << "\n";
    o << "Layer norms    ";
    int i = 0;
    for (const auto& n : p.at("layer_norms")) {
        std::snprintf(buf, sizeof buf, " %d:%.3f", i++, n.get<double>());
        o << buf;
    }
    o << "\n";
    return o.str();
}

} // namespace probaudit::app
