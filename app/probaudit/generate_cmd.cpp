#include "generate_cmd.h"

#include "predict.h"

#include "common/error.h"
#include "common/run_config.h"
#include "engine/engine.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace probaudit::app {

using nlohmann::json;

json generate(const GenerateArgs& a) {
    const RunConfig config = configFromArg(a.config);
    if (a.templateText.find("{text}") == std::string::npos) {
        throw Error("--template must contain {text}");
    }
    std::vector<std::string> ids, prompts;
    for (const auto& p : a.prompts) {
        ids.push_back(std::to_string(ids.size()));
        prompts.push_back(p);
    }
    if (!a.input.empty()) {
        std::ifstream in(a.input);
        if (!in) {
            throw Error(a.input, "cannot be read");
        }
        std::size_t line = 0;
        for (std::string s; std::getline(in, s);) {
            ++line;
            if (s.find_first_not_of(" \t\r") == std::string::npos) {
                continue;
            }
            const json j = json::parse(s, nullptr, false);
            if (j.is_discarded() || !j.contains("text") || !j["text"].is_string()) {
                throw Error(a.input, "line " + std::to_string(line) +
                                         ": not a JSON object with a \"text\" string");
            }
            std::string t = a.templateText;
            t.replace(t.find("{text}"), 6, j["text"].get<std::string>());
            ids.push_back(j.contains("id")
                              ? (j["id"].is_string() ? j["id"].get<std::string>() : j["id"].dump())
                              : std::to_string(ids.size()));
            prompts.push_back(t);
        }
    }
    if (prompts.empty()) {
        throw Error("nothing to generate: give --prompt or --input");
    }
    engine::GenerateOptions opt;
    opt.max_new_tokens = a.maxNewTokens;
    opt.stop = a.stop;
    opt.stop_at_eos = !a.noEos;
    engine::Engine eng(a.model, engine::HeadSpec{});
    const auto out = eng.generate(prompts, config, opt);
    json items = json::array();
    for (std::size_t i = 0; i < out.size(); ++i) {
        json tokens = json::array(), pieces = json::array(), logits = json::array(),
             gaps = json::array();
        for (const auto& s : out[i].steps) {
            tokens.push_back(s.token);
            pieces.push_back(eng.tokenizer().token(s.token));
            logits.push_back(s.logit);
            gaps.push_back(s.gap);
        }
        items.push_back({{"id", ids[i]},
                         {"prompt_tokens", out[i].prompt_ids.size()},
                         {"tokens", tokens},
                         {"pieces", pieces},
                         {"logits", logits},
                         {"gaps", gaps},
                         {"text", out[i].text},
                         {"finish", out[i].finish}});
    }
    return json{{"model", a.model},
                {"config", config.toJson()},
                {"max_new_tokens", a.maxNewTokens},
                {"items", items}};
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
    return o.str();
}

} // namespace probaudit::app
