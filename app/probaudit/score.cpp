#include "app/probaudit/score.h"

#include <cstdio>

#include <sstream>

namespace probaudit::app {

using nlohmann::json;

std::string formatScore(const json& s) {
    std::ostringstream o;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%zu items in %.3f s (%.1f items/s; forward and head %.3f s)\n",
                  s.at("items").get<std::size_t>(), s.at("seconds").get<double>(),
                  s.at("items_per_second").get<double>(), s.at("forward_seconds").get<double>());
    o << buf;
    if (!s.at("accuracy").is_null()) {
        std::snprintf(buf, sizeof buf, "accuracy %.4f on %zu labelled items\n",
                      s.at("accuracy").get<double>(), s.at("labelled").get<std::size_t>());
        o << buf;
    }
    o << "truncated " << s.at("truncated").get<std::size_t>() << ", non-finite "
      << s.at("nonfinite").get<std::size_t>() << ", config "
      << s.at("config_hash").get<std::string>() << "\n";
    return o.str();
}

} // namespace probaudit::app
