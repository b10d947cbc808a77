// probaudit: the command-line interface and headless engine (Qt Core only, via core/bundle).
#include "bundle_cmds.h"
#include "compare_cmd.h"
#include "diagnose.h"
#include "engine_server.h"
#include "env_text.h"
#include "events.h"
#include "generate_cmd.h"
#include "inspect.h"
#include "ledger_cmds.h"
#include "pin.h"
#include "predict.h"
#include "score.h"
#include "study/study.h"
#include "study_run.h"
#include "train_adapter.h"

#include "common/build_info.h"
#include "common/error.h"
#include "engine/env_fingerprint.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <malloc.h>

namespace {

constexpr int kExitError = 1;

std::atomic<bool> g_stop{false};

// SIGINT/SIGTERM: finish the current batch, commit it, mark the run interrupted, exit 130.
// A second signal ends the process at once (the ledger keeps every committed batch).
extern "C" void onStopSignal(int sig) {
    if (g_stop.exchange(true)) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
}

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
    // A forward pass allocates and frees large tensors by the thousand. By default glibc hands
    // big freed blocks back to the kernel (mmap threshold, heap trimming) and the next batch
    // faults them in again, zero-filled: measured on SmolLM2 at batch 8, 3.3 million page
    // faults and ~7 s of system time per 30 s run. Keeping freed memory in the heap removes
    // that; numerics are untouched. MALLOC_MMAP_THRESHOLD_/MALLOC_TRIM_THRESHOLD_ still win.
    if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) {
        mallopt(M_MMAP_THRESHOLD, 512 << 20);
    }
    if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) {
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
    }
    CLI::App app{"ProbAudit: do decisions and decision probabilities reproduce across runtime "
                 "configurations?",
                 "probaudit"};
    app.set_version_flag("--version", std::string("probaudit ") + probaudit::engineVersion() +
                                          " (commit " + probaudit::gitCommit() +
                                          (probaudit::gitDirty() ? ", modified" : "") + ")");
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
    tokenize->add_option("PATH", tokenizePath, "Hugging Face model folder or .gguf file")
        ->required();
    std::string tokenizeFile;
    auto* textOpt = tokenize->add_option("--text", tokenizeText, "Text to tokenize (UTF-8)");
    auto* fileOpt =
        tokenize->add_option("--text-file", tokenizeFile, "Read the text from a file (UTF-8)");
    textOpt->excludes(fileOpt);
    tokenize->add_flag("--no-special", tokenizeNoSpecial,
                       "Do not add the template's special tokens");
    std::size_t tokenizeMax = 0;
    tokenize->add_option(
        "--max-length", tokenizeMax,
        "Truncate to this many tokens, special tokens included (warns when it does)");
    tokenize->add_flag("--json", tokenizeJson, "Machine-readable JSON");

    std::string predictModel;
    std::string predictHead;
    std::string predictText;
    std::string predictConfig;
    bool predictJson = false;
    CLI::App* predict = app.add_subcommand(
        "predict", "Run one input: class probabilities, decision, margin and per-layer norms");
    predict->add_option("MODEL", predictModel, "Hugging Face model folder or .gguf file")
        ->required();
    predict
        ->add_option("--head", predictHead,
                     "Decision head: JSON or a JSON file, e.g. "
                     "'{\"kind\":\"label_tokens\",\"template\":\"{text} Positive?\",\"labels\":[\" "
                     "No\",\" Yes\"]}'")
        ->required();
    predict->add_option("--text", predictText, "Input text (UTF-8)")->required();
    predict->add_option("--config", predictConfig,
                        "Runtime configuration as JSON (defaults otherwise)");
    predict->add_flag("--json", predictJson, "Machine-readable JSON");

    probaudit::app::GenerateArgs genArgs;
    bool genJson = false;
    CLI::App* gen = app.add_subcommand(
        "generate", "Greedy generation (llama family, KV cache): new tokens, text, and every "
                    "step's logit and top-2 logit gap");
    gen->add_option("MODEL", genArgs.model, "Hugging Face model folder or .gguf file")->required();
    gen->add_option("--prompt", genArgs.prompts, "A prompt, as the model reads it (repeatable)");
    gen->add_option("--input", genArgs.input,
                    "JSONL of {\"id\", \"text\"}, each wrapped by --template");
    gen->add_option("--template", genArgs.templateText,
                    "Prompt template with {text} (for --input)");
    gen->add_option("--max-new-tokens", genArgs.maxNewTokens,
                    "Most new tokens per prompt (default 32)")
        ->check(CLI::Range(1L, 100000L));
    gen->add_option("--stop", genArgs.stop, "Stop string (repeatable): the text is cut before it");
    gen->add_flag("--no-eos", genArgs.noEos, "Do not stop at the model's end-of-sequence tokens");
    gen->add_option("--config", genArgs.config,
                    "Runtime configuration as JSON: batch_size batches the prompts statically "
                    "(left padding); concurrency C > 1 runs the serving simulation (continuous "
                    "batching, requests arriving in the order of arrival_seed)");
    gen->add_flag("--json", genJson, "Machine-readable JSON");

    probaudit::app::ProbeArgs probeArgs;
    bool probeJson = false;
    CLI::App* probe = app.add_subcommand(
        "generation-probe",
        "The serving probe: concurrency 1 twice, concurrency C twice (two arrival orders), 1 vs "
        "C; byte-identical share, record Jaccard, answer agreement, gaps at divergence");
    probe->add_option("MODEL", probeArgs.gen.model, "Hugging Face model folder or .gguf file")
        ->required();
    probe->add_option("--prompt", probeArgs.gen.prompts, "A prompt (repeatable)");
    probe->add_option("--input", probeArgs.gen.input,
                      "JSONL of {\"id\", \"text\"}, each wrapped by --template");
    probe->add_option("--template", probeArgs.gen.templateText, "Prompt template with {text}");
    probe
        ->add_option("--max-new-tokens", probeArgs.gen.maxNewTokens,
                     "Most new tokens per prompt (default 32)")
        ->check(CLI::Range(1L, 100000L));
    probe->add_option("--stop", probeArgs.gen.stop, "Stop string (repeatable)");
    probe->add_flag("--no-eos", probeArgs.gen.noEos, "Do not stop at end-of-sequence tokens");
    probe->add_option("--config", probeArgs.gen.config,
                      "Base runtime configuration as JSON (dtype, threads, ...; not batch_size "
                      "or concurrency)");
    probe->add_option("--records", probeArgs.records,
                      "How outputs become records, as JSON: {\"mode\": lines|json|regex, "
                      "\"pattern\", \"lowercase\", \"strip_bullets\", \"reduction\": "
                      "most_frequent|count} (default: one per line)");
    probe->add_option("--concurrency", probeArgs.concurrency, "C (default 4)")
        ->check(CLI::Range(2L, 4096L));
    probe->add_option("--arrival-seeds", probeArgs.seeds, "The two arrival seeds (default 1 2)")
        ->expected(2);
    probe->add_flag("--json", probeJson, "Machine-readable JSON");
    std::string probeSave;
    probe->add_option("--save", probeSave, "Also write the JSON to this file");

    probaudit::app::ScoreOptions scoreOpt;
    bool scoreJson = false;
    CLI::App* score = app.add_subcommand(
        "score", "Run the engine over a JSONL file of items (text, label, id) without a study: "
                 "accuracy, decisions, throughput; optional per-item records");
    score->add_option("MODEL", scoreOpt.model, "Hugging Face model folder or .gguf file")
        ->required();
    score->add_option("--head", scoreOpt.head, "Decision head: JSON or a JSON file")->required();
    score->add_option("--input", scoreOpt.input, "Items, one JSON object a line")->required();
    score->add_option("--config", scoreOpt.config, "Runtime configuration as JSON");
    score->add_option("--capture", scoreOpt.capture, "none | hashes | vectors | full");
    score->add_option("--limit", scoreOpt.limit, "Only the first N items");
    score->add_option("--output", scoreOpt.output, "Write per-item records (JSONL)");
    score->add_option("--warmup", scoreOpt.warmup,
                      "Batches to run once, untimed, before the measured run");
    score->add_option(
        "--repeat", scoreOpt.repeat,
        "Time the pass this many times and report the fastest (all are listed in --json)");
    score->add_flag("--json", scoreJson, "Machine-readable JSON");

    probaudit::app::RunOptions runOpt;
    std::string runEvents;
    CLI::App* run = app.add_subcommand(
        "run", "Run a study: its head variants under its configurations, every record into the "
               "study's ledger; resumes an unfinished run where it stopped");
    run->add_option("STUDY", runOpt.study, "Study file (*.study.json)")->required();
    run->add_option("--config", runOpt.configs, "Config name to run (repeatable)");
    run->add_flag("--all", runOpt.all, "Run every config, the reference first");
    run->add_option("--head", runOpt.heads, "Head variant to run (repeatable; default: all)");
    run->add_option("--ledger", runOpt.ledger,
                    "Ledger file (default: next to the study, NAME.ledger)");
    run->add_flag("--again", runOpt.again,
                  "Record configs that already have a finished run once more");
    run->add_flag("--skip-bad-lines", runOpt.skipBadLines,
                  "Skip malformed dataset lines with a warning");
    run->add_option("--events", runEvents,
                    "jsonl: one JSON event per line on stdout (for the workbench)")
        ->check(CLI::IsMember({"jsonl"}));

    std::string ledgerPath;
    bool runsJson = false;
    CLI::App* runs =
        app.add_subcommand("runs", "List a ledger's runs: config, environment, status, counts");
    runs->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    runs->add_flag("--json", runsJson, "Machine-readable JSON");

    long long exportRunId = 0;
    std::string exportFormat = "jsonl";
    std::string exportOutput;
    CLI::App* exportCmd =
        app.add_subcommand("export", "Write one run's per-item records (exact floats)");
    exportCmd->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    exportCmd->add_option("--run", exportRunId, "Run id (see `probaudit runs`)")->required();
    exportCmd->add_option("--format", exportFormat, "csv | jsonl")
        ->check(CLI::IsMember({"csv", "jsonl"}));
    exportCmd->add_option("--output", exportOutput, "File to write (default: stdout)");

    bool verifyJson = false;
    CLI::App* verify = app.add_subcommand(
        "verify",
        "Recompute every sealed run's hash chain; names the first run whose records or row changed "
        "(exit 2)");
    verify->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    verify->add_flag("--json", verifyJson, "Machine-readable JSON");

    probaudit::app::CompareOptions cmpOpt;
    CLI::App* compare = app.add_subcommand(
        "compare",
        "Compare two runs: three-level verdict, accuracy interval and McNemar test, flips, "
        "bit-identity, Δp, first divergent layer, margin histogram, kernel-trace diff");
    compare->add_option("LEDGER", cmpOpt.ledger, "Ledger file")->required();
    compare->add_option("A", cmpOpt.a, "Run id (the reference side)")->required();
    compare->add_option("B", cmpOpt.b, "Run id")->required();
    auto* cmpJson = compare->add_flag("--json", cmpOpt.json,
                                      "Everything as JSON, per-item differences included");
    auto* cmpCsv =
        compare->add_flag("--csv", cmpOpt.csv, "Per-item differences as CSV")->excludes(cmpJson);
    compare->add_flag("--jsonl", cmpOpt.jsonl, "Per-item differences as JSON lines")
        ->excludes(cmpJson)
        ->excludes(cmpCsv);
    compare->add_option("--top", cmpOpt.top, "How many largest-Δp items to list (default 10)");
    compare->add_option("--near-boundary", cmpOpt.nearBoundary,
                        "Also list the K smallest-margin items");

    std::string summaryHead;
    bool summaryJson = false;
    CLI::App* summaryCmd =
        app.add_subcommand("summary", "The study's headline table: each config against the "
                                      "reference (accuracy, agreement, flips, "
                                      "largest Δp, bit-identical share, first divergent layer)");
    summaryCmd->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    summaryCmd->add_option("--head", summaryHead, "Head variant (default: the first recorded)");
    auto* summaryJsonFlag = summaryCmd->add_flag("--json", summaryJson, "Machine-readable JSON");
    bool summaryCsv = false;
    summaryCmd->add_flag("--csv", summaryCsv, "The headline table as CSV")
        ->excludes(summaryJsonFlag);

    std::string reportOut, reportHead, reportSize = "a4", reportLock;
    CLI::App* reportCmd = app.add_subcommand(
        "report", "Write the study's PDF report (runs probaudit-report, the Qt-based writer)");
    reportCmd->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    reportCmd->add_option("-o,--output", reportOut, "The PDF file")->required();
    reportCmd->add_option("--head", reportHead, "Head variant (default: the first recorded)");
    reportCmd->add_option("--page-size", reportSize, "a4 or letter")
        ->check(CLI::IsMember({"a4", "letter"}));
    reportCmd->add_option("--lock", reportLock,
                          "Runtime lock for the pin status (default: beside the ledger)");

    std::string bundleOut, bundleHead, bundleLock;
    CLI::App* bundleCmd = app.add_subcommand(
        "bundle", "Pack the audit bundle: the ledger, the study, the runtime lock, the report and "
                  "MANIFEST.json with every file's SHA-256 (runs probaudit-report)");
    bundleCmd->add_option("LEDGER", ledgerPath, "Ledger file")->required();
    bundleCmd->add_option("-o,--output", bundleOut, "The zip file")->required();
    bundleCmd->add_option("--head", bundleHead, "Head variant of the report");
    bundleCmd->add_option("--lock", bundleLock, "Runtime lock (default: beside the ledger)");

    std::string importZip, importInto;
    CLI::App* importCmd = app.add_subcommand(
        "import", "Check an audit bundle (names, sizes, every SHA-256, the ledger's hash chain) "
                  "and merge its runs into a ledger, environments kept");
    importCmd->add_option("BUNDLE", importZip, "The audit bundle (zip)")->required();
    importCmd->add_option("--into", importInto, "The ledger to merge into")->required();

    probaudit::app::DiagnoseOptions diagOpt;
    CLI::App* diagnoseCmd =
        app.add_subcommand("diagnose", "The diagnosis ladder: loader and repeatability, neighbour "
                                       "interference, shape, kernels and "
                                       "runtime, on a sample; explains each config's gap from the "
                                       "reference and forecasts its flips");
    diagnoseCmd->add_option("STUDY", diagOpt.run.study, "Study file")->required();
    diagnoseCmd->add_option("--ledger", diagOpt.run.ledger,
                            "Ledger file (default: next to the study)");
    diagnoseCmd->add_option("--head", diagOpt.head, "Head variant (default: the first)");
    diagnoseCmd->add_option("--sample", diagOpt.sample, "Items in the probe sample (default 32)");
    diagnoseCmd->add_option("--batch", diagOpt.batch,
                            "Batch size of the batch and neighbour probes (default 8)");
    diagnoseCmd->add_option("--seed", diagOpt.seed, "Seed of the sample (default 1)");
    diagnoseCmd->add_flag("--skip-bad-lines", diagOpt.run.skipBadLines,
                          "Skip malformed dataset lines");
    diagnoseCmd->add_flag("--json", diagOpt.json,
                          "The ladder, the table and the explanations as JSON");

    probaudit::app::PinOptions pinOpt;
    CLI::App* pinCmd = app.add_subcommand("pin", "Pin a verified run: its environment fingerprint, "
                                                 "config, head, records digest and a rerun sample");
    pinCmd->add_option("STUDY", pinOpt.study, "Study file")->required();
    pinCmd->add_option("--run", pinOpt.run, "Run id (a finished study run)")->required();
    pinCmd->add_option("-o,--output", pinOpt.output, "Lock file to write, e.g. runtime.lock.json")
        ->required();
    pinCmd->add_option("--ledger", pinOpt.ledger, "Ledger file (default: next to the study)");
    pinCmd->add_option("--sample", pinOpt.sample,
                       "Items rerun and stored with exact results (default 32)");

    probaudit::app::CheckOptions checkOpt;
    CLI::App* checkCmd =
        app.add_subcommand("check", "Compare this runtime with a lock: exit 0 identical, 3 the "
                                    "environment differs, 4 results differ");
    checkCmd->add_option("LOCK", checkOpt.lock, "runtime.lock.json")->required();
    checkCmd->add_option("--study", checkOpt.study,
                         "Also rerun the lock's sample with this study's model");
    checkCmd->add_flag("--json", checkOpt.json, "Machine-readable JSON");

    probaudit::app::TrainOptions trainOpt;
    CLI::App* trainCmd = app.add_subcommand(
        "train-adapter",
        "Train a decision adapter (softmax regression on pooled hidden states of a frozen "
        "encoder), deterministic for a seed; writes the adapter and its card");
    trainCmd->add_option("MODEL", trainOpt.model, "Hugging Face model folder or .gguf file")
        ->required();
    trainCmd->add_option("--data", trainOpt.data, "Labelled items, JSONL or CSV (repeatable)")
        ->required();
    trainCmd->add_option("-o,--output", trainOpt.output, "Adapter file to write (.safetensors)")
        ->required();
    trainCmd->add_option("--labels", trainOpt.labels,
                         "Class names, in class-index order (default negative positive)");
    trainCmd->add_option("--pooling", trainOpt.pooling, "mean | cls | last (default mean)")
        ->check(CLI::IsMember({"mean", "cls", "last"}));
    trainCmd->add_option("--seed", trainOpt.seed, "Seed of the train/validation split (default 1)");
    trainCmd->add_option("--validation", trainOpt.validation,
                         "Share held out for early stopping (default 0.2)");
    trainCmd->add_option("--l2", trainOpt.l2, "L2 regularization of the weights (default 1e-4)");
    trainCmd->add_option("--lr", trainOpt.lr, "Adam learning rate (default 0.05)");
    trainCmd->add_option("--max-epochs", trainOpt.maxEpochs,
                         "Full-batch epochs at most (default 2000)");
    trainCmd->add_option("--patience", trainOpt.patience,
                         "Stop after this many epochs without a better validation loss");

    std::string migratePath;
    CLI::App* migrateCmd =
        app.add_subcommand("migrate", "Bring a ledger from an older ProbAudit to this schema");
    migrateCmd->add_option("LEDGER", migratePath, "Ledger file")->required();

    CLI::App* engineCmd = app.add_subcommand(
        "engine",
        "Serve requests as JSON lines on stdin/stdout (the workbench's engine; works over ssh)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }

    try {
        if (env->parsed()) {
            return runEnv(envJson);
        }
        if (run->parsed()) {
            std::signal(SIGINT, onStopSignal);
            std::signal(SIGTERM, onStopSignal);
            const auto events = probaudit::app::makeEvents(runEvents);
            return probaudit::app::runStudy(runOpt, *events, g_stop);
        }
        if (runs->parsed()) {
            return probaudit::app::listRuns(ledgerPath, runsJson);
        }
        if (exportCmd->parsed()) {
            return probaudit::app::exportRun(ledgerPath, exportRunId, exportFormat, exportOutput);
        }
        if (verify->parsed()) {
            return probaudit::app::verifyLedger(ledgerPath, verifyJson);
        }
        if (diagnoseCmd->parsed()) {
            std::signal(SIGINT, onStopSignal);
            std::signal(SIGTERM, onStopSignal);
            const auto st = probaudit::study::Study::load(diagOpt.run.study);
            probaudit::app::ensureCpuCapability(st.config(st.reference)->config.toJson().dump(),
                                                argc, argv);
            return probaudit::app::diagnose(diagOpt, g_stop);
        }
        if (pinCmd->parsed()) {
            return probaudit::app::pinRun(pinOpt);
        }
        if (checkCmd->parsed()) {
            probaudit::app::ensureCpuCapability(probaudit::app::lockedConfigJson(checkOpt.lock),
                                                argc, argv);
            return probaudit::app::checkLock(checkOpt);
        }
        if (reportCmd->parsed()) {
            std::vector<std::string> args{ledgerPath, "-o", reportOut, "--page-size", reportSize};
            if (!reportHead.empty()) {
                args.insert(args.end(), {"--head", reportHead});
            }
            if (!reportLock.empty()) {
                args.insert(args.end(), {"--lock", reportLock});
            }
            return probaudit::app::runSibling("probaudit-report", args);
        }
        if (importCmd->parsed()) {
            return probaudit::app::runImport({importZip, importInto});
        }
        if (bundleCmd->parsed()) {
            return probaudit::app::runBundle({ledgerPath, bundleOut, bundleHead, bundleLock});
        }
        if (summaryCmd->parsed()) {
            return probaudit::app::summarize(ledgerPath, summaryHead, summaryJson, summaryCsv);
        }
        if (trainCmd->parsed()) {
            return probaudit::app::trainAdapter(trainOpt);
        }
        if (migrateCmd->parsed()) {
            return probaudit::app::migrateLedger(migratePath);
        }
        if (compare->parsed()) {
            return probaudit::app::compareRuns(cmpOpt);
        }
        if (engineCmd->parsed()) {
            return probaudit::app::serveEngine();
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
        if (gen->parsed()) {
            probaudit::app::ensureCpuCapability(genArgs.config, argc, argv);
            const auto g = probaudit::app::generate(genArgs);
            // A byte-level token can end inside a character: such bytes of "pieces" and "text"
            // become U+FFFD in JSON (the token ids stay exact).
            std::cout << (genJson
                              ? g.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                    "\n"
                              : probaudit::app::formatGeneration(g));
            return 0;
        }
        if (probe->parsed()) {
            probaudit::app::ensureCpuCapability(probeArgs.gen.config, argc, argv);
            const auto p = probaudit::app::generationProbe(probeArgs);
            if (!probeSave.empty()) {
                std::ofstream f(probeSave);
                f << p.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
                if (!f) {
                    throw probaudit::Error(probeSave, "cannot be written");
                }
            }
            std::cout << (probeJson
                              ? p.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                                    "\n"
                              : probaudit::app::formatProbe(p));
            return 0;
        }
        if (predict->parsed()) {
            probaudit::app::ensureCpuCapability(predictConfig, argc, argv);
            const auto p =
                probaudit::app::predict(predictModel, predictHead, predictText, predictConfig);
            std::cout << (predictJson ? p.dump(2) + "\n" : probaudit::app::formatPrediction(p));
            return 0;
        }
        if (tokenize->parsed()) {
            if (!tokenizeFile.empty()) {
                tokenizeText = probaudit::app::readUtf8File(tokenizeFile);
            } else if (textOpt->count() == 0) {
                throw probaudit::Error("tokenize needs --text or --text-file");
            }
            const auto t = probaudit::app::tokenizeText(tokenizePath, tokenizeText,
                                                        !tokenizeNoSpecial, tokenizeMax);
            if (t.at("truncated").get<bool>()) {
                std::cerr << "probaudit: warning: input truncated from "
                          << t.at("full_length").get<std::size_t>() << " to "
                          << t.at("count").get<std::size_t>() << " tokens\n";
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
