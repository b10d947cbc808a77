#include "app/probaudit/engine_server.h"

#include "app/probaudit/events.h"

#include "core/common/protocol.h"
#include "core/common/protocol_request.h"
#include "core/runner/diagnose.h"
#include "core/runner/study_session.h"
#include "core/tasks/environment.h"

#include <atomic>
#include <csignal>
#include <iostream>
#include <string>
#include <thread>

namespace probaudit::app {

using nlohmann::json;

namespace {

void reply(const json& id, const json& fields) {
    JsonLinesEvents(json{{"id", id}}).emit(fields);
}

// A decoded request's params as the runner takes them.
runner::DiagnoseOptions diagnoseOptions(const protocol::RunParams& p) {
    runner::DiagnoseOptions o;
    o.run.study = p.study;
    o.run.ledger = p.ledger;
    o.run.configs = p.configs;
    o.run.heads = p.heads;
    o.run.all = p.all;
    o.run.again = p.again;
    o.run.skipBadLines = p.skip_bad_lines;
    o.head = p.head;
    o.sample = int(p.sample); // within the protocol's bounds (kMaxDiagnoseSample)
    o.batch = int(p.batch);
    o.seed = p.seed;
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

void refuse(const json& id, const std::string& why) {
    reply(id, {{"event", protocol::event::kError}, {"message", why}});
}

class EngineServer {
public:
    ~EngineServer() { joinWorker(); }
    // Serves one request; false after shutdown. Whatever a request does wrong, it gets an
    // error reply and the engine serves on.
    bool serve(const protocol::Request& req) {
        try {
            return dispatch(req);
        } catch (const std::exception& e) {
            refuse(req.id, std::string("the request failed: ") + e.what());
            return true;
        }
    }
    // The client is gone: stop after the current batch so nothing is lost.
    void finish() {
        m_stop = true;
        joinWorker();
    }

private:
    bool dispatch(const protocol::Request& req) {
        const std::string& method = req.method;
        if (method == protocol::method::kEnv) {
            reply(req.id, {{"event", "result"}, {"result", tasks::currentEnvironment()}});
        } else if (method == protocol::method::kRun || method == protocol::method::kDiagnose) {
            start(req.id, method, diagnoseOptions(req.params));
        } else if (method == protocol::method::kCancel) {
            m_stop = true;
            reply(req.id, {{"event", "result"}, {"result", {{"cancelling", m_busy.load()}}}});
        } else if (method == protocol::method::kShutdown) {
            m_stop = true;
            joinWorker();
            reply(req.id, {{"event", "result"}, {"result", "bye"}});
            return false;
        }
        return true;
    }
    void start(const json& id, const std::string& method, const runner::DiagnoseOptions& o) {
        if (m_busy) {
            refuse(id, "a run is in progress; cancel it or wait");
            return;
        }
        joinWorker();
        m_stop = false;
        m_busy = true;
        try {
            m_worker = std::thread([this, o, id, method] {
                JsonLinesEvents events(json{{"id", id}});
                json result = json::object();
                const int rc = method == protocol::method::kRun
                                   ? runner::runStudy(o.run, events, m_stop)
                                   : diagnoseRequest(o, events, m_stop, result);
                result["exit"] = rc;
                m_busy = false; // before the result: a client may send the next run at once
                events.emit({{"event", protocol::event::kResult}, {"result", result}});
            });
        } catch (...) {
            m_busy = false;
            throw;
        }
    }
    void joinWorker() {
        if (m_worker.joinable()) {
            m_worker.join();
        }
    }

    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_busy{false};
    std::thread m_worker;
};

} // namespace

int serveEngine() {
    // A client that closes its end gets no SIGPIPE death mid-batch: writes fail, and the closed
    // input ends the loop below.
    std::signal(SIGPIPE, SIG_IGN);
    EngineServer server;
    reply(nullptr, {{"event", protocol::event::kReady}, {"protocol", protocol::kVersion}});
    std::string line;
    for (;;) {
        const protocol::LineRead got =
            protocol::readRequestLine(*std::cin.rdbuf(), line, protocol::kMaxRequestBytes);
        if (got == protocol::LineRead::End) {
            break;
        }
        if (got == protocol::LineRead::TooLong) {
            refuse(nullptr, "the request is not accepted: a line longer than " +
                                std::to_string(protocol::kMaxRequestBytes >> 20) + " MiB");
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        protocol::Request req;
        try {
            req = protocol::decodeRequest(line);
        } catch (const protocol::RequestError& e) {
            refuse(e.id(), e.what());
            continue;
        }
        if (!server.serve(req)) {
            return 0;
        }
    }
    server.finish();
    return 0;
}

} // namespace probaudit::app
