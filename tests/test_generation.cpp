// Greedy generation with a KV cache: token for token as transformers' generate(do_sample=False)
// one prompt at a time (tests/golden/make_generation_golden.py), the same run twice gives the
// same bits, EOS / stop strings / length end it, and every step's logit and top-2 gap are
// consistent.
#include "common/error.h"
#include "common/run_config.h"
#include "engine/engine.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>

using namespace probaudit;
using engine::Engine;
using engine::GenerateOptions;
using engine::Generation;

namespace {

const std::string kSrc = PROBAUDIT_SOURCE_DIR;

QJsonObject golden(const QString& name) {
    QFile f(QString::fromStdString(kSrc + "/tests/golden/generation.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("no generation.json");
    }
    return QJsonDocument::fromJson(f.readAll()).object()[name].toObject();
}

std::string modelPath(const QString& name) {
    if (name == QStringLiteral("SmolLM2-135M-Instruct")) {
        return kSrc + "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf";
    }
    return kSrc + "/tests/fixtures/" + name.toStdString();
}

// A label-token head is what the engine is built with; generation does not use it.
engine::HeadSpec anyHead(const QString& name) {
    return engine::HeadSpec::parse(
        name.startsWith(QStringLiteral("tiny"))
            ? R"({"kind":"label_tokens","template":"{text}","labels":[" a"," b"]})"
            : R"({"kind":"label_tokens","template":"{text}","labels":["No","Yes"]})");
}

void matchTransformers(const QString& name) {
    const QJsonObject g = golden(name);
    std::vector<std::string> prompts;
    for (const auto& p : g[u"prompts"].toArray()) {
        prompts.push_back(p.toString().toStdString());
    }
    Engine eng(modelPath(name), anyHead(name));
    GenerateOptions opt;
    opt.max_new_tokens = g[u"max_new_tokens"].toInt();
    const auto out = eng.generate(prompts, RunConfig::fromJson({{"batch_size", 1}}), opt);
    QCOMPARE(out.size(), prompts.size());
    int tokens = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const QJsonArray want = g[u"tokens"].toArray()[qsizetype(i)].toArray();
        std::vector<int> got;
        for (const auto& s : out[i].steps) {
            got.push_back(s.token);
        }
        std::vector<int> ref;
        for (const auto& t : want) {
            ref.push_back(t.toInt());
        }
        QVERIFY2(got == ref,
                 qPrintable(
                     QStringLiteral("%1 prompt %2: %3 tokens, first difference at %4")
                         .arg(name)
                         .arg(i)
                         .arg(got.size())
                         .arg(std::mismatch(got.begin(), got.end(), ref.begin(), ref.end()).first -
                              got.begin())));
        tokens += int(got.size());
    }
    qInfo("%s: %zu prompts, %d generated tokens, all as transformers", qPrintable(name),
          prompts.size(), tokens);
}

} // namespace

class TestGeneration : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixturesMatchTransformers_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("tiny-llama") << QStringLiteral("tiny-llama");
        QTest::newRow("tiny-qwen3") << QStringLiteral("tiny-qwen3");
    }
    void fixturesMatchTransformers() {
        QFETCH(QString, name);
        matchTransformers(name);
    }

    void realMatchesTransformers() { matchTransformers(QStringLiteral("SmolLM2-135M-Instruct")); }

    // The same prompts, same config, twice (a fresh engine the second time): the same bits.
    void sameRunTwiceIsBitIdentical() {
        const std::vector<std::string> prompts{
            "Review: fine food Verdict:", "Review: a Verdict:",
            "Review: slow and rude service, never again Verdict:"};
        GenerateOptions opt;
        opt.max_new_tokens = 10;
        opt.stop_at_eos = false;
        const auto cfg = RunConfig::fromJson({{"batch_size", 2}});
        const auto a =
            Engine(modelPath(QStringLiteral("tiny-qwen3")), anyHead(QStringLiteral("tiny")))
                .generate(prompts, cfg, opt);
        const auto b =
            Engine(modelPath(QStringLiteral("tiny-qwen3")), anyHead(QStringLiteral("tiny")))
                .generate(prompts, cfg, opt);
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].text, b[i].text);
            QCOMPARE(a[i].steps.size(), b[i].steps.size());
            QVERIFY(std::memcmp(a[i].steps.data(), b[i].steps.data(),
                                a[i].steps.size() * sizeof(engine::GenStep)) == 0);
            QCOMPARE(a[i].finish, std::string("length"));
            for (const auto& s : a[i].steps) {
                QVERIFY(s.gap >= 0);
            }
        }
    }

    // EOS, stop strings and the length limit end a generation, each with its reason.
    void finishReasons() {
        Engine eng(modelPath(QStringLiteral("tiny-qwen3")), anyHead(QStringLiteral("tiny")));
        GenerateOptions opt;
        opt.max_new_tokens = 6;
        opt.stop_at_eos = false;
        const std::vector<std::string> prompts{"Review: fine food Verdict:"};
        const auto cfg = RunConfig::fromJson({{"batch_size", 1}});
        const auto free = eng.generate(prompts, cfg, opt);
        QCOMPARE(free[0].finish, std::string("length"));
        QCOMPARE(free[0].steps.size(), std::size_t(6));
        // A stop string taken from the free run's text: generation ends there, the text is cut.
        QVERIFY(free[0].text.size() >= 2);
        const std::string tail = free[0].text.substr(free[0].text.size() / 2);
        opt.stop = {tail};
        const auto stopped = eng.generate(prompts, cfg, opt);
        QCOMPARE(stopped[0].finish, std::string("stop"));
        QVERIFY(stopped[0].text.find(tail) == std::string::npos);
        QVERIFY(stopped[0].steps.size() <= free[0].steps.size());
        QVERIFY_THROWS_EXCEPTION(Error, eng.generate(prompts, cfg, GenerateOptions{0, {}, true}));
    }
};

QTEST_GUILESS_MAIN(TestGeneration)
#include "test_generation.moc"
