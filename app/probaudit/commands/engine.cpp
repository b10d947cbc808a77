// probaudit engine: requests as JSON lines on stdin, events on stdout (engine_server.h).
#include "app/probaudit/command.h"
#include "app/probaudit/engine_server.h"

namespace probaudit::app {

void addEngineCommand(CLI::App& cli, Action& chosen) {
    CLI::App* sub = cli.add_subcommand(
        "engine",
        "Serve requests as JSON lines on stdin/stdout (the workbench's engine; works over ssh)");
    onChosen(sub, chosen, std::make_shared<bool>(false),
             [](bool, const Invocation&) { return serveEngine(); });
}

} // namespace probaudit::app
