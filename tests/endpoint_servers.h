#pragma once
// Real model servers for the endpoint tests, started on 127.0.0.1 by the test and stopped by
// their own pid when it ends (also when it fails; a child dies with the test process through
// PR_SET_PDEATHSIG when the test itself crashes):
//   LlamaCppServer  llama-cpp-python's OpenAI server (the repo's .venv) serving the demo GGUF:
//                   returns logprobs and top_logprobs, runs one request at a time.
//   TransformersServer  `transformers serve --continuous-batching --device cpu` serving
//                   SmolLM2 converted by set-up into a Hugging Face folder: batches requests
//                   that arrive together, returns no log-probabilities.
//   FaultProxy      tests/endpoint_proxy.py in front of a server: drops, delays, truncates or
//                   fails the requests its plan names.
#include "core/endpoint/http_pool.h"
#include "core/ledger/ledger.h"
#include "free_port.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/prctl.h>
#include <unistd.h>

namespace endpoint_test {

using probaudit::endpoint::HttpRequest;

inline QString sourcePath(const QString& relative) {
    return QStringLiteral(PROBAUDIT_SOURCE_DIR "/") + relative;
}

inline QString venvPython() {
    return sourcePath(QStringLiteral(".venv/bin/python"));
}

inline QString demoGguf() {
    return sourcePath(
        QStringLiteral(".cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf"));
}

using probaudit::testing::freePort;

// Twelve short product reviews with their sentiment (1 positive), the endpoint suites' items.
inline const std::vector<std::pair<std::string, int>>& labelledReviews() {
    static const std::vector<std::pair<std::string, int>> reviews = {
        {"Great phone, works perfectly.", 1},
        {"Terrible, it broke after a day.", 0},
        {"I love it.", 1},
        {"Waste of money.", 0},
        {"Exactly as described.", 1},
        {"The battery died in an hour.", 0},
        {"Best purchase this year.", 1},
        {"Would not recommend it.", 0},
        {"Sound quality is superb.", 1},
        {"It stopped charging.", 0},
        {"Fits well and looks good.", 1},
        {"Customer service never answered.", 0}};
    return reviews;
}

// The reviews as a JSONL dataset (id, text, label "negative" | "positive").
inline bool writeReviews(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return false;
    }
    int i = 0;
    for (const auto& [text, label] : labelledReviews()) {
        QJsonObject o{{QStringLiteral("id"), QStringLiteral("r%1").arg(i++)},
                      {QStringLiteral("text"), QString::fromStdString(text)},
                      {QStringLiteral("label"),
                       label != 0 ? QStringLiteral("positive") : QStringLiteral("negative")}};
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    }
    return true;
}

// A child process that is killed (SIGKILL, by its pid) when this object goes away.
class OwnedProcess {
public:
    OwnedProcess() : m_p(std::make_unique<QProcess>()) {
        m_p->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_p->setProcessChannelMode(QProcess::MergedChannels);
    }
    ~OwnedProcess() { stop(); }
    OwnedProcess(const OwnedProcess&) = delete;
    OwnedProcess& operator=(const OwnedProcess&) = delete;

    bool start(const QString& program, const QStringList& args) {
        m_p->start(program, args);
        return m_p->waitForStarted(10000);
    }
    void stop() {
        if (m_p->state() != QProcess::NotRunning) {
            m_p->kill(); // SIGKILL to this very pid
            m_p->waitForFinished(10000);
        }
    }
    QProcess& process() { return *m_p; }
    QString output() { return QString::fromUtf8(m_p->readAll()); }

private:
    std::unique_ptr<QProcess> m_p;
};

// Polls GET url until it answers 200 (true) or `seconds` pass (false).
inline bool waitForHttp(const std::string& url, double seconds, QProcess* alive = nullptr) {
    probaudit::endpoint::PoolOptions o;
    o.max_retries = 0;
    o.timeout_seconds = 5;
    probaudit::endpoint::HttpPool pool(o);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (pool.fetch(HttpRequest::get(url)).status == 200) {
            return true;
        }
        if (alive != nullptr && alive->state() == QProcess::NotRunning) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
}

// Waits (up to a minute) until the ledger's first run has `n` items recorded; how many it has.
inline std::size_t waitForItems(const QString& ledgerPath, std::size_t n) {
    std::size_t recorded = 0;
    for (int i = 0; i < 600 && recorded < n; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        try {
            const probaudit::ledger::Ledger led(ledgerPath.toStdString(),
                                                probaudit::ledger::Ledger::Mode::Read);
            const auto runs = led.runs();
            recorded = runs.empty() ? 0 : led.recordedItems(runs.front().id).size();
        } catch (const std::exception&) { // not created yet
        }
    }
    return recorded;
}

class LlamaCppServer {
public:
    // Empty when the server is not installed (scripts/setup installs it); the reason otherwise.
    static QString unavailable() {
        if (!QFile::exists(venvPython()) || !QFile::exists(demoGguf())) {
            return QStringLiteral("no .venv or demo model: run ./scripts/setup");
        }
        QProcess probe;
        probe.start(venvPython(),
                    {QStringLiteral("-c"), QStringLiteral("import llama_cpp.server")});
        probe.waitForFinished(60000);
        return probe.exitCode() == 0 ? QString()
                                     : QStringLiteral("llama-cpp-python[server] is not installed");
    }
    bool start() {
        m_port = freePort();
        if (!m_proc.start(venvPython(),
                          {QStringLiteral("-m"), QStringLiteral("llama_cpp.server"),
                           QStringLiteral("--model"), demoGguf(), QStringLiteral("--model_alias"),
                           QStringLiteral("smollm2"), QStringLiteral("--host"),
                           QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                           QString::number(m_port), QStringLiteral("--n_threads"),
                           QStringLiteral("1"), QStringLiteral("--n_ctx"), QStringLiteral("1024"),
                           QStringLiteral("--verbose"), QStringLiteral("false")})) {
            return false;
        }
        return waitForHttp(base() + "/models", 180, &m_proc.process());
    }
    void stop() { m_proc.stop(); }
    int port() const { return m_port; }
    std::string base() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }
    QString log() { return m_proc.output(); }

private:
    OwnedProcess m_proc;
    int m_port = 0;
};

inline QString hfSmolLM2() {
    return sourcePath(QStringLiteral(".cache/models/SmolLM2-135M-Instruct-hf"));
}

class TransformersServer {
public:
    // Empty when the server or the converted model is missing (scripts/setup makes both).
    static QString unavailable() {
        if (!QFile::exists(hfSmolLM2() + QStringLiteral("/model.safetensors"))) {
            return QStringLiteral("no converted SmolLM2 folder: run ./scripts/setup");
        }
        if (!QFile::exists(sourcePath(QStringLiteral(".venv/bin/transformers")))) {
            return QStringLiteral("transformers[serving] is not installed: run ./scripts/setup");
        }
        return {};
    }
    bool start() {
        m_port = freePort();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HF_HUB_OFFLINE"), QStringLiteral("1"));
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        m_proc.process().setProcessEnvironment(env);
        if (!m_proc.start(sourcePath(QStringLiteral(".venv/bin/transformers")),
                          {QStringLiteral("serve"), QStringLiteral("--continuous-batching"),
                           QStringLiteral("--device"), QStringLiteral("cpu"),
                           QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                           QStringLiteral("--port"), QString::number(m_port), hfSmolLM2()})) {
            return false;
        }
        return waitForHttp(base() + "/models", 300, &m_proc.process());
    }
    void stop() { m_proc.stop(); }
    std::string base() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }
    QString log() { return m_proc.output(); }

private:
    OwnedProcess m_proc;
    int m_port = 0;
};

class FaultProxy {
public:
    // port 0: a free port; else that one (a server restarted where it was).
    bool start(int upstreamPort, const QString& planJson, int port = 0) {
        if (!m_proc.start(QStringLiteral("python3"),
                          {sourcePath(QStringLiteral("tests/endpoint_proxy.py")),
                           QString::number(upstreamPort), planJson, QString::number(port)})) {
            return false;
        }
        QProcess& p = m_proc.process();
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!p.canReadLine() && std::chrono::steady_clock::now() < end) {
            p.waitForReadyRead(100);
        }
        const QByteArray line = p.readLine().trimmed();
        if (!line.startsWith("port ")) {
            qWarning("the fault proxy said: %s", (line + p.readAll()).constData());
            return false;
        }
        m_port = line.mid(5).toInt();
        return m_port > 0;
    }
    std::string base() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }
    int port() const { return m_port; }
    void stop() { m_proc.stop(); } // a server that dies: SIGKILL

private:
    OwnedProcess m_proc;
    int m_port = 0;
};

} // namespace endpoint_test
