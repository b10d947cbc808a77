// config.json -> ModelSpec: the fixtures' hyper-parameters, both rope spellings, and refusal
// of what the engine cannot compute faithfully.
#include "core/common/error.h"
#include "core/model/checkpoint.h"
#include "core/model/model_spec.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace probaudit::model;

namespace {
const std::string kLlamaBase =
    R"("model_type":"llama","vocab_size":100,"hidden_size":64,"intermediate_size":128,)"
    R"("num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,)"
    R"("max_position_embeddings":128)";
ModelSpec parse(const std::string& extra) {
    return parseHfConfig("{" + kLlamaBase + extra + "}", "config.json");
}
} // namespace

class TestHfConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixtures() {
        const ModelSpec llama =
            loadHfConfig(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-llama/config.json");
        QCOMPARE(llama.family, Family::Llama);
        QCOMPARE(llama.num_kv_heads, std::int64_t(2));
        QCOMPARE(llama.head_dim, std::int64_t(16));
        QCOMPARE(llama.rope.type, std::string("llama3"));
        QCOMPARE(llama.rope.factor, 8.0);
        QCOMPARE(llama.rope.original_max_positions, std::int64_t(64));
        QVERIFY(!llama.tie_word_embeddings);
        QVERIFY(!llama.qk_norm);

        const ModelSpec qwen =
            loadHfConfig(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-qwen3/config.json");
        QVERIFY(qwen.qk_norm);
        QVERIFY(qwen.tie_word_embeddings);
        QCOMPARE(qwen.head_dim, std::int64_t(32)); // explicit, not hidden/heads = 16
        QCOMPARE(qwen.rope_theta, 1000000.0);
        QCOMPARE(qwen.norm_eps, 1e-6);

        const ModelSpec bert =
            loadHfConfig(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert/config.json");
        QCOMPARE(bert.family, Family::Bert);
        QCOMPARE(bert.type_vocab_size, std::int64_t(2));
        QCOMPARE(bert.activation, std::string("gelu"));
        QCOMPARE(bert.norm_eps, 1e-12);
        QVERIFY(bert.ignored_fields.empty());
    }

    void transformers4RopeSpelling() {
        const ModelSpec s =
            parse(R"(,"rope_theta":500000.0,"rope_scaling":{"type":"linear","factor":2.0})");
        QCOMPARE(s.rope_theta, 500000.0);
        QCOMPARE(s.rope.type, std::string("linear"));
        QCOMPARE(s.rope.factor, 2.0);
        QCOMPARE(parse(R"(,"rope_scaling":null)").rope.type, std::string("default"));
    }

    void qwen2HasQkvBiasOnly() {
        const ModelSpec s = parseHfConfig("{" + kLlamaBase.substr(kLlamaBase.find(',') + 1) +
                                              R"(,"model_type":"qwen2"})",
                                          "config.json");
        QVERIFY(s.attention_bias);
        QVERIFY(!s.attention_out_bias);
    }

    void mistralKeepsItsSlidingWindow() {
        const ModelSpec s = parseHfConfig("{" + kLlamaBase.substr(kLlamaBase.find(',') + 1) +
                                              R"(,"model_type":"mistral","sliding_window":4096})",
                                          "config.json");
        QCOMPARE(s.family, Family::Llama);
        QCOMPARE(s.sliding_window, std::int64_t(4096));
    }

    void unknownFieldsAreListed() {
        const ModelSpec s = parse(R"(,"some_new_knob":3)");
        QCOMPARE(s.ignored_fields, std::vector<std::string>{"some_new_knob"});
    }

    void refuses_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("problem");
        const QString base = QString::fromStdString(kLlamaBase);
        QTest::newRow("unknown model type")
            << QStringLiteral(R"({"model_type":"gpt_neox","vocab_size":1})")
            << "unknown model type \"gpt_neox\"";
        QTest::newRow("yarn rope")
            << QStringLiteral("{") + base + R"(,"rope_scaling":{"rope_type":"yarn","factor":4.0}})"
            << "\"yarn\" is not supported";
        QTest::newRow("llama3 rope without its fields")
            << QStringLiteral("{") + base +
                   R"(,"rope_parameters":{"rope_type":"llama3","factor":8.0}})"
            << "llama3 rope scaling needs";
        QTest::newRow("softcapping")
            << QStringLiteral("{") + base + R"(,"final_logit_softcapping":30.0})"
            << "final_logit_softcapping";
        QTest::newRow("sliding window on qwen2")
            << QStringLiteral("{") + base.mid(base.indexOf(u',') + 1) +
                   R"(,"model_type":"qwen2","use_sliding_window":true})"
            << "use_sliding_window";
        QTest::newRow("unknown activation")
            << QStringLiteral("{") + base + R"(,"hidden_act":"swish2"})"
            << "activation";
        QTest::newRow("heads not a multiple of kv heads")
            << QStringLiteral("{") + base + R"(,"num_key_value_heads":3})"
            << "multiple";
        QTest::newRow("missing hidden size")
            << QStringLiteral(R"({"model_type":"bert","vocab_size":10})") << "\"hidden_size\"";
        QTest::newRow("wrong type deep inside")
            << QStringLiteral("{") + base + R"(,"rope_parameters":{"rope_type":7}})"
            << "malformed config";
        QTest::newRow("not JSON") << QStringLiteral("{model_type: llama") << "invalid JSON";
        QTest::newRow("relative position embeddings")
            << QStringLiteral(
                   R"({"model_type":"bert","vocab_size":10,"hidden_size":8,"intermediate_size":8,)"
                   R"("num_hidden_layers":1,"num_attention_heads":2,"max_position_embeddings":8,)"
                   R"("position_embedding_type":"relative_key"})")
            << "position_embedding_type";
    }
    // Every id the tokenizer or the config can feed the model must index its embedding table:
    // a fixture folder with its config's vocab_size, pad or eos id changed is refused when its
    // tokenizer is loaded, naming the id.
    void idsMustFitTheEmbeddings_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("problem");
        QTest::newRow("vocab_size below the tokenizer's")
            << "vocab_size" << 100 << "tokenizer id 511 is outside the model's 100";
        QTest::newRow("pad_token_id beyond") << "pad_token_id" << 512 << "pad_token_id 512";
        QTest::newRow("eos_token_id beyond") << "eos_token_id" << 70000 << "eos_token_id 70000";
        QTest::newRow("eos_token_id negative") << "eos_token_id" << -3 << "eos_token_id -3";
    }
    void idsMustFitTheEmbeddings() {
        QFETCH(QString, key);
        QFETCH(int, value);
        QFETCH(QString, problem);
        const QDir fixture(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-llama"));
        QTemporaryDir dir;
        for (const QString& f : fixture.entryList(QDir::Files)) {
            QVERIFY(QFile::copy(fixture.filePath(f), dir.filePath(f)));
        }
        QVERIFY(QFile::remove(dir.filePath("generation_config.json")));
        QFile cfg(dir.filePath("config.json"));
        QVERIFY(cfg.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(cfg.readAll()).object();
        cfg.close();
        probaudit::model::Checkpoint::open(dir.path().toStdString()).loadTokenizer(); // as is: fine
        o[key] = value;
        QVERIFY(cfg.open(QIODevice::WriteOnly | QIODevice::Truncate));
        cfg.write(QJsonDocument(o).toJson());
        cfg.close();
        try {
            probaudit::model::Checkpoint::open(dir.path().toStdString()).loadTokenizer();
            QFAIL("accepted");
        } catch (const probaudit::Error& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(problem), e.what());
        }
    }

    void refuses() {
        QFETCH(QString, json);
        QFETCH(QString, problem);
        try {
            parseHfConfig(json.toStdString(), "/m/config.json");
            QFAIL("accepted");
        } catch (const probaudit::Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QStringLiteral("/m/config.json: ")), qPrintable(msg));
            QVERIFY2(msg.contains(problem), qPrintable(msg));
        }
    }
};

QTEST_GUILESS_MAIN(TestHfConfig)
#include "test_hf_config.moc"
