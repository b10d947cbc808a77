#include "engine_server.h"

#include "events.h"

#include "common/json_read.h"
#include "common/protocol.h"
#include "engine/env_fingerprint.h"
#include "runner/diagnose.h"
#include "runner/study_session.h"

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

runner::RunOptions runOptions(const json& p) {
    runner::RunOptions o;
    o.study = p.at("study").get<std::string>();
    o.ledger = p.value("ledger", "");
    o.configs = p.value("configs", std::vector<std::string>());
    o.heads = p.value("heads", std::vector<std::string>());
    o.all = p.value("all", false);
    o.again = p.value("again", false);
    o.skipBadLines = p.value("skip_bad_lines", false);
    return o;
}

runner::DiagnoseOptions diagnoseOptions(const json& p) {
    runner::DiagnoseOptions o;
    o.run = runOptions(p);
    o.head = p.value("head", "");
    o.sample = p.value("sample", 32);
    o.batch = p.value("batch", 8);
    o.seed = p.value("seed", std::uint64_t(1));
    return o;
}

// A diagnosis as a request: its probe runs' events, then the result with the diagnosis.
int diagnoseRequest(const runner::DiagnoseOptions& o, Events& events, const std::atomic<bool>& stop,
                    json& result) {
    try {
        result["diagnosis"] = runner::diagnose(o, events, stop).toJson();
        return protocol::kExitOk;
    } catch (const std::exception& e) {
        events.emit({{"event", protocol::event::kError}, {"message", e.what()}});
        return stop ? protocol::kExitInterrupted : protocol::kExitError;
    }
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
    reply(nullptr, {{"event", protocol::event::kReady}, {"protocol", protocol::kVersion}});
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        json req;
        try {
            req = parseJson(line);
        } catch (const JsonError& e) {
            reply(nullptr, {{"event", "error"},
                            {"message", std::string("the request is not accepted: ") + e.what()}});
            continue;
        }
        const json id = req.is_object() && req.contains("id") ? req["id"] : json();
        const std::string method = req.is_object() ? req.value("method", "") : "";
        if (method == "env") {
            reply(id, {{"event", "result"}, {"result", engine::collectEnvironment()}});
        } else if (method == protocol::method::kRun || method == protocol::method::kDiagnose) {
            if (busy) {
                reply(id,
                      {{"event", "error"}, {"message", "a run is in progress; cancel it or wait"}});
                continue;
            }
            const json p = req.value("params", json::object());
            runner::DiagnoseOptions o;
            try {
                o = diagnoseOptions(p);
            } catch (const json::exception& e) {
                reply(id, {{"event", "error"},
                           {"message", "malformed " + method + " request: " + e.what()}});
                continue;
            }
            joinWorker();
            stop = false;
            busy = true;
            worker = std::thread([o, id, method, &stop, &busy] {
                JsonLinesEvents events(json{{"id", id}});
                json result = json::object();
                const int rc = method == protocol::method::kRun
                                   ? runner::runStudy(o.run, events, stop)
                                   : diagnoseRequest(o, events, stop, result);
                result["exit"] = rc;
                events.emit({{"event", protocol::event::kResult}, {"result", result}});
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
            reply(id, {{"event", "error"},
                       {"message", "unknown method \"" + method +
                                       "\" (env, run, diagnose, cancel, shutdown)"}});
        }
    }
    // stdin closed: the client is gone; stop after the current batch so nothing is lost.
    stop = true;
    joinWorker();
    return 0;
}

} // namespace probaudit::app
