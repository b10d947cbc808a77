// probaudit reproduce BUNDLE.zip --study S [--config NAME ...] [--ledger OUT] [--trust KEY.pub]
//   [--attest FILE --key KEY] [--json]: the bundle's runs imported, the same configs recorded
// again here, each reproduced run classified (core/policy/reproduction.h). Exit 0 every run
// reproduced (exact, within the policy, or another environment named), 4 a run drifted (other
// bits from the same environment), 1 bad input or nothing to reproduce.
#include "app/probaudit/bundle_cmds.h"
#include "app/probaudit/command.h"
#include "app/probaudit/events.h"
#include "app/probaudit/gate_cmd.h"

#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/policy/attestation.h"
#include "core/policy/reproduction.h"
#include "core/runner/study_session.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace probaudit::app {

namespace {
struct ReproduceArgs {
    std::string bundle, study, ledger, trust, attest, key;
    std::vector<std::string> configs;
    bool json = false;
};

void print(const policy::ReproductionResult& r) {
    std::printf("%-16s %-22s %9s %9s %-14s %6s %12s  %s\n", "HEAD", "CONFIG", "ORIGINAL", "HERE",
                "CLASS", "FLIPS", "MAX Δp", "WHY");
    for (const auto& run : r.runs) {
        std::printf("%-16s %-22s %9lld %9lld %-14s %6lld %12.6f  %s\n", run.head.c_str(),
                    run.config.c_str(), static_cast<long long>(run.original_run),
                    static_cast<long long>(run.reproduced_run),
                    std::string(policy::reproductionName(run.kind)).c_str(),
                    static_cast<long long>(run.flips), run.max_dp, run.detail.c_str());
        for (const auto& d : run.env_differences) {
            std::printf("    %s\n", d.c_str());
        }
    }
    for (const auto& n : r.not_reproduced) {
        std::printf("not reproduced here: %s\n", n.c_str());
    }
    std::printf("reproduction: %s\n", r.runs.empty() ? "nothing reproduced"
                                      : r.drift()    ? "DRIFT (other bits, same environment)"
                                                     : "every run reproduced");
}

int reproduce(const ReproduceArgs& o) {
    const std::string ledger =
        o.ledger.empty() ? std::filesystem::path(o.bundle).stem().string() + ".reproduced.ledger"
                         : o.ledger;
    if (std::filesystem::exists(ledger)) {
        throw Error(ledger, "exists; a reproduction starts a new ledger (--ledger PATH)");
    }
    if (const int imported = runImport({o.bundle, ledger, o.trust}); imported != 0) {
        return imported;
    }
    runner::RunOptions run;
    run.study = o.study;
    run.ledger = ledger;
    run.configs = o.configs;
    run.all = o.configs.empty();
    run.again = true; // the bundle's runs are there: record every config once more, here
    const auto events = makeEvents("");
    if (const int exit = runner::runStudy(run, *events, stopOnSignals()); exit != 0) {
        return exit;
    }
    const policy::ReproductionResult r = policy::classifyReproduction(ledger);
    if (!o.attest.empty() && r.runs.empty()) {
        std::fprintf(stderr, "nothing was reproduced: no statement written to %s\n",
                     o.attest.c_str());
    } else if (!o.attest.empty()) {
        writeFile(o.attest, policy::signAttestation(policy::reproductionStatement(r, o.bundle),
                                                    readTextFile(o.key), o.key));
    }
    if (o.json) {
        std::cout << r.toJson().dump(2) << "\n";
    } else {
        print(r);
    }
    return r.exitCode();
}
} // namespace

void addReproduceCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<ReproduceArgs>();
    CLI::App* sub = cli.add_subcommand(
        "reproduce", "Re-record an audit bundle's study here and classify every reproduced run "
                     "against the bundle's: exact, within the policy, another environment "
                     "(named), or drift (exit 4)");
    sub->add_option("BUNDLE", a->bundle, "The audit bundle (zip)")->required();
    sub->add_option("--study", a->study,
                    "The bundle's study file as this machine finds its model and dataset (the "
                    "same files: their SHA-256 must match)")
        ->required();
    sub->add_option("--config", a->configs, "Reproduce only this config (repeatable)");
    sub->add_option("--ledger", a->ledger,
                    "The new ledger (default: BUNDLE's name with .reproduced.ledger)");
    sub->add_option("--trust", a->trust, "Refuse the bundle unless this key signed its ledger");
    auto* attest = sub->add_option("--attest", a->attest,
                                   "Also write a signed statement of the reproduction (DSSE)");
    sub->add_option("--key", a->key, "The private key that signs it")->needs(attest);
    attest->needs("--key");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a,
             [](const ReproduceArgs& o, const Invocation&) { return reproduce(o); });
}

} // namespace probaudit::app
