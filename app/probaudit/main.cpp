// probaudit: the command-line interface and headless engine (Qt-free).
#include "env_text.h"
#include "inspect.h"
#include "predict.h"
#include "score.h"

#include "common/build_info.h"
#include "common/error.h"
#include "engine/env_fingerprint.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

namespace {

constexpr int kExitError = 1;

int runEnv(bool asJson) {
    const nlohmann::json env = probaudit::engine::collectEnvironment();
    if (asJson) {
        std::cout << env.dump(2) << "\n";
    } else {
        std::cout << probaudit::app::formatEnvironment(env);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"ProbAudit: do decisions and decision probabilities reproduce across runtime "
                 "configurations?",
                 "probaudit"};
    app.set_version_flag("--version",
                         std::string("probaudit ") + probaudit::engineVersion() + " (commit " +
                             probaudit::gitCommit() + (probaudit::gitDirty() ? ", modified" : "") +
                             ")");
    app.require_subcommand(0, 1);

    bool envJson = false;
    CLI::App* env = app.add_subcommand(
        "env", "Print the environment fingerprint: libtorch and CUDA build, GPUs, CPU and ISA, "
               "threads, numerics-relevant variables, compiled kernels, engine version");
    env->add_flag("--json", envJson, "Machine-readable JSON");

    bool inspectJson = false;
    std::string inspectPath;
    CLI::App* inspect = app.add_subcommand(
        "inspect", "Describe a checkpoint: format, architecture, parameter count, dtypes, "
                   "tokenizer kind and vocabulary size");
    bool inspectLoad = false;
    inspect->add_option("PATH", inspectPath, "Hugging Face model folder or .gguf file")->required();
    inspect->add_flag("--json", inspectJson, "Machine-readable JSON");
    inspect->add_flag("--load", inspectLoad,
                      "Also load every weight in float32 and report load time and peak memory");

    std::string tokenizePath;
    std::string tokenizeText;
    bool tokenizeJson = false;
    bool tokenizeNoSpecial = false;
    CLI::App* tokenize = app.add_subcommand(
        "tokenize", "Print the token ids and pieces the model's tokenizer gives a text");
    tokenize->add_option("PATH", tokenizePath, "Hugging Face model folder or .gguf file")->required();
    std::string tokenizeFile;
    auto* textOpt = tokenize->add_option("--text", tokenizeText, "Text to tokenize (UTF-8)");
    auto* fileOpt = tokenize->add_option("--text-file", tokenizeFile, "Read the text from a file (UTF-8)");
    textOpt->excludes(fileOpt);
    tokenize->add_flag("--no-special", tokenizeNoSpecial, "Do not add the template's special tokens");
    std::size_t tokenizeMax = 0;
    tokenize->add_option("--max-length", tokenizeMax,
                         "Truncate to this many tokens, special tokens included (warns when it does)");
    tokenize->add_flag("--json", tokenizeJson, "Machine-readable JSON");

    std::string predictModel;
    std::string predictHead;
    std::string predictText;
    std::string predictConfig;
    bool predictJson = false;
    CLI::App* predict = app.add_subcommand(
        "predict", "Run one input: class probabilities, decision, margin and per-layer norms");
    predict->add_option("MODEL", predictModel, "Hugging Face model folder or .gguf file")->required();
    predict->add_option("--head", predictHead,
                        "Decision head: JSON or a JSON file, e.g. "
                        "'{\"kind\":\"label_tokens\",\"template\":\"{text} Positive?\",\"labels\":[\" No\",\" Yes\"]}'")
        ->required();
    predict->add_option("--text", predictText, "Input text (UTF-8)")->required();
    predict->add_option("--config", predictConfig, "Runtime configuration as JSON (defaults otherwise)");
    predict->add_flag("--json", predictJson, "Machine-readable JSON");

    probaudit::app::ScoreOptions scoreOpt;
    bool scoreJson = false;
    CLI::App* score = app.add_subcommand(
        "score", "Run the engine over a JSONL file of items (text, label, id) without a study: "
                 "accuracy, decisions, throughput; optional per-item records");
    score->add_option("MODEL", scoreOpt.model, "Hugging Face model folder or .gguf file")->required();
    score->add_option("--head", scoreOpt.head, "Decision head: JSON or a JSON file")->required();
    score->add_option("--input", scoreOpt.input, "Items, one JSON object a line")->required();
    score->add_option("--config", scoreOpt.config, "Runtime configuration as JSON");
    score->add_option("--capture", scoreOpt.capture, "none | hashes | vectors | full");
    score->add_option("--limit", scoreOpt.limit, "Only the first N items");
    score->add_option("--output", scoreOpt.output, "Write per-item records (JSONL)");
    score->add_option("--warmup", scoreOpt.warmup, "Batches to run once, untimed, before the measured run");
    score->add_flag("--json", scoreJson, "Machine-readable JSON");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }

    try {
        if (env->parsed()) {
            return runEnv(envJson);
        }
        if (inspect->parsed()) {
            const auto info = probaudit::app::inspectCheckpoint(inspectPath, inspectLoad);
            std::cout << (inspectJson ? info.dump(2) + "\n"
                                      : probaudit::app::formatInspection(info));
            return 0;
        }
        if (score->parsed()) {
            probaudit::app::ensureCpuCapability(scoreOpt.config, argc, argv);
            const auto s = probaudit::app::score(scoreOpt);
            std::cout << (scoreJson ? s.dump(2) + "\n" : probaudit::app::formatScore(s));
            return 0;
        }
        if (predict->parsed()) {
            probaudit::app::ensureCpuCapability(predictConfig, argc, argv);
            const auto p = probaudit::app::predict(predictModel, predictHead, predictText, predictConfig);
            std::cout << (predictJson ? p.dump(2) + "\n" : probaudit::app::formatPrediction(p));
            return 0;
        }
        if (tokenize->parsed()) {
            if (!tokenizeFile.empty()) {
                tokenizeText = probaudit::app::readUtf8File(tokenizeFile);
            } else if (textOpt->count() == 0) {
                throw probaudit::Error("tokenize needs --text or --text-file");
            }
            const auto t =
                probaudit::app::tokenizeText(tokenizePath, tokenizeText, !tokenizeNoSpecial, tokenizeMax);
            if (t.at("truncated").get<bool>()) {
                std::cerr << "probaudit: warning: input truncated from " << t.at("full_length").get<std::size_t>()
                          << " to " << t.at("count").get<std::size_t>() << " tokens\n";
            }
            std::cout << (tokenizeJson ? t.dump() + "\n" : probaudit::app::formatTokens(t));
            return 0;
        }
        std::cout << app.help();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "probaudit: error: " << e.what() << "\n";
        return kExitError;
    }
}
