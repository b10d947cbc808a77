#include "core/tasks/generate.h"

#include "core/tasks/predict.h"

#include "core/analysis/export.h"
#include "core/analysis/generation_compare.h"
#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/run_config.h"
#include "core/engine/engine.h"

#include <fstream>

namespace probaudit::tasks {

using nlohmann::json;

namespace {

// The prompts of --prompt and --input (each text wrapped by the template), with their ids.
void readPrompts(const GenerateArgs& a, std::vector<std::string>& ids,
                 std::vector<std::string>& prompts) {
    if (a.templateText.find("{text}") == std::string::npos) {
        throw Error("--template must contain {text}");
    }
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
            const std::optional<json> parsed = tryParseJson(s);
            const json j = parsed ? *parsed : json();
            if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) {
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
}

engine::GenerateOptions generateOptions(const GenerateArgs& a) {
    engine::GenerateOptions opt;
    opt.max_new_tokens = a.maxNewTokens;
    opt.stop = a.stop;
    opt.stop_at_eos = !a.noEos;
    return opt;
}

// The probe's checks of its arguments, then the record spec they give.
analysis::RecordSpec probeRecordSpec(const ProbeArgs& a, const RunConfig& base) {
    if (a.concurrency < 2) {
        throw Error("--concurrency must be at least 2 (1 is the serial reference it is probed "
                    "against)");
    }
    if (base.batch_size != 1 || base.concurrency != 1) {
        throw Error("the probe sets the concurrency itself; leave batch_size and concurrency out "
                    "of --config");
    }
    if (a.seeds.size() != 2 || a.seeds[0] == a.seeds[1]) {
        throw Error("--arrival-seeds needs two different seeds (one per run of a pair)");
    }
    const json recordsJson = [&] {
        try {
            return parseJson(a.records);
        } catch (const JsonError& e) {
            throw Error("--records", e.what());
        }
    }();
    return analysis::RecordSpec::fromJson(recordsJson);
}

// One serving-simulation run of the probe.
struct ProbeRun {
    std::string name;
    RunConfig config;
    std::vector<analysis::GenerationOutput> outputs;
    engine::ServeStats stats;
};

// Four runs: concurrency 1 and C, each with both arrival seeds (a server's run-to-run
// difference is the order in which requests happen to arrive).
std::vector<ProbeRun> probeRuns(engine::Engine& eng, const ProbeArgs& a, const RunConfig& base,
                                const std::vector<std::string>& ids,
                                const std::vector<std::string>& prompts,
                                const engine::GenerateOptions& opt) {
    std::vector<ProbeRun> runs;
    for (const std::int64_t c : {std::int64_t(1), std::int64_t(a.concurrency)}) {
        for (const auto seed : a.seeds) {
            ProbeRun r;
            r.config = base;
            r.config.concurrency = c;
            r.config.arrival_seed = seed;
            r.name = "concurrency " + std::to_string(c) + ", arrival seed " + std::to_string(seed);
            const auto out = eng.serve(prompts, r.config, opt, &r.stats);
            for (std::size_t i = 0; i < out.size(); ++i) {
                analysis::GenerationOutput o{ids[i], {}, {}, out[i].text};
                for (const auto& st : out[i].steps) {
                    o.tokens.push_back(st.token);
                    o.gaps.push_back(st.gap);
                }
                r.outputs.push_back(std::move(o));
            }
            runs.push_back(std::move(r));
        }
    }
    return runs;
}

// The three pairs of the probe's table, compared.
json probeComparisons(const std::vector<ProbeRun>& runs, long concurrency,
                      const analysis::RecordSpec& records) {
    const std::string C = std::to_string(concurrency);
    const struct {
        std::string name;
        std::size_t a, b;
    } pairs[] = {{"concurrency 1, run twice", 0, 1},
                 {"concurrency " + C + ", run twice", 2, 3},
                 {"concurrency 1 vs concurrency " + C, 0, 2}};
    json comparisons = json::array();
    for (const auto& p : pairs) {
        json c = analysis::generationComparisonJson(
            analysis::compareGenerations(runs[p.a].outputs, runs[p.b].outputs, records));
        c["name"] = p.name;
        c["a"] = runs[p.a].name;
        c["b"] = runs[p.b].name;
        comparisons.push_back(std::move(c));
    }
    return comparisons;
}

} // namespace

json generate(const GenerateArgs& a) {
    const RunConfig config = configFromArg(a.config);
    std::vector<std::string> ids, prompts;
    readPrompts(a, ids, prompts);
    const engine::GenerateOptions opt = generateOptions(a);
    if (config.concurrency > 1 && config.batch_size > 1) {
        throw Error("give batch_size (static batches) or concurrency (the serving simulation), "
                    "not both");
    }
    engine::Engine eng(a.model, engine::HeadSpec{});
    engine::ServeStats stats;
    const bool serving = config.concurrency > 1;
    const auto out =
        serving ? eng.serve(prompts, config, opt, &stats) : eng.generate(prompts, config, opt);
    json items = json::array();
    for (std::size_t i = 0; i < out.size(); ++i) {
        json tokens = json::array(), pieces = json::array(), logits = json::array(),
             gaps = json::array(), batches = json::array();
        for (const auto& s : out[i].steps) {
            tokens.push_back(s.token);
            pieces.push_back(eng.tokenizer().token(s.token));
            logits.push_back(s.logit);
            gaps.push_back(s.gap);
            batches.push_back(s.batch);
        }
        items.push_back({{"id", ids[i]},
                         {"prompt_tokens", out[i].prompt_ids.size()},
                         {"arrival", out[i].arrival},
                         {"tokens", tokens},
                         {"pieces", pieces},
                         {"logits", logits},
                         {"gaps", gaps},
                         {"batch", batches},
                         {"text", out[i].text},
                         {"finish", out[i].finish}});
    }
    json result{{"model", a.model},
                {"config", config.toJson()},
                {"max_new_tokens", a.maxNewTokens},
                {"items", items}};
    if (serving) {
        result["serving"] = {{"prefills", stats.prefills},
                             {"decode_steps", stats.decode_steps},
                             {"max_resident", stats.max_resident},
                             {"total_seconds", stats.total_seconds},
                             {"model_seconds", stats.model_seconds},
                             {"record_seconds", stats.record_seconds},
                             {"overhead_share", stats.overheadShare()}};
    }
    return result;
}

json generationProbe(const ProbeArgs& a) {
    const RunConfig base = configFromArg(a.gen.config);
    const analysis::RecordSpec records = probeRecordSpec(a, base);
    std::vector<std::string> ids, prompts;
    readPrompts(a.gen, ids, prompts);
    const engine::GenerateOptions opt = generateOptions(a.gen);
    engine::Engine eng(a.gen.model, engine::HeadSpec{});
    const std::vector<ProbeRun> runs = probeRuns(eng, a, base, ids, prompts, opt);
    const json comparisons = probeComparisons(runs, a.concurrency, records);
    json runList = json::array();
    for (const auto& r : runs) {
        runList.push_back({{"name", r.name},
                           {"config", r.config.toJson()},
                           {"prefills", r.stats.prefills},
                           {"decode_steps", r.stats.decode_steps},
                           {"total_seconds", r.stats.total_seconds},
                           {"overhead_share", r.stats.overheadShare()}});
    }
    return json{{"model", a.gen.model},
                {"items", prompts.size()},
                {"max_new_tokens", a.gen.maxNewTokens},
                {"records", parseJson(a.records)},
                {"runs", runList},
                {"comparisons", comparisons}};
}

} // namespace probaudit::tasks
