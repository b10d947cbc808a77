// probaudit localize STUDY --b NAME [--a NAME] [--ledger L] [--head NAME] [--items ID,...]
//   [--sample N] [--threshold S] [--reverse] [--json]
// Where in the forward pass the difference between configs A and B arises (runner/localize.h):
// the cost first, then one cause line per item and the table of entering layers.
#include "app/probaudit/command.h"
#include "app/probaudit/events.h"
#include "app/probaudit/localize_text.h"

#include "core/analysis/diagnosis.h"
#include "core/common/protocol.h"
#include "core/common/protocol_request.h"
#include "core/runner/localize.h"
#include "core/study/study.h"
#include "core/tasks/predict.h"

#include <cstdio>
#include <iostream>

namespace probaudit::app {

namespace {

struct LocalizeArgs {
    runner::LocalizeOptions o;
    bool json = false;
};

void printCost(const runner::LocalizePlan& p) {
    std::fprintf(stderr,
                 "localize \"%s\" vs \"%s\": %lld items, %d hidden states; at most %d passes "
                 "over them (2 baselines, the bisection, one per operator class, one for a set "
                 "of classes%s)\n",
                 p.a.c_str(), p.b.c_str(), static_cast<long long>(p.items), p.layers + 1, p.passes,
                 p.reverse ? ", the reverse splice" : "");
}

void printLocalization(const analysis::Localization& l) {
    std::printf("\nWhere \"%s\" (B) departs from \"%s\" (A), head \"%s\", and why: for each "
                "item, the hidden state by which the difference is complete (A's value there, "
                "spliced into B, removes %.0f%% of Δp and gives back A's decision; A's value at "
                "the state before it does not), and the operator class that B computing as A "
                "does removes that share (or a set of classes together).\n\n",
                l.config_b.c_str(), l.config_a.c_str(), l.head.c_str(), 100.0 * l.threshold);
    for (const auto& c : l.items) {
        std::printf("- %s\n", analysis::causeLine(c, l).c_str());
    }
    printCauseTable(l);
    std::printf("\nThe baselines replay the study runs' batches: %lld of %lld items give A's "
                "recorded probabilities bit for bit, %lld give B's.\n",
                static_cast<long long>(l.replayed_a), static_cast<long long>(l.items.size()),
                static_cast<long long>(l.replayed_b));
    std::printf("%d passes in %.1f s (B's baseline pass: %.1f s, %.1fx); probe runs %lld-%lld "
                "in the ledger.\n",
                l.passes, l.seconds, l.baseline_b_seconds,
                l.baseline_b_seconds > 0 ? l.seconds / l.baseline_b_seconds : 0.0,
                static_cast<long long>(l.probes.empty() ? 0 : l.probes.front()),
                static_cast<long long>(l.probes.empty() ? 0 : l.probes.back()));
}

int localizeCommand(const LocalizeArgs& a, const std::atomic<bool>& stop) {
    TerminalEvents events;
    try {
        const analysis::Localization l = runner::localize(a.o, events, stop, printCost);
        if (a.json) {
            std::cout << l.toJson().dump(2) << "\n";
        } else {
            printLocalization(l);
        }
        return protocol::kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "probaudit: error: " << e.what() << "\n";
        return stop ? protocol::kExitInterrupted : protocol::kExitError;
    }
}

} // namespace

void addLocalizeCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<LocalizeArgs>();
    runner::LocalizeOptions& o = a->o;
    CLI::App* sub = cli.add_subcommand(
        "localize", "Where config B's results depart from config A's and why: splices A's hidden "
                    "states into B's forward pass and bisects to the layer by which the "
                    "difference is complete, then computes each operator class as A does; every "
                    "pass is a probe run in the ledger");
    sub->add_option("STUDY", o.run.study, "Study file")->required();
    sub->add_option("--b", o.b, "Config B, whose difference from A is localised")->required();
    sub->add_option("--a", o.a, "Config A (default: the study's reference)");
    sub->add_option("--ledger", o.run.ledger, "Ledger file (default: next to the study)");
    sub->add_option("--head", o.head, "Head variant (default: the first)");
    sub->add_option("--items", o.items, "Item ids (default: B's flips, then the largest Δp)")
        ->delimiter(',');
    sub->add_option("--sample", o.sample, "Items localised at most (default 32)")
        ->check(CLI::Range(std::int64_t(1), protocol::kMaxDiagnoseSample));
    sub->add_option("--threshold", o.threshold, "Share of Δp a splice must remove (default 0.95)")
        ->check(CLI::Range(0.01, 1.0));
    sub->add_flag("--reverse", o.reverse,
                  "Also run A with B's state after the index found (one pass more)");
    sub->add_flag("--skip-bad-lines", o.run.skipBadLines, "Skip malformed dataset lines");
    sub->add_flag("--json", a->json, "The localisation as JSON (as the ledger stores it)");
    onChosen(sub, chosen, a, [](const LocalizeArgs& args, const Invocation& inv) {
        const auto st = study::Study::load(args.o.run.study);
        const auto* b = st.config(args.o.b);
        tasks::ensureCpuCapability(
            (b != nullptr ? b->config : st.config(st.reference)->config).toJson().dump(), inv.argc,
            inv.argv);
        return localizeCommand(args, stopOnSignals());
    });
}

} // namespace probaudit::app
