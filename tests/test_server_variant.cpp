// A server as a model variant ($.models.NAME.endpoint, "serves": the local variant it claims to
// serve) next to local variants of the same model, against a real llama-cpp-python server on
// 127.0.0.1 (tests/endpoint_servers.h): one study with three local variants and the server is
// recorded, sharded and merged, bundled and imported, and verified; the server's run resumes
// after SIGKILL with nothing twice and nothing lost.
#include "cli_support.h"
#include "core/ledger/ledger.h"
#include "endpoint_servers.h"
#include "shard_study.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <set>
#include <thread>

using namespace probaudit;
using namespace endpoint_test;
using nlohmann::json;
using ojson = nlohmann::ordered_json; // $.models and $.configs keep their order
using probaudit::test::cli;

namespace {

// The local variants: the demo GGUF, a byte copy of it under another name (the control) and the
// Hugging Face folder set-up converts it to (float32 weights of the same model).
ojson localVariants(const QString& copy) {
    return {{"q4_1", {{"path", demoGguf().toStdString()}}},
            {"copy", {{"path", copy.toStdString()}}},
            {"hf", {{"path", hfSmolLM2().toStdString()}}}};
}

// The yes/no head of the endpoint suites: one token per label, both in the server's top 5.
ojson yesNoHead() {
    return {{"yes-no",
             {{"kind", "label_tokens"},
              {"template", "<|im_start|>user\nIs the sentiment of this review positive? Answer "
                           "Yes or No.\nReview: {text}<|im_end|>\n<|im_start|>assistant\n"},
              {"labels", {"No", "Yes"}}}}};
}

ojson server(const std::string& base) {
    return {{"endpoint", base},
            {"name", "smollm2"},
            {"serves", "q4_1"},
            {"labels", {{"server", "llama-cpp-python, one request at a time"}}},
            {"max_retries", 2}};
}

QJsonArray runsOf(const QString& ledger) {
    const auto r = cli({QStringLiteral("runs"), ledger, QStringLiteral("--json")});
    return QJsonDocument::fromJson(r.out).array();
}

QJsonObject runOfConfig(const QString& ledger, const QString& config) {
    for (const auto& v : runsOf(ledger)) {
        if (v.toObject()[u"config"].toString() == config) {
            return v.toObject();
        }
    }
    return {};
}

// The stored exchanges of a ledger's run of `config`, by item.
std::vector<ledger::RequestRecord> exchangesOf(const QString& path, const std::string& config) {
    const ledger::Ledger led(path.toStdString(), ledger::Ledger::Mode::Read);
    for (const auto& r : led.runs()) {
        if (r.config_name == config) {
            return led.requests(r.id);
        }
    }
    return {};
}

// The converted SmolLM2 folder with the embedding rows of "Yes" and "No" swapped (the output
// projection is tied to them): other weights, whose answers to the yes/no head go the other way
// (the planted wrong model a server could be serving). Empty when it cannot be written.
QString writeInvertedVariant(const QString& dir) {
    const QString out = dir + QStringLiteral("/inverted");
    QDir().mkpath(out);
    const QDir src(hfSmolLM2());
    for (const QString& f : src.entryList(QDir::Files)) {
        QFile::copy(src.filePath(f), out + u'/' + f);
    }
    QFile vocabFile(out + QStringLiteral("/tokenizer.json"));
    QFile file(out + QStringLiteral("/model.safetensors"));
    if (!vocabFile.open(QIODevice::ReadOnly) || !file.open(QIODevice::ReadWrite)) {
        return {};
    }
    const QJsonObject vocab = QJsonDocument::fromJson(vocabFile.readAll())
                                  .object()[u"model"]
                                  .toObject()[u"vocab"]
                                  .toObject();
    quint64 headerSize = 0;
    file.read(reinterpret_cast<char*>(&headerSize), 8); // little-endian, as this machine
    const QJsonObject embedding = QJsonDocument::fromJson(file.read(qint64(headerSize)))
                                      .object()[u"model.embed_tokens.weight"]
                                      .toObject();
    if (embedding[u"dtype"].toString() != u"F32" || !vocab.contains(u"Yes") ||
        !vocab.contains(u"No")) {
        return {};
    }
    const qint64 begin =
        8 + qint64(headerSize) + qint64(embedding[u"data_offsets"].toArray()[0].toInteger());
    const qint64 row = qint64(embedding[u"shape"].toArray()[1].toInteger()) * 4;
    const qint64 yes = begin + row * vocab[u"Yes"].toInteger();
    const qint64 no = begin + row * vocab[u"No"].toInteger();
    file.seek(yes);
    const QByteArray yesRow = file.read(row);
    file.seek(no);
    const QByteArray noRow = file.read(row);
    file.seek(yes);
    file.write(noRow);
    file.seek(no);
    file.write(yesRow);
    return file.error() == QFile::NoError ? out : QString();
}

} // namespace

class TestServerVariant : public QObject {
    Q_OBJECT
    LlamaCppServer m_server;
    QTemporaryDir m_dir;
    QString m_data, m_copy;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    QString writeStudy(const QString& name, const ojson& models, const ojson& configs) {
        const ojson study{
            {"name", name.toStdString()},
            {"models", models},
            {"heads", yesNoHead()},
            {"dataset", {{"path", m_data.toStdString()}, {"labels", {"negative", "positive"}}}},
            {"configs", configs},
            {"reference", configs.begin().key()}};
        const QString file = path(name + QStringLiteral(".study.json"));
        if (!probaudit::test::writeFile(file, QByteArray::fromStdString(study.dump(2)))) {
            qFatal("cannot write the study");
        }
        return file;
    }

private Q_SLOTS:
    void initTestCase() {
        if (const QString why = LlamaCppServer::unavailable(); !why.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        if (!QFile::exists(hfSmolLM2() + QStringLiteral("/model.safetensors"))) {
            QSKIP("no converted SmolLM2 folder: run ./scripts/setup");
        }
        QVERIFY(m_dir.isValid());
        m_data = path(QStringLiteral("reviews.jsonl"));
        QVERIFY(writeReviews(m_data));
        m_copy = path(QStringLiteral("copy.gguf"));
        QVERIFY(QFile::copy(demoGguf(), m_copy));
        QVERIFY2(m_server.start(), qPrintable(m_server.log()));
    }
    void cleanupTestCase() { m_server.stop(); }

    // Three local variants and the server that claims to serve one of them, in one study: every
    // run names its variant; the server's run holds every item's exchange and captures nothing;
    // two shards merge into the one-node runs (the server's run recorded whole by shard 1);
    // the bundle imports into a fresh ledger; every ledger verifies.
    void recordsShardsAndBundlesAServerVariant() {
        ojson models = localVariants(m_copy);
        models["provider"] = server(m_server.base());
        const ojson configs{{"ref", ojson::object()},
                            {"b4", {{"batch_size", 4}}},
                            {"copy", {{"model", "copy"}}},
                            {"hf", {{"model", "hf"}}},
                            {"served", {{"model", "provider"}, {"concurrency", 2}}}};
        const QString study = writeStudy(QStringLiteral("served"), models, configs);
        const QString whole = path(QStringLiteral("whole.ledger"));
        const auto r = cli({u"run"_qs, study, u"--all"_qs, u"--ledger"_qs, whole});
        QVERIFY2(r.code == 0, r.err);
        QCOMPARE(cli({u"verify"_qs, whole}).code, 0);
        QCOMPARE(runsOf(whole).size(), 5);
        const QJsonObject served = runOfConfig(whole, u"served"_qs);
        QCOMPARE(served[u"model"].toString(), u"provider"_qs);
        QCOMPARE(served[u"capture"].toString(), u"none"_qs);
        QCOMPARE(served[u"items_done"].toInt(), 12);
        QCOMPARE(runOfConfig(whole, u"hf"_qs)[u"model"].toString(), u"hf"_qs);
        QCOMPARE(exchangesOf(whole, "served").size(), std::size_t(12));
        {
            const ledger::Ledger led(whole.toStdString(), ledger::Ledger::Mode::Read);
            const json stored = led.study();
            QCOMPARE(stored["models"]["provider"]["serves"].get<std::string>(), "q4_1");
            QVERIFY(!stored["models"]["provider"].contains("sha256"));
            QVERIFY(!stored["models"]["q4_1"].value("sha256", "").empty());
            for (const auto& run : led.runs()) {
                const json env = led.environment(run.env_hash);
                QCOMPARE(env.value("kind", "") == "endpoint", run.config_name == "served");
            }
        }

        // Two shards, merged: the local runs are the one-node runs bit for bit; the server's
        // run is shard 1's, with its exchanges.
        QStringList shards;
        for (const QString& shard : {u"1/2"_qs, u"2/2"_qs}) {
            shards << path(QStringLiteral("shard-%1.ledger").arg(shard.left(1)));
            const auto s = cli({u"run"_qs, study, u"--all"_qs, u"--shard"_qs, shard, u"--ledger"_qs,
                                shards.back()});
            QVERIFY2(s.code == 0, s.err);
        }
        QCOMPARE(runOfConfig(shards[0], u"served"_qs)[u"items_done"].toInt(), 12);
        QCOMPARE(runOfConfig(shards[1], u"served"_qs)[u"items_done"].toInt(), 0);
        // A shard's ledger reads as it is: the server's run there has no item to compare.
        const auto shardSummary = cli({u"summary"_qs, shards[1], u"--variants"_qs});
        QVERIFY2(shardSummary.code == 0, shardSummary.err);
        const QString merged = path(QStringLiteral("merged.ledger"));
        const auto m = cli(QStringList{u"merge"_qs} + shards + QStringList{u"-o"_qs, merged});
        QVERIFY2(m.code == 0, m.err);
        QCOMPARE(cli({u"verify"_qs, merged}).code, 0);
        const auto one = probaudit::test::recorded(whole);
        const auto joined = probaudit::test::recorded(merged);
        const auto first = probaudit::test::recorded(shards[0]);
        QCOMPARE(joined.size(), one.size());
        for (const auto& [config, w] : one) {
            const auto& expected = config == "served" ? first.at(config) : w;
            const auto& got = joined.at(config);
            QVERIFY2(got.numerics == expected.numerics, config.c_str());
            QCOMPARE(got.records.size(), expected.records.size());
            for (std::size_t k = 0; k < got.records.size(); ++k) {
                QVERIFY2(probaudit::test::sameRecord(got.records[k], expected.records[k]),
                         config.c_str());
            }
        }
        const auto exchanges = exchangesOf(merged, "served");
        QCOMPARE(exchanges.size(), std::size_t(12));
        QVERIFY(exchanges.front().json == exchangesOf(shards[0], "served").front().json);

        // Bundled and imported into a fresh ledger.
        const QString zip = path(QStringLiteral("served.audit.zip"));
        const auto b = cli({u"bundle"_qs, whole, u"--study"_qs, study, u"-o"_qs, zip});
        QVERIFY2(b.code == 0, b.err);
        const QString imported = path(QStringLiteral("imported.ledger"));
        const auto i = cli({u"import"_qs, zip, u"--into"_qs, imported});
        QVERIFY2(i.code == 0, i.err);
        QCOMPARE(cli({u"verify"_qs, imported}).code, 0);
        QCOMPARE(runsOf(imported).size(), 5);
        QCOMPARE(exchangesOf(imported, "served").size(), std::size_t(12));
    }

    // The verdict (`summary --variants`): the server serving the demo GGUF against "q4_1", the
    // variant it claims, and q4_1's runtime floor (batch size 4); the same server behind a proxy
    // that swaps the labels' log-probabilities (a planted provider whose model decides the other
    // way): it differs; the server asked for its top token alone: too little to decide.
    void judgesTheServerAgainstTheVariantItServes() {
        FaultProxy swap;
        QVERIFY(swap.start(m_server.port(), QStringLiteral(R"({"*": "swap:No,Yes"})")));
        ojson models = localVariants(m_copy);
        models["provider"] = server(m_server.base());
        models["swapped"] = server(swap.base());
        models["terse"] = server(m_server.base());
        models["terse"]["top_logprobs"] = 1;
        const QString inverted = writeInvertedVariant(m_dir.path());
        QVERIFY(!inverted.isEmpty());
        models["inverted"] = {{"path", inverted.toStdString()}};
        models["claims"] = server(m_server.base());
        models["claims"]["serves"] = "inverted";
        // One reply that is not JSON: that item fails, the run goes on. (Request 1 is the
        // preflight's probe.)
        FaultProxy flaky;
        QVERIFY(flaky.start(m_server.port(), QStringLiteral(R"({"5": "garbage"})")));
        models["flaky"] = server(flaky.base());
        const ojson configs{{"ref", ojson::object()},
                            {"b4", {{"batch_size", 4}}},
                            {"copy", {{"model", "copy"}}},
                            {"hf", {{"model", "hf"}}},
                            {"inverted", {{"model", "inverted"}}},
                            {"inverted-b4", {{"model", "inverted"}, {"batch_size", 4}}},
                            {"served", {{"model", "provider"}}},
                            {"swapped", {{"model", "swapped"}}},
                            {"terse", {{"model", "terse"}}},
                            {"claims", {{"model", "claims"}}},
                            {"flaky", {{"model", "flaky"}}}};
        const QString study = writeStudy(QStringLiteral("judged"), models, configs);
        const QString ledgerPath = path(QStringLiteral("judged.ledger"));
        // --jobs: the local configs two at a time, the servers after them one at a time.
        const auto r =
            cli({u"run"_qs, study, u"--all"_qs, u"--jobs"_qs, u"2"_qs, u"--ledger"_qs, ledgerPath});
        QVERIFY2(r.code == 0, r.err);
        QCOMPARE(runsOf(ledgerPath).size(), 11);
        const auto summary = cli({u"summary"_qs, ledgerPath, u"--variants"_qs, u"--json"_qs});
        QVERIFY2(summary.code == 0, summary.err);
        const json out = json::parse(summary.out.toStdString());
        std::map<std::string, json> servers;
        for (const auto& c : out.at("servers")) {
            servers[c.at("variant").get<std::string>()] = c;
        }
        QCOMPARE(servers.size(), std::size_t(5));
        for (const auto& row : out.at("rows")) { // servers are judged, not tabled as variants
            QVERIFY(row.at("variant") != "provider" && row.at("variant") != "swapped");
        }

        const json& served = servers.at("provider");
        QCOMPARE(served.at("serves").get<std::string>(), "q4_1");
        QCOMPARE(served.at("baseline").get<std::string>(), "ref");
        QCOMPARE(served.at("items").get<int>(), 12);
        QCOMPARE(served.at("floor").at("configs").get<int>(), 1); // b4
        QCOMPARE(served.at("distances").size(), std::size_t(4));  // q4_1, copy, hf, inverted
        const json tied = {"copy", "hf", "q4_1"}; // the same weights, dequantised or copied
        QVERIFY2(served.at("closest") == tied, served.dump().c_str());
        // llama.cpp's own kernels may move a close decision (they quantise activations): the
        // verdict says which, and then that the answers are still closest to q4_1.
        const std::string finding = served.at("finding").get<std::string>();
        QVERIFY2(served.at("verdict") == "conforms" ||
                     (served.at("verdict") == "differs" &&
                      finding.find("still closest to \"q4_1\"") != std::string::npos),
                 served.dump().c_str());
        QVERIFY(served.at("flips").get<int>() <= 3);

        // A server that claims the inverted weights while it serves q4_1's.
        const json& claims = servers.at("claims");
        QVERIFY2(claims.at("verdict") == "differs", claims.dump().c_str());
        QVERIFY2(claims.at("closest") == tied, claims.dump().c_str());
        QVERIFY(claims.at("flips").get<int>() >= 8);

        const json& swapped = servers.at("swapped");
        QVERIFY2(swapped.at("verdict") == "differs", swapped.dump().c_str());
        QVERIFY(swapped.at("flips").get<int>() > served.at("flips").get<int>() + 6);
        QVERIFY(swapped.at("finding").get<std::string>().find("more decisions than the runtime "
                                                              "floor") != std::string::npos);

        // A failed request is no decision: counted once, never as a flip.
        const json& flakyRow = servers.at("flaky");
        QCOMPARE(flakyRow.at("undecided").get<int>(), 1);
        QVERIFY2(flakyRow.at("inexact").get<int>() <= served.at("inexact").get<int>() &&
                     flakyRow.at("flips").get<int>() <= served.at("flips").get<int>() &&
                     flakyRow.at("flips").get<int>() >= served.at("flips").get<int>() - 1 &&
                     flakyRow.at("verdict") != "too_little",
                 flakyRow.dump().c_str());

        // The diagnosis of a study with servers probes the local reference only.
        const auto diagnosis = cli({u"diagnose"_qs, study, u"--ledger"_qs, ledgerPath});
        QVERIFY2(diagnosis.code == 0, diagnosis.err);

        const json& terse = servers.at("terse");
        QVERIFY2(terse.at("verdict") == "too_little", terse.dump().c_str());
        QVERIFY(terse.at("finding").get<std::string>().find("top_logprobs") != std::string::npos);

        // The report's cover lists the servers and judges them as the summary does.
        const QString pdf = path(QStringLiteral("judged.pdf"));
        const auto report = cli({u"report"_qs, ledgerPath, u"-o"_qs, pdf});
        QVERIFY2(report.code == 0, report.err);
        QProcess pdftotext;
        pdftotext.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(pdftotext.waitForFinished(60000));
        const QString pages = QString::fromUtf8(pdftotext.readAllStandardOutput()).simplified();
        QVERIFY2(pages.contains(u"claims to serve") && pages.contains(u"too_little:") &&
                     pages.contains(u"differs:"),
                 qPrintable(pages));

        const auto text = cli({u"summary"_qs, ledgerPath, u"--variants"_qs});
        QVERIFY2(text.out.contains("Servers against the variant they claim to serve") &&
                     text.out.contains("| provider | served | q4_1 | ref |"),
                 text.out);
    }

    // SIGKILL of `probaudit run` while it records the server variant (behind a proxy that delays
    // every reply): the rerun resumes the same run, and no item is recorded twice or lost.
    void resumesTheServerVariantAfterKill9() {
        FaultProxy slow;
        QVERIFY(slow.start(m_server.port(), QStringLiteral(R"({"*": "delay:0.4"})")));
        ojson models = localVariants(m_copy);
        models["provider"] = server(slow.base());
        const QString study =
            writeStudy(QStringLiteral("killed"), models,
                       ojson{{"ref", ojson::object()}, {"served", {{"model", "provider"}}}});
        const QString ledgerPath = path(QStringLiteral("killed.ledger"));
        const QStringList args{u"run"_qs,    study,          u"--config"_qs,
                               u"served"_qs, u"--ledger"_qs, ledgerPath};
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI), args);
        QVERIFY(p.waitForStarted());
        QVERIFY(waitForItems(ledgerPath, 4) >= 4);
        p.kill(); // SIGKILL to this very pid
        p.waitForFinished();
        std::size_t before = 0;
        {
            const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
            before = led.recordedItems(led.runs().front().id).size();
            QVERIFY(before < 12);
        }
        const auto r = cli(args + QStringList{u"--events"_qs, u"jsonl"_qs});
        QVERIFY2(r.code == 0, r.err);
        QVERIFY2(r.out.contains(QStringLiteral("\"resumed_items\":%1").arg(before).toUtf8()),
                 r.out);
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        QCOMPARE(led.runs().size(), std::size_t(1)); // the same run, resumed
        const auto id = led.runs().front().id;
        QCOMPARE(led.runs().front().status, ledger::RunStatus::Finished);
        const auto items = led.recordedItems(id);
        QCOMPARE(items.size(), std::size_t(12));
        QCOMPARE(std::set<std::int64_t>(items.begin(), items.end()).size(), std::size_t(12));
        QCOMPARE(led.requests(id).size(), std::size_t(12));
        QVERIFY(led.verify().ok);
    }
};

QTEST_GUILESS_MAIN(TestServerVariant)
#include "test_server_variant.moc"
