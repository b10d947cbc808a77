// Endpoint studies end to end (core/endpoint/endpoint_run.h through `probaudit run`) against a
// real llama-cpp-python server on 127.0.0.1 (tests/endpoint_servers.h), with the fault proxy in
// front of it where a fault is the point: every item recorded once with its exchange, the key
// never written, a run killed with SIGKILL or cut off by a dying server resumes with nothing
// twice and nothing lost, a malformed reply fails one item and the run goes on, and every bad
// input gets one sentence, a non-zero exit and a ledger left byte for byte as it was.
#include "core/analysis/compare.h"
#include "core/ledger/ledger.h"
#include "endpoint_servers.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <set>
#include <thread>

using namespace probaudit;
using namespace endpoint_test;
using nlohmann::json;

namespace {

const char* const kKeyEnv = "PROBAUDIT_TEST_KEY";
const QByteArray kKey = "sk-probaudit-test-7f3a9c2e51";

const std::vector<std::pair<std::string, int>>& kItems = labelledReviews();

struct Result {
    int code = -1;
    QString out, err;
};

Result runCli(const QStringList& args, int timeoutMs = 240000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kKeyEnv), QString::fromLatin1(kKey));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PROBAUDIT_CLI), args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The last line of a command's standard error: its one-sentence error.
QString lastLine(const QString& err) {
    const QStringList lines = err.trimmed().split(QLatin1Char('\n'));
    return lines.isEmpty() ? QString() : lines.back();
}

QByteArray fileDigest(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TestEndpointRun : public QObject {
    Q_OBJECT
    LlamaCppServer m_server;
    QTemporaryDir m_dir;
    QString m_data;
    std::vector<QString> m_outputs; // every stdout and stderr, for the key check

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // A study of the 12 items against `base` with `configs`; `model` and `extra` amend $.model.
    // `heads` replaces the label head (a generation study).
    QString writeStudy(const QString& name, const std::string& base, const json& configs,
                       const json& modelExtra = json::object(),
                       const json& labels = json::array({"No", "Yes"}),
                       const json& heads = json()) {
        json model{{"endpoint", base},
                   {"name", "smollm2"},
                   {"api_key_env", kKeyEnv},
                   {"labels", {{"server", "llama-cpp-python 0.3.36, one request at a time"}}},
                   {"max_retries", 2},
                   {"timeout", 60}};
        model.update(modelExtra);
        const json yesNo{
            {"yes-no",
             {{"kind", "label_tokens"},
              {"template", "<|im_start|>user\nIs the sentiment of this review positive? Answer "
                           "Yes or No.\nReview: {text}<|im_end|>\n<|im_start|>assistant\n"},
              {"labels", labels}}}};
        const json study{
            {"name", name.toStdString()},
            {"model", model},
            {"heads", heads.is_null() ? yesNo : heads},
            {"dataset", {{"path", m_data.toStdString()}, {"labels", {"negative", "positive"}}}},
            {"configs", configs},
            {"reference", configs.begin().key()}};
        const QString file = path(name + QStringLiteral(".study.json"));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray::fromStdString(study.dump(2)));
        return file;
    }

    Result run(const QStringList& args) {
        Result r = runCli(args);
        m_outputs.push_back(r.out);
        m_outputs.push_back(r.err);
        return r;
    }

    static std::optional<ledger::Run> runNamed(const ledger::Ledger& led, const std::string& cfg) {
        for (const auto& r : led.runs()) {
            if (r.config_name == cfg) {
                return r;
            }
        }
        return std::nullopt;
    }

    // `probaudit run STUDY --all` in the background (the key in its environment).
    static std::unique_ptr<QProcess> startRun(const QString& study) {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QString::fromLatin1(kKeyEnv), QString::fromLatin1(kKey));
        p->setProcessEnvironment(env);
        p->start(QStringLiteral(PROBAUDIT_CLI),
                 {QStringLiteral("run"), study, QStringLiteral("--all")});
        p->waitForStarted();
        return p;
    }

private Q_SLOTS:
    void initTestCase() {
        if (const QString why = LlamaCppServer::unavailable(); !why.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        QVERIFY(m_dir.isValid());
        m_data = path(QStringLiteral("reviews.jsonl"));
        QVERIFY(writeReviews(m_data));
        QVERIFY2(m_server.start(), qPrintable(m_server.log()));
    }
    void cleanupTestCase() { m_server.stop(); }

    // Concurrency 1, the same again (repeat) and concurrency 4 in another arrival order: every
    // item recorded once per run with its exchange; the environment is the server's; the runs
    // compare like engine runs.
    void recordsEveryItemWithItsExchange() {
        const QString study = writeStudy(
            QStringLiteral("label"), m_server.base(),
            {{"c1", {{"concurrency", 1}}},
             {"c1-again", {{"repeat", 1}}},
             {"c4", {{"concurrency", 4}, {"arrival_seed", 3}, {"prefix_cache", "warm"}}}});
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const ledger::Ledger led(path(QStringLiteral("label.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        QCOMPARE(led.runs().size(), std::size_t(3));
        for (const auto& run : led.runs()) {
            QCOMPARE(run.status, ledger::RunStatus::Finished);
            const auto recs = led.records(run.id, false);
            const auto reqs = led.requests(run.id);
            QCOMPARE(recs.size(), kItems.size());
            QCOMPARE(reqs.size(), kItems.size());
            for (std::size_t i = 0; i < recs.size(); ++i) {
                QCOMPARE(recs[i].item, std::int64_t(i));
                QVERIFY(recs[i].decision == 0 || recs[i].decision == 1);
                if (!std::isnan(recs[i].probs[0]) && !std::isnan(recs[i].probs[1])) {
                    QVERIFY(std::abs(recs[i].probs[0] + recs[i].probs[1] - 1) < 1e-5);
                }
                const json ex = json::parse(reqs[i].json);
                QCOMPARE(reqs[i].item, std::int64_t(i));
                QVERIFY(!ex["attempts"].empty());
                QCOMPARE(ex["attempts"].back()["status"].get<int>(), 200);
                QCOMPARE(ex.contains("warmup"), run.config_name == "c4");
                QVERIFY(!ex["top"].empty() && !ex["top"][0].empty());
            }
            const json env = led.environment(run.env_hash);
            QCOMPARE(env["kind"].get<std::string>(), std::string("endpoint"));
            QCOMPARE(env["endpoint"]["url"].get<std::string>(), m_server.base());
            QVERIFY(env["server"]["models"].dump().find("smollm2") != std::string::npos);
            QVERIFY(env["labels"].contains("server"));
        }
        QVERIFY(led.verify().ok);
        // The arrival order is the config's: run c4's first arrivals are not items 0, 1, 2, 3.
        const auto c4 = runNamed(led, "c4");
        QVERIFY(c4);
        std::set<std::int64_t> firstFour;
        for (const auto& rec : led.records(c4->id, false)) {
            if (rec.batch < 4) {
                firstFour.insert(rec.item);
            }
        }
        QCOMPARE(firstFour.size(), std::size_t(4));
        QVERIFY(firstFour != std::set<std::int64_t>({0, 1, 2, 3}));
        const Result cmp = run({QStringLiteral("compare"), path(QStringLiteral("label.ledger")),
                                QString::number(runNamed(led, "c1")->id), QString::number(c4->id)});
        QVERIFY2(cmp.code == 0, qPrintable(cmp.err));
        QVERIFY(cmp.out.contains(QStringLiteral("verdict")));
        // A second `run --all` finds everything recorded in this environment.
        const Result again = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        const ledger::Ledger after(path(QStringLiteral("label.ledger")).toStdString(),
                                   ledger::Ledger::Mode::Read);
        QCOMPARE(after.runs().size(), std::size_t(3));
    }

    // The diagnosis of an endpoint study reads its recorded runs: the repeat, the serving
    // configs, and, once the reference is recorded against another declared server setting, a
    // runtime step that names the change with both values.
    void diagnoseNamesARuntimeChange() {
        const QString ledgerPath = path(QStringLiteral("label.ledger"));
        const QString study = path(QStringLiteral("label.study.json"));
        QVERIFY(QFile::exists(ledgerPath)); // recordsEveryItemWithItsExchange
        auto diagnose = [&] {
            const Result r = run({QStringLiteral("diagnose"), study, QStringLiteral("--json")});
            return r.code == 0 ? json::parse(r.out.toStdString())
                               : json{{"error", r.err.toStdString()}};
        };
        auto step = [](const json& d, const std::string& name) {
            for (const auto& s : d["ladder"]) {
                if (s["step"] == name) {
                    return s;
                }
            }
            return json();
        };
        const json before = diagnose();
        QVERIFY2(!before.contains("error"), before.dump().c_str());
        QCOMPARE(before["recorded_only"].get<bool>(), true);
        QCOMPARE(before["ladder"].size(), std::size_t(3));
        // The server computes one request at a time: the repeat and concurrency 4 are exact.
        QCOMPARE(step(before, "repeatability")["status"].get<std::string>(), std::string("clean"));
        QCOMPARE(step(before, "serving")["status"].get<std::string>(), std::string("clean"));
        QVERIFY(step(before, "serving")["finding"].get<std::string>().find("c4 (arrival_seed, "
                                                                           "concurrency, "
                                                                           "prefix_cache)") !=
                std::string::npos);
        QCOMPARE(step(before, "runtime")["status"].get<std::string>(), std::string("untested"));

        // The same server, declared differently: the reference is recorded again (another
        // environment), and the diagnosis names what changed.
        QFile f(study);
        QVERIFY(f.open(QIODevice::ReadOnly));
        json s = json::parse(f.readAll().toStdString());
        f.close();
        s["model"]["labels"]["server"] = "llama-cpp-python 0.3.36, --n_threads 2";
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::fromStdString(s.dump(2)));
        f.close();
        const Result again =
            run({QStringLiteral("run"), study, QStringLiteral("--config"), QStringLiteral("c1")});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        const json after = diagnose();
        QVERIFY2(!after.contains("error"), after.dump().c_str());
        const json runtime = step(after, "runtime");
        const std::string finding = runtime["finding"].get<std::string>();
        QVERIFY2(finding.find("labels.server llama-cpp-python 0.3.36, one request at a time -> "
                              "llama-cpp-python 0.3.36, --n_threads 2") != std::string::npos,
                 finding.c_str());
        QCOMPARE(runtime["status"].get<std::string>(), std::string("clean")); // same numbers
        bool row = false;
        for (const auto& r : after["table"]) {
            row = row || (r["step"] == "environment" && r["bit_identical"].get<double>() == 1.0);
        }
        QVERIFY(row);
        // Most runs are from the old declaration: the reference is explained there, and c4,
        // recorded in that runtime too, has only its serving axes as suspects.
        bool c4 = false;
        for (const auto& c : after["configs"]) {
            if (c["config"] == "c4") {
                c4 = true;
                QVERIFY2(c["suspects"] == json::array({"serving"}), c["suspects"].dump().c_str());
            }
        }
        QVERIFY(c4);
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        QCOMPARE(after["reference_run"].get<std::int64_t>(), runNamed(led, "c1")->id);
        QVERIFY(led.verify().ok);
        QVERIFY(
            led.latestDiagnosis("yes-no").has_value()); // the workbench's diagnosis view reads it
    }

    // A generation head over the server: per step the token, its log-probability and the top-2
    // gap; two runs of the same settings give the same outputs, and `compare` adds the per-token
    // metrics from the top-K lists (no divergence: KL 0, the same top token everywhere).
    void generationRunsCarryTheirTokens() {
        const json words{
            {"words",
             {{"kind", "generation"},
              {"template", "<|im_start|>user\nList the words that carry the sentiment of this "
                           "sentence, one per line.\nSentence: {text}<|im_end|>\n"
                           "<|im_start|>assistant\n"},
              {"max_new_tokens", 8},
              {"records", {{"mode", "lines"}, {"lowercase", true}}}}}};
        const QString study =
            writeStudy(QStringLiteral("gen"), m_server.base(),
                       {{"c1", json::object()}, {"c2", {{"concurrency", 2}, {"arrival_seed", 5}}}},
                       {{"top_logprobs", 3}}, json(), words);
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const ledger::Ledger led(path(QStringLiteral("gen.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        const auto c1 = runNamed(led, "c1"), c2 = runNamed(led, "c2");
        QVERIFY(c1 && c2);
        for (const auto& g : led.generations(c1->id)) {
            QVERIFY(!g.text.empty());
            QVERIFY(!g.tokens.empty() && g.tokens.size() <= 8);
            QCOMPARE(g.gaps.size(), g.tokens.size());
            QVERIFY(std::isfinite(g.gaps.front()) && g.gaps.front() >= 0);
            QVERIFY(std::isfinite(g.logits.front()) && g.logits.front() <= 0); // log-probabilities
        }
        const Result cmp =
            run({QStringLiteral("compare"), path(QStringLiteral("gen.ledger")),
                 QString::number(c1->id), QString::number(c2->id), QStringLiteral("--json")});
        QVERIFY2(cmp.code == 0, qPrintable(cmp.err));
        const json c = json::parse(cmp.out.toStdString());
        QVERIFY2(c.contains("token_metrics"), cmp.out.toUtf8().constData());
        QVERIFY(c["token_metrics"]["positions"].get<int>() >= int(kItems.size()));
        // llama-cpp-python runs one request at a time: concurrency 2 changes nothing.
        QCOMPARE(c["token_metrics"]["kl"]["max"].get<double>(), 0.0);
        QCOMPARE(c["token_metrics"]["top1_same"]["share"].get<double>(), 1.0);
        QCOMPARE(c["token_metrics"]["rms_dp_points"].get<double>(), 0.0);
    }

    // SIGKILL of `probaudit run` mid-run: the rerun resumes the same run, records what was
    // missing, and no item is recorded twice or lost.
    void resumesAfterKill9() {
        FaultProxy slow;
        QVERIFY(slow.start(m_server.port(), QStringLiteral(R"({"*": "delay:0.4"})")));
        const QString study =
            writeStudy(QStringLiteral("killed"), slow.base(), {{"c2", {{"concurrency", 2}}}});
        const QString ledgerPath = path(QStringLiteral("killed.ledger"));
        const auto p = startRun(study);
        QVERIFY(waitForItems(ledgerPath, 4) >= 4);
        p->kill(); // SIGKILL to this very pid
        p->waitForFinished();
        std::size_t before = 0;
        {
            const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
            before = led.recordedItems(led.runs().front().id).size();
            QVERIFY(before < kItems.size());
        }
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all"),
                              QStringLiteral("--events"), QStringLiteral("jsonl")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("\"resumed_items\":%1").arg(before)),
                 qPrintable(r.out));
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        QCOMPARE(led.runs().size(), std::size_t(1)); // the same run, resumed
        const auto id = led.runs().front().id;
        QCOMPARE(led.runs().front().status, ledger::RunStatus::Finished);
        const auto items = led.recordedItems(id);
        QCOMPARE(items.size(), kItems.size());
        QCOMPARE(led.requests(id).size(), kItems.size());
        QCOMPARE(std::set<std::int64_t>(items.begin(), items.end()).size(), kItems.size());
        QVERIFY(led.verify().ok);
    }

    // The server dies mid-run: the run stops after the requests in flight with one sentence and
    // keeps what it recorded; with the server back where it was, the run resumes and finishes.
    void serverDyingStopsTheRunAndItResumes() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"*": "delay:0.3"})")));
        const int port = proxy.port();
        const QString study =
            writeStudy(QStringLiteral("dies"), proxy.base(), {{"c1", {{"concurrency", 1}}}});
        const QString ledgerPath = path(QStringLiteral("dies.ledger"));
        const auto p = startRun(study);
        const std::size_t recorded = waitForItems(ledgerPath, 3);
        QVERIFY(recorded >= 3);
        proxy.stop();
        QVERIFY(p->waitForFinished(60000));
        const QString err = QString::fromUtf8(p->readAllStandardError());
        m_outputs.push_back(err);
        QCOMPARE(p->exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("no reply from")) &&
                     err.contains(QStringLiteral("run again to resume")),
                 qPrintable(err));
        std::size_t kept = 0;
        {
            const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
            QCOMPARE(led.runs().front().status, ledger::RunStatus::Interrupted);
            kept = led.recordedItems(led.runs().front().id).size();
            QVERIFY(kept >= recorded);
        }
        FaultProxy back;
        QVERIFY(back.start(m_server.port(), QStringLiteral("{}"), port));
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        QCOMPARE(led.runs().size(), std::size_t(1));
        QCOMPARE(led.recordedItems(led.runs().front().id).size(), kItems.size());
        QVERIFY(led.verify().ok);
    }

    // A reply that is not JSON fails its item (kept, with a snippet); the run goes on and the
    // comparison counts the item as undecided.
    void malformedReplyFailsOneItem() {
        FaultProxy proxy;
        // POST 1 is the preflight's probe; 4 is the third item's request.
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"4": "garbage"})")));
        const QString study =
            writeStudy(QStringLiteral("garbage"), proxy.base(), {{"c1", {{"concurrency", 1}}}});
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const ledger::Ledger led(path(QStringLiteral("garbage.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        const auto id = led.runs().front().id;
        int failed = 0;
        for (const auto& req : led.requests(id)) {
            const json ex = json::parse(req.json);
            if (ex.contains("failed")) {
                ++failed;
                QVERIFY2(ex["failed"].get<std::string>().find("oops") != std::string::npos,
                         req.json.c_str()); // the snippet of what came
                const auto recs = led.records(id, false);
                QCOMPARE(recs[std::size_t(req.item)].decision, -1);
            }
        }
        QCOMPARE(failed, 1);
        analysis::RunData a{led.run(id), led.records(id, false)};
        const analysis::Comparison c = analysis::compare(a, a, led.items());
        QCOMPARE(c.undecided, std::int64_t(1));
    }

    // A reply for another model mid-run stops the run; what came before is kept.
    void wrongModelStopsTheRun() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"5": "model:impostor"})")));
        const QString study =
            writeStudy(QStringLiteral("impostor"), proxy.base(), {{"c1", {{"concurrency", 1}}}});
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QCOMPARE(r.code, 1);
        QVERIFY2(lastLine(r.err).startsWith(QStringLiteral("error: ")) &&
                     lastLine(r.err).contains(QStringLiteral("answered for model \"impostor\"")),
                 qPrintable(r.err));
        const ledger::Ledger led(path(QStringLiteral("impostor.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        QCOMPARE(led.recordedItems(led.runs().front().id).size(), std::size_t(3));
        QCOMPARE(led.runs().front().status, ledger::RunStatus::Interrupted);
    }

    // Bad input: one line naming the problem, exit 1, the ledger byte for byte as it was.
    void badInputLeavesTheLedger_data() {
        QTest::addColumn<QString>("base");   // "" = the server; "proxy:PLAN"; else a URL
        QTest::addColumn<QString>("change"); // JSON merged into the study's model, or config
        QTest::addColumn<QString>("expect");
        const QString dead = QStringLiteral("http://127.0.0.1:%1/v1").arg(freePort());
        QTest::newRow("unreachable") << dead << "{}"
                                     << "cannot reach";
        QTest::newRow("tls") << QStringLiteral("https://127.0.0.1:%1/v1").arg(m_server.port())
                             << "{}"
                             << "cannot reach";
        QTest::newRow("401") << R"(proxy:{"*": "401"})"
                             << "{}" << kKeyEnv;
        QTest::newRow("404 model") << ""
                                   << R"({"model": {"name": "nosuch"}})"
                                   << "does not serve model \"nosuch\"";
        QTest::newRow("no logprobs") << R"(proxy:{"*": "nologprobs"})"
                                     << "{}"
                                     << "generation head";
        QTest::newRow("temperature") << ""
                                     << R"({"model": {"temperature": 0.7}})"
                                     << "temperature: must be 0";
        QTest::newRow("concurrency 0") << ""
                                       << R"({"config": {"concurrency": 0}})"
                                       << "concurrency";
        QTest::newRow("concurrency 2000") << ""
                                          << R"({"config": {"concurrency": 2000}})"
                                          << "at most 1024";
        QTest::newRow("engine axis") << ""
                                     << R"({"config": {"dtype": "bfloat16"}})"
                                     << "a setting of the server";
        QTest::newRow("split label") << ""
                                     << R"({"labels": ["Nooo", "Yesss"]})"
                                     << "more than one token";
        QTest::newRow("key unset") << ""
                                   << R"({"model": {"api_key_env": "PROBAUDIT_NO_SUCH"}})"
                                   << "PROBAUDIT_NO_SUCH";
    }
    void badInputLeavesTheLedger() {
        QFETCH(QString, base);
        QFETCH(QString, change);
        QFETCH(QString, expect);
        FaultProxy proxy;
        std::string url = base.isEmpty() ? m_server.base() : base.toStdString();
        if (base.startsWith(QStringLiteral("proxy:"))) {
            QVERIFY(proxy.start(m_server.port(), base.mid(6)));
            url = proxy.base();
        }
        const json c = json::parse(change.toStdString());
        json config{{"concurrency", 1}};
        if (c.contains("config")) {
            config.update(c["config"]);
        }
        const QString study = writeStudy(QStringLiteral("bad"), url, {{"c1", config}},
                                         c.value("model", json::object()),
                                         c.value("labels", json::array({"No", "Yes"})));
        // The ledger of a good run, copied: a refused run must leave it as it was.
        const QString ledgerPath = path(QStringLiteral("bad.ledger"));
        QFile::remove(ledgerPath);
        QVERIFY(QFile::copy(path(QStringLiteral("label.ledger")), ledgerPath));
        const QByteArray before = fileDigest(ledgerPath);
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all"),
                              QStringLiteral("--ledger"), ledgerPath});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(expect), qPrintable(r.err));
        // One sentence: a study's problems are listed one per line under one heading.
        QVERIFY2(r.err.contains(QStringLiteral("problem")) ||
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QString::fromLatin1(kKey)));
        QCOMPARE(fileDigest(ledgerPath), before);
        QVERIFY(!QFile::exists(ledgerPath + QStringLiteral("-wal")) ||
                QFileInfo(ledgerPath + QStringLiteral("-wal")).size() == 0);
    }

    // A server that echoes the Authorization header into everything it returns (its text, its
    // system_fingerprint, its Server header): the ledger holds "[key]" where the key was.
    void echoingServerLeavesNoKey() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"*": "echo"})")));
        const json words{{"words",
                          {{"kind", "generation"},
                           {"template", "<|im_start|>user\nSay one word about: {text}<|im_end|>\n"
                                        "<|im_start|>assistant\n"},
                           {"max_new_tokens", 4}}}};
        const QString labels =
            writeStudy(QStringLiteral("echo-labels"), proxy.base(), {{"c1", json::object()}});
        const QString gen = writeStudy(QStringLiteral("echo-gen"), proxy.base(),
                                       {{"c1", json::object()}}, json::object(), json(), words);
        for (const QString& study : {labels, gen}) {
            const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QString ledgerPath = study;
            ledgerPath.replace(QStringLiteral(".study.json"), QStringLiteral(".ledger"));
            QFile f(ledgerPath);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY2(!bytes.contains(kKey), qPrintable(ledgerPath));
            QVERIFY2(bytes.contains("Bearer [key]"), qPrintable(ledgerPath)); // it was echoed
        }
    }

    // A server that returns 100,000 alternatives per token when 5 were asked: 5 are decided on
    // and recorded (the ledger took 88 MiB for 4 items before).
    void onlyTheAskedAlternativesAreKept() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"*": "manytop"})")));
        const QString study =
            writeStudy(QStringLiteral("manytop"), proxy.base(), {{"c1", json::object()}});
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString ledgerPath = path(QStringLiteral("manytop.ledger"));
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        const auto requests = led.requests(led.runs().front().id);
        QCOMPARE(requests.size(), kItems.size());
        for (const auto& q : requests) {
            const json ex = json::parse(q.json);
            for (const auto& step : ex.at("top")) {
                QVERIFY2(!step.empty() && step.size() <= 5, q.json.c_str());
            }
        }
        QVERIFY(QFileInfo(ledgerPath).size() < 4 << 20);
    }

    // A Server header that is not UTF-8 goes into the fingerprint with its bad bytes replaced
    // (it raised a JSON library's exception after the preflight).
    void serverHeaderOfAnyBytes() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"*": "badserver"})")));
        const QString study =
            writeStudy(QStringLiteral("badserver"), proxy.base(), {{"c1", json::object()}});
        const Result r = run({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const ledger::Ledger led(path(QStringLiteral("badserver.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        const json env = led.environment(led.runs().front().env_hash);
        QCOMPARE(env.at("server").at("header").get<std::string>(),
                 std::string("caf\xef\xbf\xbd-\xef\xbf\xbd\xef\xbf\xbd"));
    }

    // The key is read from the environment and written nowhere: not in a ledger (nor its WAL),
    // a bundle, a report, an event or a message. Runs last, over everything the suite made.
    void zzKeyIsWrittenNowhere() {
        const QString bundle = path(QStringLiteral("label-audit.zip"));
        const Result b = run({QStringLiteral("bundle"), path(QStringLiteral("label.ledger")),
                              QStringLiteral("-o"), bundle});
        QVERIFY2(b.code == 0, qPrintable(b.err));
        const Result rep = run({QStringLiteral("report"), path(QStringLiteral("label.ledger")),
                                QStringLiteral("-o"), path(QStringLiteral("label.pdf"))});
        QVERIFY2(rep.code == 0, qPrintable(rep.err));
        // Compressed files are looked into: the bundle's members, the report's text.
        QProcess unzip;
        unzip.start(QStringLiteral("python3"),
                    {QStringLiteral("-m"), QStringLiteral("zipfile"), QStringLiteral("-e"), bundle,
                     path(QStringLiteral("bundle-members"))});
        QVERIFY(unzip.waitForFinished(60000) && unzip.exitCode() == 0);
        QProcess text;
        text.start(QStringLiteral("pdftotext"),
                   {path(QStringLiteral("label.pdf")), path(QStringLiteral("label.txt"))});
        QVERIFY(text.waitForFinished(60000) && text.exitCode() == 0);
        int files = 0;
        for (QDirIterator it(m_dir.path(), QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains(kKey), qPrintable(f.fileName()));
            ++files;
        }
        QVERIFY(files >= 8);
        for (const QString& o : m_outputs) {
            QVERIFY(!o.contains(QString::fromLatin1(kKey)));
        }
    }
};

QTEST_GUILESS_MAIN(TestEndpointRun)
#include "test_endpoint_run.moc"
