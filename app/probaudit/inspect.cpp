#include "app/probaudit/inspect.h"

#include <cstdio>

#include <sstream>

namespace probaudit::app {

using nlohmann::json;

std::string formatInspection(const json& info) {
    std::ostringstream o;
    const auto& h = info.at("hyperparameters");
    o << "Path           " << info.at("path").get<std::string>() << "\n";
    o << "Format         " << info.at("format").get<std::string>() << " ("
      << info.at("files").get<std::size_t>() << " file(s), "
      << info.at("tensors").get<std::size_t>() << " tensors)\n";
    o << "Architecture   " << info.at("model_type").get<std::string>();
    for (const auto& a : info.at("architectures")) {
        o << " / " << a.get<std::string>();
    }
    o << "\n";
    o << "Parameters     " << info.at("parameters").get<std::int64_t>() << "\n";
    o << "Stored types  ";
    for (const auto& [d, n] : info.at("dtypes").items()) {
        o << " " << d << " x" << n.get<std::int64_t>();
    }
    o << "\n";
    o << "Layers         " << h.at("layers").get<std::int64_t>() << ", hidden "
      << h.at("hidden_size").get<std::int64_t>() << ", heads " << h.at("heads").get<std::int64_t>()
      << " (kv " << h.at("kv_heads").get<std::int64_t>() << ", dim "
      << h.at("head_dim").get<std::int64_t>() << "), ffn "
      << h.at("intermediate_size").get<std::int64_t>() << ", "
      << h.at("activation").get<std::string>() << "\n";
    o << "Tokenizer      " << info.at("tokenizer").at("kind").get<std::string>() << ", vocabulary "
      << info.at("tokenizer").at("vocab_size").get<std::size_t>() << ", "
      << info.at("tokenizer").at("special_tokens_added").get<std::size_t>()
      << " special token(s) added per input\n";
    if (!info.at("ignored_config_fields").empty()) {
        o << "Warning        config fields not used by the engine:";
        for (const auto& f : info.at("ignored_config_fields")) {
            o << " " << f.get<std::string>();
        }
        o << "\n";
    }
    if (info.contains("load")) {
        const auto& l = info.at("load");
        char buf[160];
        std::snprintf(
            buf, sizeof buf,
            "Load (float32) %.2f s, weights %.0f MiB; peak memory %.0f MiB, of which "
            "%.0f MiB for the model (%.2fx the weights)\n",
            l.at("seconds").get<double>(), l.at("float32_weight_mib").get<double>(),
            l.at("peak_rss_mib").get<double>(), l.at("peak_rss_increase_mib").get<double>(),
            l.at("peak_rss_increase_mib").get<double>() / l.at("float32_weight_mib").get<double>());
        o << buf;
    }
    return o.str();
}

std::string formatTokens(const json& t) {
    std::ostringstream o;
    o << t.at("count").get<std::size_t>() << " tokens\n";
    const auto& ids = t.at("ids");
    const auto& pieces = t.at("pieces");
    for (std::size_t i = 0; i < ids.size(); ++i) {
        o << ids[i].get<std::int32_t>() << "\t" << json(pieces[i].get<std::string>()).dump()
          << "\n";
    }
    return o.str();
}

} // namespace probaudit::app
