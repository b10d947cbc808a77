#include "app/probaudit/remote_engine.h"

#include "core/common/protocol.h"
#include "core/ledger/ledger.h"

#include <filesystem>

namespace probaudit::app {

runner::RemoteOptions EngineArgs::target() const {
    runner::RemoteOptions r = remote;
    r.target = runner::SshTarget::parse(engine);
    return r;
}

void addEngineOptions(CLI::App* sub, EngineArgs& a, const std::string& what, bool ledgers) {
    sub->add_option("--engine", a.engine, "ssh://[user@]host[:port]: " + what);
    sub->add_option("--remote-probaudit", a.remote.probaudit,
                    "--engine ssh://: the probaudit on that host")
        ->capture_default_str();
    sub->add_option("--ssh-config", a.remote.sshConfig, "--engine ssh://: ssh -F FILE");
    if (ledgers) {
        sub->add_option("--remote-ledger", a.remote.remoteLedger,
                        "--engine ssh://: the ledger on that host (default: beside its study)");
        sub->add_option("--snapshot-to", a.snapshotTo)->group(""); // asked by --engine ssh://
    }
}

int snapshotAfter(const EngineArgs& a, const std::string& ledger, int exit, Events& events) {
    if (a.snapshotTo.empty() || (exit != protocol::kExitOk && exit != protocol::kExitInterrupted)) {
        return exit;
    }
    try {
        ledger::Ledger(ledger, ledger::Ledger::Mode::Read).snapshotTo(a.snapshotTo);
        events.emit({{"event", "snapshot"},
                     {"path", a.snapshotTo},
                     {"bytes", std::filesystem::file_size(a.snapshotTo)}});
    } catch (const std::exception& e) {
        events.emit({{"event", protocol::event::kError}, {"message", e.what()}});
        return protocol::kExitError;
    }
    return exit;
}

} // namespace probaudit::app
