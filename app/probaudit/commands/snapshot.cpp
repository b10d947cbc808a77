// probaudit snapshot LEDGER [-o FILE]: a consistent copy of a ledger (committed WAL content
// included, even while a run writes to it) on stdout or into FILE. `run --engine ssh://`
// copies a remote ledger back with it.
#include "app/probaudit/command.h"

#include "core/common/error.h"
#include "core/ledger/ledger.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace probaudit::app {

namespace {

struct SnapshotArgs {
    std::string ledger, out;
};

int snapshot(const SnapshotArgs& o) {
    const ledger::Ledger led(o.ledger, ledger::Ledger::Mode::Read);
    if (!o.out.empty()) {
        if (fs::exists(o.out)) {
            throw Error(o.out, "exists already; a snapshot writes a new file");
        }
        led.snapshotTo(o.out);
        return 0;
    }
    std::string dir = (fs::temp_directory_path() / "probaudit-snapshot.XXXXXX").string();
    if (::mkdtemp(dir.data()) == nullptr) {
        throw Error(dir, "cannot create a temporary folder");
    }
    const std::string copy = dir + "/copy.ledger";
    try {
        led.snapshotTo(copy);
        std::ifstream in(copy, std::ios::binary);
        std::cout << in.rdbuf();
        std::cout.flush();
    } catch (...) {
        ::unlink(copy.c_str());
        ::rmdir(dir.c_str());
        throw;
    }
    ::unlink(copy.c_str());
    ::rmdir(dir.c_str());
    return std::cout ? 0 : 1;
}

} // namespace

void addSnapshotCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<SnapshotArgs>();
    CLI::App* sub = cli.add_subcommand(
        "snapshot", "A consistent copy of a ledger, also while a run writes to it (stdout, or -o)");
    sub->add_option("LEDGER", a->ledger, "The ledger")->required();
    sub->add_option("-o,--output", a->out, "The copy (must not exist; default: stdout)");
    onChosen(sub, chosen, a, [](const SnapshotArgs& o, const Invocation&) { return snapshot(o); });
}

} // namespace probaudit::app
