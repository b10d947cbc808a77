#include "engine_server.h"

#include "events.h"

#include "common/json_read.h"
#include "common/protocol.h"
#include "engine/env_fingerprint.h"
#include "runner/diagnose.h"
#include "runner/study_session.h"

#include <atomic>
#include <csignal>
#include <iostream>
#include <streambuf>
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

enum class LineRead { Line, TooLong, End };

// One request line of at most `max` bytes; the rest of a longer one is read and dropped.
LineRead readRequestLine(std::streambuf& in, std::string& line, std::size_t max) {
    line.clear();
    bool tooLong = false;
    for (;;) {
        const int c = in.sbumpc();
        if (c == std::char_traits<char>::eof()) {
            return tooLong ? LineRead::TooLong : line.empty() ? LineRead::End : LineRead::Line;
        }
        if (c == '\n') {
            return tooLong ? LineRead::TooLong : LineRead::Line;
        }
        if (tooLong) {
            continue; // the rest of a line already refused
        }
        if (line.size() < max) {
            line.push_back(static_cast<char>(c));
        } else {
            tooLong = true;
            line = std::string(); // give the memory back now
        }
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
    bool serve(const json& req) {
        const json id = req.is_object() && req.contains("id") ? req["id"] : json();
        try {
            return dispatch(id, req);
        } catch (const std::exception& e) {
            refuse(id, std::string("the request failed: ") + e.what());
            return true;
        }
    }
    // The client is gone: stop after the current batch so nothing is lost.
    void finish() {
        m_stop = true;
        joinWorker();
    }

private:
    bool dispatch(const json& id, const json& req) {
        if (!req.is_object() || !req.contains("method") || !req["method"].is_string()) {
            refuse(id, "the request has no method (a JSON object with a string \"method\")");
            return true;
        }
        const std::string method = req["method"].get<std::string>();
        if (method == protocol::method::kEnv) {
            reply(id, {{"event", "result"}, {"result", engine::collectEnvironment()}});
        } else if (method == protocol::method::kRun || method == protocol::method::kDiagnose) {
            start(id, method, req.contains("params") ? req["params"] : json::object());
        } else if (method == protocol::method::kCancel) {
            m_stop = true;
            reply(id, {{"event", "result"}, {"result", {{"cancelling", m_busy.load()}}}});
        } else if (method == protocol::method::kShutdown) {
            m_stop = true;
            joinWorker();
            reply(id, {{"event", "result"}, {"result", "bye"}});
            return false;
        } else {
            refuse(id, "unknown method \"" + method + "\" (env, run, diagnose, cancel, shutdown)");
        }
        return true;
    }
    void start(const json& id, const std::string& method, const json& params) {
        if (m_busy) {
            refuse(id, "a run is in progress; cancel it or wait");
            return;
        }
        runner::DiagnoseOptions o;
        try {
            o = diagnoseOptions(params);
        } catch (const json::exception& e) {
            refuse(id, "malformed " + method + " request: " + e.what());
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
        const LineRead got = readRequestLine(*std::cin.rdbuf(), line, protocol::kMaxRequestBytes);
        if (got == LineRead::End) {
            break;
        }
        if (got == LineRead::TooLong) {
            refuse(nullptr, "the request is not accepted: a line longer than " +
                                std::to_string(protocol::kMaxRequestBytes >> 20) + " MiB");
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        json req;
        try {
            req = parseJson(line);
        } catch (const JsonError& e) {
            refuse(nullptr, std::string("the request is not accepted: ") + e.what());
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
