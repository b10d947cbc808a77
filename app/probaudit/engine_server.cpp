#include "engine_server.h"

#include "engine/env_fingerprint.h"
#include "events.h"
#include "study_run.h"

#include <atomic>
#include <iostream>
#include <string>
#include <thread>

namespace probaudit::app {

using nlohmann::json;

namespace {

void reply(const json& id, const json& fields) {
    JsonLinesEvents(json{{"id", id}}).emit(fields);
}

} // namespace

int serveEngine() {
    std::atomic<bool> stop{false};
    std::atomic<bool> busy{false};
    std::thread worker;
    std::string line;
    auto joinWorker = [&] {
        if (worker.joinable()) {
            worker.join();
        }
    };
    reply(nullptr, {{"event", "ready"}, {"protocol", 1}});
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        json req;
        try {
            req = json::parse(line);
        } catch (const json::exception&) {
            reply(nullptr, {{"event", "error"}, {"message", "request is not valid JSON"}});
            continue;
        }
        const json id = req.is_object() && req.contains("id") ? req["id"] : json();
        const std::string method = req.is_object() ? req.value("method", "") : "";
        if (method == "env") {
            reply(id, {{"event", "result"}, {"result", engine::collectEnvironment()}});
        } else if (method == "run") {
            if (busy) {
                reply(id,
                      {{"event", "error"}, {"message", "a run is in progress; cancel it or wait"}});
                continue;
            }
            const json p = req.value("params", json::object());
            RunOptions o;
            try {
                o.study = p.at("study").get<std::string>();
                o.ledger = p.value("ledger", "");
                o.configs = p.value("configs", std::vector<std::string>());
                o.heads = p.value("heads", std::vector<std::string>());
                o.all = p.value("all", false);
                o.again = p.value("again", false);
                o.skipBadLines = p.value("skip_bad_lines", false);
            } catch (const json::exception& e) {
                reply(id, {{"event", "error"},
                           {"message", std::string("malformed run request: ") + e.what()}});
                continue;
            }
            joinWorker();
            stop = false;
            busy = true;
            worker = std::thread([o, id, &stop, &busy] {
                JsonLinesEvents events(json{{"id", id}});
                const int rc = runStudy(o, events, stop);
                events.emit({{"event", "result"}, {"result", {{"exit", rc}}}});
                busy = false;
            });
        } else if (method == "cancel") {
            stop = true;
            reply(id, {{"event", "result"}, {"result", {{"cancelling", busy.load()}}}});
        } else if (method == "shutdown") {
            stop = true;
            joinWorker();
            reply(id, {{"event", "result"}, {"result", "bye"}});
            return 0;
        } else {
            reply(id,
                  {{"event", "error"},
                   {"message", "unknown method \"" + method + "\" (env, run, cancel, shutdown)"}});
        }
    }
    // stdin closed: the client is gone; stop after the current batch so nothing is lost.
    stop = true;
    joinWorker();
    return 0;
}

} // namespace probaudit::app
