// probaudit head LEDGER, probaudit keygen KEY, probaudit sign LEDGER --key KEY: the chain head
// to record elsewhere, an Ed25519 key pair, and a signature over the head.
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

namespace probaudit::app {

namespace {
struct SignArgs {
    std::string ledger, key;
};
} // namespace

void addHeadCommand(CLI::App& cli, Action& chosen) {
    auto path = std::make_shared<std::string>();
    CLI::App* sub = cli.add_subcommand(
        "head", "Print the ledger's chain head (SEQ:DIGEST) to record elsewhere; `verify --head` "
                "later fails if the ledger was cut back or rewritten up to it");
    sub->add_option("LEDGER", *path, "Ledger file")->required();
    onChosen(sub, chosen, path,
             [](const std::string& ledger, const Invocation&) { return printHead(ledger); });
}

void addKeygenCommand(CLI::App& cli, Action& chosen) {
    auto path = std::make_shared<std::string>();
    CLI::App* sub = cli.add_subcommand(
        "keygen", "Write a new Ed25519 signing key to KEY (private, mode 0600) and KEY.pub");
    sub->add_option("KEY", *path, "Private key file to create (never overwritten)")->required();
    onChosen(sub, chosen, path,
             [](const std::string& key, const Invocation&) { return generateKey(key); });
}

void addSignCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<SignArgs>();
    CLI::App* sub = cli.add_subcommand(
        "sign", "Verify the ledger's chain and sign its head with an Ed25519 key");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("--key", a->key, "Private key (probaudit keygen)")->required();
    onChosen(sub, chosen, a,
             [](const SignArgs& o, const Invocation&) { return signLedger(o.ledger, o.key); });
}

} // namespace probaudit::app
