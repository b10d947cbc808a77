// Endpoint runs against a server that batches: `transformers serve --continuous-batching
// --device cpu` on 127.0.0.1 (tests/endpoint_servers.h), serving SmolLM2 as set-up converted
// it. It returns no log-probabilities, so it is the server for the concurrency, arrival and
// generation paths: a generation study recorded at concurrency 1 and 4 keeps every output with
// its exchange, the requests really overlap at concurrency 4, the outputs compare by their
// text (there are no tokens to compare), and a label head is refused before anything is
// recorded, with the generation head named as the way to audit such a server.
#include "core/endpoint/http_pool.h"
#include "core/endpoint/openai_api.h"
#include "core/ledger/ledger.h"
#include "endpoint_servers.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace probaudit;
using namespace endpoint_test;
using nlohmann::json;

class TestEndpointBatching : public QObject {
    Q_OBJECT
    TransformersServer m_server;
    QTemporaryDir m_dir;
    std::string m_model; // the id the server lists

    QString writeStudy(const QString& name, const json& head, const json& configs) {
        const json study{
            {"name", name.toStdString()},
            {"model",
             {{"endpoint", m_server.base()},
              {"name", m_model},
              {"labels", {{"server", "transformers serve --continuous-batching --device cpu"}}},
              {"timeout", 240}}},
            {"heads", {{"h", head}}},
            {"dataset",
             {{"path", m_dir.filePath(QStringLiteral("reviews.jsonl")).toStdString()},
              {"labels", {"negative", "positive"}}}},
            {"configs", configs},
            {"reference", configs.begin().key()}};
        const QString file = m_dir.filePath(name + QStringLiteral(".study.json"));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray::fromStdString(study.dump(2)));
        return file;
    }

    static std::pair<int, QString> cli(const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI), args);
        p.waitForFinished(600000);
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardError())};
    }

    // The most requests of a run that were at the server at once, from their stored times.
    static int mostInFlight(const std::vector<ledger::RequestRecord>& requests) {
        std::vector<std::pair<double, int>> events;
        for (const auto& r : requests) {
            const json a = json::parse(r.json).at("attempts");
            events.emplace_back(a.front().at("sent").get<double>(), +1);
            events.emplace_back(a.back().at("done").get<double>(), -1);
        }
        std::sort(events.begin(), events.end()); // an end before a start at the same time
        int now = 0, most = 0;
        for (const auto& [t, d] : events) {
            most = std::max(most, now += d);
        }
        return most;
    }

private Q_SLOTS:
    void initTestCase() {
        if (const QString why = TransformersServer::unavailable(); !why.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        QVERIFY(m_dir.isValid());
        QVERIFY(writeReviews(m_dir.filePath(QStringLiteral("reviews.jsonl"))));
        QVERIFY2(m_server.start(), qPrintable(m_server.log()));
        endpoint::HttpPool pool({});
        const auto r = pool.fetch(endpoint::HttpRequest::get(m_server.base() + "/models"));
        const auto ids = endpoint::parseModelList(r.body);
        QVERIFY(!ids.empty());
        m_model = ids.front();
    }
    void cleanupTestCase() { m_server.stop(); }

    void generationAtConcurrencyOneAndFour() {
        const json head{{"kind", "generation"},
                        {"template", "<|im_start|>user\nList the words that carry the sentiment "
                                     "of this sentence, one per line.\nSentence: "
                                     "{text}<|im_end|>\n<|im_start|>assistant\n"},
                        {"max_new_tokens", 12},
                        {"records", {{"mode", "lines"}, {"lowercase", true}}}};
        const QString study =
            writeStudy(QStringLiteral("batching"), head,
                       {{"c1", json::object()}, {"c4", {{"concurrency", 4}, {"arrival_seed", 3}}}});
        const auto [code, err] = cli({QStringLiteral("run"), study, QStringLiteral("--all")});
        QVERIFY2(code == 0, qPrintable(err));
        const ledger::Ledger led(m_dir.filePath(QStringLiteral("batching.ledger")).toStdString(),
                                 ledger::Ledger::Mode::Read);
        QCOMPARE(led.runs().size(), std::size_t(2));
        for (const auto& run : led.runs()) {
            QCOMPARE(run.status, ledger::RunStatus::Finished);
            const auto outputs = led.generations(run.id);
            QCOMPARE(outputs.size(), labelledReviews().size());
            for (const auto& g : outputs) {
                QVERIFY(!g.text.empty());
                QVERIFY(g.tokens.empty()); // no log-probabilities, so no tokens
            }
            const auto requests = led.requests(run.id);
            QCOMPARE(requests.size(), labelledReviews().size());
            const int most = mostInFlight(requests);
            QVERIFY2(run.config_name == "c1" ? most == 1 : most >= 3,
                     qPrintable(QString::number(most)));
        }
        QVERIFY(led.verify().ok);
        const auto [cmpCode, cmpErr] =
            cli({QStringLiteral("compare"), m_dir.filePath(QStringLiteral("batching.ledger")),
                 QStringLiteral("1"), QStringLiteral("2")});
        QVERIFY2(cmpCode == 0, qPrintable(cmpErr));
    }

    // No log-probabilities: a label head cannot decide here, and says what can.
    void labelHeadIsRefused() {
        const json head{{"kind", "label_tokens"},
                        {"template", "Is this review positive? {text}\nAnswer:"},
                        {"labels", {" No", " Yes"}}};
        const QString study = writeStudy(QStringLiteral("labels"), head, {{"c1", json::object()}});
        const auto [code, err] = cli({QStringLiteral("run"), study, QStringLiteral("--all")});
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("no log-probabilities")) &&
                     err.contains(QStringLiteral("generation head")),
                 qPrintable(err));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("labels.ledger"))));
    }
};

QTEST_GUILESS_MAIN(TestEndpointBatching)
#include "test_endpoint_batching.moc"
