// probaudit gate LEDGER [--study S] [--junit FILE] [--attest FILE --key KEY] [--json]: the
// study's policy evaluated on the recorded runs. Exit 0 every check passed, 5 a check failed, 6
// none failed but one could not be evaluated, 2 the ledger's hash chain is broken (nothing
// judged). probaudit verify-attestation FILE --trust KEY.pub [--ledger LEDGER] [--json].
#include "app/probaudit/command.h"
#include "app/probaudit/gate_cmd.h"

namespace probaudit::app {

void addGateCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<GateOptions>();
    CLI::App* sub = cli.add_subcommand(
        "gate", "Evaluate the study's policy on the recorded runs: a table rule x config, exit 0 "
                "all pass, 5 a rule failed, 6 a rule could not be evaluated, 2 the ledger was "
                "changed");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--study", a->study,
                    "Judge by this study file's policy instead of the one sealed in the ledger "
                    "(reported as written after the runs unless it is the same policy)");
    sub->add_option("--junit", a->junit, "Also write the verdict as JUnit XML to FILE");
    auto* attest = sub->add_option(
        "--attest", a->attest,
        "Also write a signed in-toto attestation (DSSE envelope, Test Result predicate) to FILE");
    sub->add_option("--key", a->key,
                    "The private key that signs the attestation (probaudit keygen)")
        ->needs(attest);
    attest->needs("--key");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const GateOptions& o, const Invocation&) { return gate(o); });
}

void addVerifyAttestationCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<VerifyAttestationOptions>();
    CLI::App* sub = cli.add_subcommand(
        "verify-attestation",
        "Check a gate's signed attestation: the trusted key's signature, the in-toto statement, "
        "and with --ledger that the ledger is still the one attested (exit 0 verified, 2 it "
        "does not hold, 1 not an attestation)");
    sub->add_option("ATTESTATION", a->attestation, "The DSSE envelope `gate --attest` wrote")
        ->required();
    sub->add_option("--trust", a->trust, "The signer's public key (KEY.pub)")->required();
    sub->add_option("--ledger", a->ledger, "Also check this ledger against the attestation");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [](const VerifyAttestationOptions& o, const Invocation&) {
        return verifyAttestation(o);
    });
}

} // namespace probaudit::app
