// probaudit generation-probe MODEL --input ITEMS.jsonl --template T --records SPEC ...
#include "app/probaudit/command.h"
#include "app/probaudit/generate_cmd.h"

#include "core/common/error.h"
#include "core/tasks/generate.h"
#include "core/tasks/predict.h"

#include <fstream>
#include <iostream>

namespace probaudit::app {

using tasks::GenerateArgs;
using tasks::ProbeArgs;

void addGenerationOptions(CLI::App* sub, GenerateArgs& g); // generate.cpp

namespace {
struct ProbeCommandArgs {
    ProbeArgs probe;
    bool json = false;
    std::string save;
};
} // namespace

void addGenerationProbeCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ProbeCommandArgs>();
    CLI::App* sub = cli.add_subcommand(
        "generation-probe",
        "The serving probe: concurrency 1 twice, concurrency C twice (two arrival orders), 1 vs "
        "C; byte-identical share, record Jaccard, answer agreement, gaps at divergence");
    addGenerationOptions(sub, a->probe.gen);
    sub->add_option("--config", a->probe.gen.config,
                    "Base runtime configuration as JSON (dtype, threads, ...; not batch_size "
                    "or concurrency)");
    sub->add_option("--records", a->probe.records,
                    "How outputs become records, as JSON: {\"mode\": lines|json|regex, "
                    "\"pattern\", \"lowercase\", \"strip_bullets\", \"reduction\": "
                    "most_frequent|count} (default: one per line)");
    sub->add_option("--concurrency", a->probe.concurrency, "C (default 4)")
        ->check(CLI::Range(2L, 4096L));
    sub->add_option("--arrival-seeds", a->probe.seeds, "The two arrival seeds (default 1 2)")
        ->expected(2);
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    sub->add_option("--save", a->save, "Also write the JSON to this file");
    onChosen(sub, chosen, a, [](const ProbeCommandArgs& o, const Invocation& inv) {
        tasks::ensureCpuCapability(o.probe.gen.config, inv.argc, inv.argv);
        const auto p = tasks::generationProbe(o.probe);
        const std::string text =
            p.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (!o.save.empty()) {
            std::ofstream f(o.save);
            f << text;
            if (!f) {
                throw Error(o.save, "cannot be written");
            }
        }
        std::cout << (o.json ? text : formatProbe(p));
        return 0;
    });
}

} // namespace probaudit::app
