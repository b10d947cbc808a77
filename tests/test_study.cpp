// Study files and datasets: every problem reported up front with its JSON path or line number.
#include "core/common/error.h"
#include "core/study/dataset.h"
#include "core/study/study.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace probaudit;

namespace {

QString write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(path));
    }
    f.write(bytes);
    return path;
}

const char* const kGoodStudy =
    "{\n"
    "  // comments are allowed\n"
    "  \"name\": \"t\",\n"
    "  \"model\": {\"path\": \"" PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert\"},\n"
    "  \"heads\": {\"a\": {\"kind\": \"adapter\", \"path\": \"" PROBAUDIT_SOURCE_DIR
    "/tests/fixtures/adapters/tiny-bert-mean.safetensors\"},\n"
    "            \"b\": {\"kind\": \"classifier\"}},\n"
    "  \"dataset\": {\"path\": \"data.jsonl\", \"limit\": 3, \"seed\": 7},\n"
    "  \"capture\": \"vectors\",\n"
    "  \"configs\": {\"ref\": {}, \"bs8\": {\"batch_size\": 8, \"padding_side\": \"left\"}},\n"
    "  \"reference\": \"ref\"\n"
    "}\n";

std::string message(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsAValidStudy() {
        QTemporaryDir dir;
        write(dir.filePath("data.jsonl"),
              "{\"text\":\"a\"}\n{\"text\":\"b\"}\n{\"text\":\"c\"}\n{\"text\":\"d\"}\n");
        const auto s =
            study::Study::load(write(dir.filePath("s.study.json"), kGoodStudy).toStdString());
        QCOMPARE(s.name, std::string("t"));
        QCOMPARE(s.model_format, std::string("hf"));
        QCOMPARE(s.heads.size(), std::size_t(2));
        QCOMPARE(s.heads[0].name, std::string("a")); // file order, names from the keys
        QVERIFY(s.heads[1].kind == HeadKind::Classifier);
        QCOMPARE(s.dataset.paths,
                 std::vector<std::string>{
                     dir.filePath("data.jsonl").toStdString()}); // relative to the study
        QCOMPARE(s.configs.size(), std::size_t(2));
        QCOMPARE(s.configs[1].name, std::string("bs8"));
        QCOMPARE(s.configs[1].config.batch_size, std::int64_t(8));
        QCOMPARE(s.configs[1].config.padding_side, PaddingSide::Left);
        QCOMPARE(s.reference, std::string("ref"));
        QCOMPARE(s.capture, std::string("vectors"));
    }

    void reportsEveryProblemWithItsPath_data() {
        QTest::addColumn<QByteArray>("study");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("many at once")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\"nope\"},"
                          "\"heads\":{\"h\":{\"kind\":\"adapter\"}, \"g\":{\"kind\":\"magic\"}},"
                          "\"dataset\":{\"path\":\"missing.jsonl\",\"limit\":0},"
                          "\"capture\":\"everything\","
                          "\"configs\":{\"a\":{\"dtype\":\"float8\",\"batch_size\":0},\"b\":{"
                          "\"colour\":1}},"
                          "\"reference\":\"c\",\"extra\":1}")
            << QStringList{"$.model.path: no such file or folder",
                           "$.heads.h.path: missing",
                           "$.heads.g.kind: unknown value \"magic\"",
                           "$.dataset.path: no such file or folder",
                           "$.dataset.limit: must be an integer >= 1",
                           "$.capture: must be one of",
                           "$.configs.a.dtype: unknown value \"float8\"",
                           "$.configs.a.batch_size: must be an integer from 1 to 65536",
                           "$.configs.b.colour: unknown",
                           "$.reference: \"c\" is not one of the configs",
                           "$.extra: unknown field"};
        QTest::newRow("missing sections")
            << QByteArray("{\"name\":\"x\"}")
            << QStringList{"$.model: missing", "$.heads: missing", "$.dataset: missing",
                           "$.configs: missing", "$.reference: missing"};
        QTest::newRow("same config twice")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                          "\"classifier\"}},"
                          "\"dataset\":{\"path\":\".\"},\"configs\":{\"a\":{\"batch_size\":2},"
                          "\"b\":{\"batch_size\":2}},"
                          "\"reference\":\"a\"}")
            << QStringList{"$.configs.b: the same configuration as \"a\""};
        // Integers a run would narrow or try to honour literally (a thousand-million threads, a
        // seed that wraps when read as a signed number) are refused with their range.
        QTest::newRow("integers out of range")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                          "\"classifier\"}},\"dataset\":{\"path\":\".\"},\"configs\":{"
                          "\"a\":{\"threads\":1000000000},\"b\":{\"order_seed\":"
                          "18446744073709551615},\"c\":{\"pad_to\":\"fixed\",\"pad_to_n\":"
                          "4294967297},\"d\":{\"batch_size\":2.5}},\"reference\":\"a\"}")
            << QStringList{"$.configs.a.threads: must be an integer from 1 to 1024",
                           "$.configs.b.order_seed: must be an integer from 0 up",
                           "$.configs.c.pad_to_n: must be an integer from 0 to 1048576",
                           "$.configs.d.batch_size: must be an integer from 1 to 65536"};
        // A run's recorded head carries the adapter's digest; a study never declares one.
        QTest::newRow("a declared adapter digest")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                          "\"classifier\",\"sha256\":\"00\"}},\"dataset\":{\"path\":\".\"},"
                          "\"configs\":{\"a\":{}},\"reference\":\"a\"}")
            << QStringList{"$.heads.c.sha256: unknown field"};
        QTest::newRow("malformed JSON") << QByteArray("{\"name\": ") << QStringList{"invalid JSON"};
        QTest::newRow("generation head")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"g\":{\"kind\":"
                          "\"generation\",\"template\":\"no placeholder\",\"max_new_tokens\":0,"
                          "\"stop\":[\"\"],\"records\":{\"mode\":\"xml\"},\"labels\":[\"a\"]}},"
                          "\"dataset\":{\"path\":\".\"},\"configs\":{\"a\":{},"
                          "\"b\":{\"concurrency\":4,\"batch_size\":2},"
                          "\"c\":{\"padding_side\":\"left\"}},\"reference\":\"a\"}")
            << QStringList{"$.heads.g.template: has no {text}",
                           "$.heads.g.max_new_tokens: must be an integer in [1, 4096]",
                           "$.heads.g.stop: must be an array of non-empty strings",
                           "$.heads.g.records.mode: \"xml\" is not lines, json or regex",
                           "$.heads.g: a generation head has no labels",
                           "$.configs.b: batch_size and concurrency cannot both be above 1",
                           "$.configs.c: a generation pads on the left"};
        QTest::newRow("generation and decision heads")
            << QByteArray(
                   "{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"g\":{\"kind\":"
                   "\"generation\",\"template\":\"{text}\"},\"c\":{\"kind\":\"classifier\"}},"
                   "\"dataset\":{\"path\":\".\"},\"configs\":{\"a\":{}},\"reference\":\"a\"}")
            << QStringList{"$.heads: generation heads and decision heads cannot share a study"};
        QTest::newRow("serving axes in a decision study")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                          "\"classifier\",\"stop\":[\"x\"]}},\"dataset\":{\"path\":\".\"},"
                          "\"configs\":{\"a\":{},\"b\":{\"concurrency\":2}},\"reference\":\"a\"}")
            << QStringList{"$.heads.c.stop: only a generation head has it",
                           "$.configs.b: concurrency and arrival_seed apply to generation heads"};
        QTest::newRow("gemm onednn where it cannot run")
            << QByteArray(
                   "{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                   "\"classifier\"}},\"dataset\":{\"path\":\".\"},\"environments\":{\"py\":{"
                   "\"python\":\"/usr/bin/python3\"}},\"configs\":{\"a\":{\"runner\":\"engine\"},"
                   "\"b\":{\"gemm\":\"onednn\",\"device\":\"cuda:0\",\"runner\":\"engine\"},"
                   "\"c\":{\"gemm\":\"onednn\",\"kernels\":\"batch_invariant\",\"runner\":"
                   "\"engine\"},\"d\":{\"gemm\":\"onednn\",\"runner\":\"transformers\"},\"e\":{"
                   "\"gemm\":\"mkl\"}},"
                   "\"reference\":\"a\"}")
            << QStringList{"$.configs.b.gemm: onednn is a CPU path of the default kernels",
                           "$.configs.c.gemm: onednn is a CPU path of the default kernels",
                           "$.configs.d.gemm: onednn is the engine's; the transformers runner's",
                           "$.configs.e.gemm: unknown value \"mkl\" (one of: aten, onednn)"};
        QTest::newRow("the vocabulary where it cannot be recorded")
            << QByteArray("{\"name\":\"x\",\"model\":{\"path\":\".\"},\"heads\":{\"c\":{\"kind\":"
                          "\"classifier\",\"vocabulary\":true},\"y\":{\"kind\":\"label_tokens\","
                          "\"labels\":[\"No\",\"Yes\"],\"vocabulary\":\"all\"},\"v\":{\"kind\":"
                          "\"label_tokens\",\"labels\":[\"No\",\"Yes\"],\"vocabulary\":true}},"
                          "\"dataset\":{\"path\":\".\"},\"environments\":{\"py\":{\"python\":"
                          "\"/usr/bin/python3\"}},\"configs\":{\"a\":{\"runner\":\"engine\"},"
                          "\"t\":{\"runner\":\"transformers\"}},\"reference\":\"a\"}")
            << QStringList{"$.heads.c.vocabulary: only a label_tokens head has it",
                           "$.heads.y.vocabulary: must be true or false",
                           "$.configs.t: head \"v\" records the whole vocabulary's "
                           "log-probabilities, which the engine does"};
    }
    void endpointStudyProblems_data() {
        QTest::addColumn<QByteArray>("study");
        QTest::addColumn<QStringList>("expected");
        const auto study = [](const char* model, const char* heads, const char* configs,
                              const char* extra = "") {
            return QByteArray("{\"name\":\"x\",\"model\":") + model + ",\"heads\":" + heads +
                   ",\"dataset\":{\"path\":\".\"},\"configs\":" + configs + ",\"reference\":\"a\"" +
                   extra + "}";
        };
        const char* const server = "{\"endpoint\":\"http://127.0.0.1:8000/v1\",\"name\":\"m\"}";
        const char* const yesNo = "{\"y\":{\"kind\":\"label_tokens\",\"labels\":[\"No\",\"Yes\"]}}";
        QTest::newRow("the server's own settings are labels, not axes")
            << study(server, yesNo,
                     "{\"a\":{},\"b\":{\"dtype\":\"bfloat16\",\"batch_size\":8},"
                     "\"c\":{\"concurrency\":2000},\"d\":{\"concurrency\":0}}")
            << QStringList{"$.configs.b.dtype: a setting of the server",
                           "$.configs.b.batch_size: a setting of the server",
                           "$.configs.c.concurrency: at most 1024 requests in flight",
                           "$.configs.d.concurrency: must be an integer from 1 to 4096"};
        QTest::newRow("at most 1024 requests in flight")
            << study(server, yesNo, "{\"a\":{},\"b\":{\"concurrency\":1025}}")
            << QStringList{"$.configs.b.concurrency: at most 1024 requests in flight"};
        QTest::newRow("a server gives no whole vocabulary")
            << study(server,
                     "{\"y\":{\"kind\":\"label_tokens\",\"labels\":[\"No\",\"Yes\"],"
                     "\"vocabulary\":true}}",
                     "{\"a\":{}}")
            << QStringList{"$.heads.y.vocabulary: a server returns at most its top_logprobs"};
        QTest::newRow("a server gives tokens, not hidden states")
            << study(server, "{\"c\":{\"kind\":\"classifier\"}}", "{\"a\":{}}",
                     ",\"capture\":\"hashes\"")
            << QStringList{"$.heads.c: an endpoint study's heads are label_tokens or generation",
                           "$.capture: an endpoint study captures none"};
        QTest::newRow("temperature, credentials, api")
            << study("{\"endpoint\":\"http://user:pw@host/v1\",\"name\":\"m\",\"api\":\"x\","
                     "\"temperature\":0.7,\"api_key_env\":\"sk-123\",\"path\":\"m.gguf\"}",
                     yesNo, "{\"a\":{}}")
            << QStringList{"$.model.endpoint: must not carry credentials",
                           "$.model.api: must be \"completions\" or \"chat\"",
                           "$.model.temperature: must be 0",
                           "$.model.api_key_env: must name an environment variable",
                           "$.model.path: unknown field"};
        QTest::newRow("endpoint axes in an engine study")
            << study("{\"path\":\".\"}", "{\"c\":{\"kind\":\"classifier\"}}",
                     "{\"a\":{},\"b\":{\"prefix_cache\":\"warm\",\"seed\":3}}")
            << QStringList{"$.configs.b.prefix_cache: applies to a server's configs only",
                           "$.configs.b.seed: applies to a server's configs only"};
    }
    void endpointStudyProblems() { reportsEveryProblemWithItsPath(); }

    // An endpoint study: the server, its declared settings, the request axes; stored with every
    // field written out and no key.
    void loadsAnEndpointStudy() {
        QTemporaryDir dir;
        write(dir.filePath("data.jsonl"), "{\"text\":\"a\"}\n");
        const QByteArray text =
            "{\"name\":\"e\",\"model\":{\"endpoint\":\"http://127.0.0.1:8000/v1/\","
            "\"name\":\"smollm2\",\"api\":\"chat\",\"api_key_env\":\"MY_KEY\","
            "\"labels\":{\"server\":\"vllm --enable-prefix-caching\"}},"
            "\"heads\":{\"y\":{\"kind\":\"label_tokens\",\"labels\":[\"No\",\"Yes\"]}},"
            "\"dataset\":{\"path\":\"data.jsonl\"},"
            "\"configs\":{\"a\":{},\"b\":{\"concurrency\":4,\"arrival_seed\":2,"
            "\"prefix_cache\":\"warm\",\"seed\":5,\"repeat\":1}},\"reference\":\"a\"}";
        const auto s = study::Study::load(write(dir.filePath("e.study.json"), text).toStdString());
        QVERIFY(s.isEndpoint());
        QCOMPARE(s.endpoint.url, std::string("http://127.0.0.1:8000/v1")); // no trailing slash
        QCOMPARE(s.endpoint.api, std::string("chat"));
        QCOMPARE(s.capture, std::string("none"));
        const RunConfig& b = s.configs[1].config;
        QCOMPARE(b.concurrency, std::int64_t(4));
        QCOMPARE(b.prefix_cache, PrefixCache::Warm);
        QCOMPARE(b.seed, std::int64_t(5));
        QCOMPARE(b.repeat, std::int64_t(1));
        // The request axes are part of the config's identity; at their defaults they are left
        // out, so the hashes of engine configs recorded before they existed do not change.
        QVERIFY(b.hash() != s.configs[0].config.hash());
        QCOMPARE(s.configs[0].config.canonical(), RunConfig().canonical());
        QVERIFY(RunConfig().canonical().find("prefix_cache") == std::string::npos);
        const auto j = s.resolvedJson();
        QCOMPARE(j["model"]["format"].get<std::string>(), std::string("endpoint"));
        QCOMPARE(j["model"]["api_key_env"].get<std::string>(), std::string("MY_KEY"));
        QCOMPARE(j["model"]["labels"]["server"].get<std::string>(),
                 std::string("vllm --enable-prefix-caching"));
    }

    void reportsEveryProblemWithItsPath() {
        QFETCH(QByteArray, study);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        const QString path = write(dir.filePath("bad.study.json"), study);
        const QString msg =
            QString::fromStdString(message([&] { study::Study::load(path.toStdString()); }));
        QVERIFY2(msg.startsWith(path), qPrintable(msg)); // names the file
        for (const QString& e : expected) {
            QVERIFY2(msg.contains(e), qPrintable("missing \"" + e + "\" in:\n" + msg));
        }
        if (expected.size() > 1) {
            QVERIFY(msg.contains(QString::number(expected.size()) + " problems") ||
                    msg.count(QStringLiteral("\n  ")) >= expected.size());
        }
    }

    // A generation head's fields survive the ledger's JSON form (toJson, then fromJson).
    void generationHeadRoundTrip() {
        const HeadSpec h = HeadSpec::fromJson(
            nlohmann::json::parse(R"J({"kind": "generation", "name": "w", "template": "Q: {text}\n",
                "max_new_tokens": 7, "stop": ["\n\n", "END"], "stop_at_eos": false,
                "records": {"mode": "regex", "pattern": "(?<w>[a-z]+)", "lowercase": true,
                            "strip_bullets": false, "reduction": "count"}})J"),
            "head");
        QVERIFY(h.generation());
        QCOMPARE(h.prompt("hi"), std::string("Q: hi\n"));
        const HeadSpec back = HeadSpec::fromJson(h.toJson(), "again");
        QVERIFY(back.toJson() == h.toJson());
        QCOMPARE(back.max_new_tokens, std::int64_t(7));
        QCOMPARE(back.stop, (std::vector<std::string>{"\n\n", "END"}));
        QCOMPARE(back.stop_at_eos, false);
        QCOMPARE(back.records.mode, std::string("regex"));
        QCOMPARE(back.records.pattern, std::string("(?<w>[a-z]+)"));
        QCOMPARE(back.records.lowercase, true);
        QCOMPARE(back.records.strip_bullets, false);
        QCOMPARE(back.records.reduction, std::string("count"));
    }

    void datasetBadLinesNameTheirLine() {
        QTemporaryDir dir;
        QByteArray data = "{\"id\":\"a\",\"text\":\"fine\",\"label\":1}\n"
                          "{\"id\":\"b\"}\n"                             // 2: no text
                          "not json\n"                                   // 3
                          "{\"id\":\"c\",\"text\":\"bad \xff byte\"}\n"  // 4: invalid UTF-8
                          "{\"id\":\"a\",\"text\":\"again\"}\n"          // 5: duplicate id
                          "{\"id\":\"d\",\"text\":\"\"}\n"               // 6: empty text
                          "{\"id\":\"e\",\"text\":\"ok\",\"label\":7}\n" // 7: label out of range
                          "\n"
                          "{\"id\":\"f\",\"text\":\"also fine\",\"label\":\"pos\"}\n";
        study::DatasetSpec spec;
        spec.paths = {write(dir.filePath("d.jsonl"), data).toStdString()};
        spec.labels = {"neg", "pos"};
        const QString msg =
            QString::fromStdString(message([&] { study::loadDataset(spec, false); }));
        for (const char* e :
             {"line 2: missing field \"text\"", "line 3: invalid JSON",
              "line 4: not valid UTF-8 (byte 22)", "line 5: duplicate id \"a\" (first on line 1)",
              "line 6: empty text", "line 7: label 7 is not a class index", "6 bad lines"}) {
            QVERIFY2(msg.contains(QString::fromUtf8(e)),
                     qPrintable(QString::fromUtf8(e) + " not in:\n" + msg));
        }
        const auto d = study::loadDataset(spec, true);
        QCOMPARE(d.items.size(), std::size_t(2));
        QCOMPARE(d.items[1].id, std::string("f"));
        QCOMPARE(d.items[1].label.value(), 1); // "pos" -> class 1
        QCOMPARE(d.items[1].line, std::int64_t(9));
        QCOMPARE(d.warnings.size(), std::size_t(6));
    }

    // A line past 1 MiB is a bad line with its size (JSONL and CSV alike); a file past 1 GiB
    // is refused before a byte of it is read (a sparse file: no disk is used).
    void oversizedLinesAndFilesAreRefused() {
        QTemporaryDir dir;
        const QByteArray big(int(study::kMaxLineBytes) + 10, 'x');
        study::DatasetSpec spec;
        spec.paths = {write(dir.filePath("d.jsonl"),
                            "{\"text\":\"fine\"}\n{\"text\":\"" + big + "\"}\n{\"text\":\"ok\"}\n")
                          .toStdString()};
        const QString msg =
            QString::fromStdString(message([&] { study::loadDataset(spec, false); }));
        QVERIFY2(msg.contains("line 2: line of 1048597 bytes; a dataset line may have at most "
                              "1048576 (1 MiB)"),
                 qPrintable(msg.left(300)));
        QCOMPARE(study::loadDataset(spec, true).items.size(), std::size_t(2));
        spec.paths = {write(dir.filePath("d.csv"), "id,text\n1,ok\n2," + big + "\n").toStdString()};
        const QString csv =
            QString::fromStdString(message([&] { study::loadDataset(spec, false); }));
        QVERIFY2(csv.contains("line 3: record of 1048587 bytes"), qPrintable(csv.left(300)));
        QFile huge(dir.filePath("huge.jsonl"));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(qint64(study::kMaxFileBytes) + 1));
        huge.close();
        spec.paths = {huge.fileName().toStdString()};
        const QString file =
            QString::fromStdString(message([&] { study::loadDataset(spec, false); }));
        QVERIFY2(file.contains("huge.jsonl: the dataset file has 1073741825 bytes; a dataset file "
                               "may have at most 1073741824 (1 GiB)"),
                 qPrintable(file));
    }

    void csvWithQuotesAndHeader() {
        QTemporaryDir dir;
        study::DatasetSpec spec;
        spec.paths = {
            write(dir.filePath("d.csv"),
                  "id,sentence,y\n1,\"a, quoted \"\"text\"\"\",0\n2,\"two\nlines\",1\n3,plain,\n")
                .toStdString()};
        spec.text_field = "sentence";
        spec.label_field = "y";
        const auto d = study::loadDataset(spec, false);
        QCOMPARE(d.items.size(), std::size_t(3));
        QCOMPARE(d.items[0].text, std::string("a, quoted \"text\""));
        QCOMPARE(d.items[1].text, std::string("two\nlines"));
        QCOMPARE(d.items[1].label.value(), 1);
        QVERIFY(!d.items[2].label.has_value());
        spec.paths = {
            write(dir.filePath("e.csv"), "id,sentence\n1,ok\n2,\"unclosed\n").toStdString()};
        QVERIFY(QString::fromStdString(message([&] {
                    study::loadDataset(spec, false);
                })).contains("malformed CSV"));
        spec.paths = {write(dir.filePath("f.csv"), "id,text\n1,ok\n").toStdString()};
        QVERIFY(QString::fromStdString(message([&] {
                    study::loadDataset(spec, false);
                })).contains("the header has no column \"sentence\""));
    }

    void severalFilesReadInOrder() {
        QTemporaryDir dir;
        study::DatasetSpec spec;
        spec.paths = {
            write(dir.filePath("a.jsonl"),
                  "{\"id\":\"x\",\"text\":\"one\"}\n{\"id\":\"y\",\"text\":\"two\"}\n")
                .toStdString(),
            write(dir.filePath("b.jsonl"), "{\"id\":\"z\",\"text\":\"three\"}\n").toStdString()};
        const auto d = study::loadDataset(spec, false);
        QCOMPARE(d.items.size(), std::size_t(3));
        QCOMPARE(d.items[2].id, std::string("z"));
        QCOMPARE(d.items[2].file, std::size_t(1));
        QCOMPARE(d.items[2].line, std::int64_t(1));
        write(dir.filePath("b.jsonl"),
              "{\"id\":\"z\",\"text\":\"three\"}\n{\"id\":\"x\",\"text\":\"again\"}\n");
        const QString msg =
            QString::fromStdString(message([&] { study::loadDataset(spec, false); }));
        QVERIFY2(msg.contains(dir.filePath("b.jsonl") +
                              ": line 2: duplicate id \"x\" (first on line 1 of " +
                              dir.filePath("a.jsonl")),
                 qPrintable(msg));
        spec.paths.pop_back();
        QVERIFY(study::loadDataset(spec, false).sha256 != d.sha256); // the digest covers every file
    }

    // `model` label: the documented example points at the real demo model.
    void documentedExampleLoads() {
        const std::string path = PROBAUDIT_SOURCE_DIR "/docs/examples/sentiment-ab.study.json";
        const auto s = study::Study::load(path);
        QCOMPARE(s.heads.size(), std::size_t(2));
        QCOMPARE(s.configs.size(), std::size_t(5));
        QCOMPARE(s.config("generic-kernels")->config.cpu_capability, CpuCapability::Default);
        const auto d = study::loadDataset(s.dataset, false);
        QCOMPARE(d.items.size(), std::size_t(500));
        QVERIFY(d.items.front().id.rfind("amazon-", 0) == 0 &&
                d.items.back().id.rfind("yelp-", 0) == 0);
        // The documentation shows this very file.
        QFile doc(QStringLiteral(PROBAUDIT_SOURCE_DIR "/docs/study-file.md"));
        QFile example(QString::fromStdString(path));
        QVERIFY(doc.open(QIODevice::ReadOnly) && example.open(QIODevice::ReadOnly));
        QVERIFY(doc.readAll().contains(example.readAll()));
    }

    void probauditHomePaths() {
        // "${PROBAUDIT_HOME}/..." resolves against $PROBAUDIT_HOME, else $XDG_CACHE_HOME/probaudit,
        // else ~/.cache/probaudit; the installed demo studies depend on it.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("home/models/m")));
        write(dir.filePath("data.jsonl"), "{\"text\":\"a\"}\n");
        const QByteArray study = "{\"name\": \"h\", \"model\": {\"path\": "
                                 "\"${PROBAUDIT_HOME}/models/m\", \"format\": \"hf\"},\n"
                                 " \"heads\": {\"c\": {\"kind\": \"classifier\"}},\n"
                                 " \"dataset\": {\"path\": \"data.jsonl\"},\n"
                                 " \"configs\": {\"ref\": {}}, \"reference\": \"ref\"}\n";
        const std::string file = write(dir.filePath("s.study.json"), study).toStdString();
        const QByteArray saved = qgetenv("PROBAUDIT_HOME");
        qputenv("PROBAUDIT_HOME", dir.filePath("home").toLocal8Bit());
        QCOMPARE(study::Study::load(file).model_path, dir.filePath("home/models/m").toStdString());
        qunsetenv("PROBAUDIT_HOME");
        qputenv("XDG_CACHE_HOME", dir.path().toLocal8Bit());
        QCOMPARE(study::probauditHome(), dir.filePath("probaudit").toStdString());
        // Not there: the error names the resolved folder, not the placeholder.
        const std::string missing = message([&] { study::Study::load(file); });
        QVERIFY2(missing.find(dir.filePath("probaudit/models/m").toStdString()) !=
                     std::string::npos,
                 missing.c_str());
        qunsetenv("XDG_CACHE_HOME");
        QCOMPARE(study::probauditHome(),
                 qEnvironmentVariable("HOME").toStdString() + "/.cache/probaudit");
        if (!saved.isEmpty()) {
            qputenv("PROBAUDIT_HOME", saved);
        }
    }

    void seededSampleIsStableAndInFileOrder() {
        QTemporaryDir dir;
        QByteArray data;
        for (int i = 0; i < 100; ++i) {
            data += "{\"id\":\"i" + QByteArray::number(i) + "\",\"text\":\"t" +
                    QByteArray::number(i) + "\"}\n";
        }
        study::DatasetSpec spec;
        spec.paths = {write(dir.filePath("d.jsonl"), data).toStdString()};
        spec.limit = 10;
        const auto first = study::loadDataset(spec, false);
        QCOMPARE(first.items.front().id, std::string("i0"));
        QCOMPARE(first.items.back().id, std::string("i9"));
        spec.seed = 42;
        const auto a = study::loadDataset(spec, false);
        const auto b = study::loadDataset(spec, false);
        QCOMPARE(a.items.size(), std::size_t(10));
        std::vector<std::string> ida, idb;
        for (const auto& it : a.items)
            ida.push_back(it.id);
        for (const auto& it : b.items)
            idb.push_back(it.id);
        QCOMPARE(ida, idb);
        QVERIFY(ida != std::vector<std::string>(
                           {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"}));
        for (std::size_t i = 1; i < a.items.size(); ++i) {
            QVERIFY(a.items[i - 1].line < a.items[i].line);
        }
        spec.seed = 43;
        std::vector<std::string> idc;
        for (const auto& it : study::loadDataset(spec, false).items)
            idc.push_back(it.id);
        QVERIFY(idc != ida);
    }
};

QTEST_APPLESS_MAIN(TestStudy)
#include "test_study.moc"
