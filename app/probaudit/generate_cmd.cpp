#include "app/probaudit/generate_cmd.h"

#include "core/analysis/export.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace probaudit::app {

using nlohmann::json;

std::string formatProbe(const json& p) {
    std::ostringstream o;
    analysis::writeGenerationMarkdown(o, p.at("comparisons"));
    o.setf(std::ios::fixed);
    o << "\nScheduler overhead (share of generation time):";
    for (const auto& r : p.at("runs")) {
        o << " " << std::setprecision(2) << 100.0 * r.at("overhead_share").get<double>() << "%";
    }
    o << "\n";
    return o.str();
}

std::string formatGeneration(const json& g) {
    std::ostringstream o;
    for (const auto& it : g.at("items")) {
        double minGap = 1e30;
        for (const auto& v : it.at("gaps")) {
            minGap = std::min(minGap, v.get<double>());
        }
        o << "[" << it.at("id").get<std::string>() << "] " << it.at("tokens").size() << " tokens, "
          << it.at("finish").get<std::string>();
        if (!it.at("gaps").empty()) {
            o << ", smallest top-2 logit gap " << minGap;
        }
        o << "\n" << it.at("text").get<std::string>() << "\n\n";
    }
    if (g.contains("serving")) {
        const json& s = g.at("serving");
        o << "serving simulation: concurrency " << g.at("config").at("concurrency") << ", "
          << s.at("prefills") << " prefills, " << s.at("decode_steps") << " decode steps, "
          << "scheduler overhead " << 100.0 * s.at("overhead_share").get<double>() << "% of "
          << s.at("total_seconds").get<double>() << " s\n";
    }
    return o.str();
}

} // namespace probaudit::app
