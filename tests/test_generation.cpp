// Greedy generation with a KV cache: token for token as transformers' generate(do_sample=False)
// one prompt at a time (tests/golden/make_generation_golden.py), the same run twice gives the
// same bits, EOS / stop strings / length end it, and every step's logit and top-2 gap are
// consistent.
#include "core/common/error.h"
#include "core/common/run_config.h"
#include "core/engine/engine.h"
#include "core/engine/transformer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

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

// Prompts of different lengths, so that static and continuous batches pad.
std::vector<std::string> servingPrompts() {
    const char* const texts[] = {
        "fine food",          "a",          "slow and rude service, never again",
        "the soup was cold",  "great",      "we waited an hour for a table and left",
        "lovely staff",       "meh",        "best pizza in town, crisp and hot",
        "the bill was wrong", "quiet room", "noisy, cramped and overpriced"};
    std::vector<std::string> out;
    for (const char* t : texts) {
        out.push_back(std::string("Review: ") + t + " Verdict:");
    }
    return out;
}

// Two steps with the same token, logit, gap, batch and top-K lists, bit for bit.
bool sameBits(const engine::GenStep& a, const engine::GenStep& b) {
    return a.token == b.token && std::memcmp(&a.logit, &b.logit, sizeof(float)) == 0 &&
           std::memcmp(&a.gap, &b.gap, sizeof(float)) == 0 && a.batch == b.batch &&
           a.top_tokens == b.top_tokens && a.top_logprobs.size() == b.top_logprobs.size() &&
           std::memcmp(a.top_logprobs.data(), b.top_logprobs.data(),
                       a.top_logprobs.size() * sizeof(float)) == 0;
}

// Two generations of the same prompts, token for token and bit for bit (QVERIFY inside).
void sameGenerations(const std::vector<Generation>& a, const std::vector<Generation>& b) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].text, b[i].text);
        QCOMPARE(a[i].steps.size(), b[i].steps.size());
        for (std::size_t k = 0; k < a[i].steps.size(); ++k) {
            QVERIFY2(sameBits(a[i].steps[k], b[i].steps[k]),
                     qPrintable(QStringLiteral("prompt %1, step %2").arg(i).arg(k)));
        }
    }
}

// The cache written in place against the cache grown by concatenation, with generate()
// (static batches of 3, left padded) and serve() (rows joining and leaving at concurrency 4).
void cacheInPlaceKeepsTheBits(Engine& eng, const nlohmann::json& config, int newTokens) {
    const auto prompts = servingPrompts();
    GenerateOptions inPlace;
    inPlace.max_new_tokens = newTokens;
    inPlace.stop_at_eos = false;
    inPlace.top_logprobs = 3;
    GenerateOptions concat = inPlace;
    concat.cache_in_place = false;
    auto staticCfg = config;
    staticCfg["batch_size"] = 3;
    const auto cfg = RunConfig::fromJson(staticCfg);
    sameGenerations(eng.generate(prompts, cfg, inPlace), eng.generate(prompts, cfg, concat));
    auto servingCfg = config;
    servingCfg["concurrency"] = 4;
    servingCfg["arrival_seed"] = 5;
    const auto srv = RunConfig::fromJson(servingCfg);
    sameGenerations(eng.serve(prompts, srv, inPlace), eng.serve(prompts, srv, concat));
}

RunConfig serving(std::int64_t concurrency, std::uint64_t seed) {
    return RunConfig::fromJson({{"concurrency", concurrency}, {"arrival_seed", seed}});
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

    // The KV cache written in place gives the bits of the cache grown by concatenation (what
    // every step did before, and what transformers' DynamicCache does), for each attention
    // path and the batch-invariant kernels, in float32 and bfloat16.
    void cacheInPlaceKeepsTheBits_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("config");
        for (const char* m : {"tiny-llama", "tiny-qwen3"}) {
            for (const char* c : {R"({})", R"({"attention":"sdpa"})",
                                  R"({"kernels":"batch_invariant"})", R"({"dtype":"bfloat16"})"}) {
                QTest::newRow(
                    qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(m), QLatin1String(c))))
                    << QString::fromLatin1(m) << QString::fromLatin1(c);
            }
        }
    }
    void cacheInPlaceKeepsTheBits() {
        QFETCH(QString, name);
        QFETCH(QString, config);
        Engine eng(modelPath(name), anyHead(name));
        ::cacheInPlaceKeepsTheBits(eng, nlohmann::json::parse(config.toStdString()), 12);
    }
    void realCacheInPlaceKeepsTheBits() {
        Engine eng(modelPath(QStringLiteral("SmolLM2-135M-Instruct")),
                   anyHead(QStringLiteral("SmolLM2-135M-Instruct")));
        ::cacheInPlaceKeepsTheBits(eng, nlohmann::json::object(), 6);
        ::cacheInPlaceKeepsTheBits(eng, nlohmann::json{{"attention", "sdpa"}}, 6);
    }

    // Appending writes into room kept after the cached positions: the views read what a
    // concatenation gives, a decode step allocates nothing until the room is used up, and
    // positions dropped by the caller (a new tensor in place of the view) start a new store.
    void kvCacheWritesInPlace() {
        const auto randn = [](std::int64_t t) { return at::randn({2, 3, t, 4}); };
        engine::KvCache inPlace, concat;
        inPlace.reserve = 4;
        concat.grow_in_place = false;
        at::Tensor refK, refV;
        for (int step = 0; step < 10; ++step) {
            const std::int64_t t = step == 0 ? 5 : 1; // a prefill of 5, then one at a time
            const at::Tensor k = randn(t), v = randn(t);
            at::Tensor k1 = k, v1 = v, k2 = k, v2 = v;
            inPlace.append(0, k1, v1, 2);
            concat.append(0, k2, v2, 2);
            QVERIFY(at::equal(k1, k2));
            QVERIFY(at::equal(v1, v2));
            QVERIFY(at::equal(inPlace.k[0], concat.k[0]));
            QVERIFY(at::equal(inPlace.v[0], concat.v[0]));
            if (step == 0) {
                QVERIFY(k1.is_same(k)); // the prefill reads its keys as computed
            } else if (step == 1) {
                refK = k1;
            } else if (step <= 4) {
                QCOMPARE(k1.data_ptr(), refK.data_ptr()); // the same store, widened
            }
        }
        QCOMPARE(inPlace.length(), std::int64_t(14));
        // One store each for k and v at the prefill (room for 4 more), one more each when the
        // tenth position came: 4 in all, against 2 a step by concatenation.
        QCOMPARE(inPlace.allocations, std::int64_t(4));
        QCOMPARE(concat.allocations, std::int64_t(18));
        inPlace.k[0] = inPlace.k[0].narrow(2, 1, 13).clone(); // as serve() compacts
        inPlace.v[0] = inPlace.v[0].narrow(2, 1, 13).clone();
        at::Tensor k = randn(1), v = randn(1);
        const at::Tensor want = at::cat({inPlace.k[0], k}, 2);
        inPlace.append(0, k, v, 2);
        QVERIFY(at::equal(k, want));
        QCOMPARE(inPlace.allocations, std::int64_t(6));
    }

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
        QCOMPARE(a.size(), prompts.size());
        QCOMPARE(b.size(), prompts.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].text, b[i].text);
            QCOMPARE(a[i].steps.size(), b[i].steps.size());
            for (std::size_t k = 0; k < a[i].steps.size(); ++k) {
                QVERIFY(sameBits(a[i].steps[k], b[i].steps[k]));
            }
            QCOMPARE(a[i].finish, std::string("length"));
            for (const auto& s : a[i].steps) {
                QVERIFY(s.gap >= 0);
            }
        }
    }

    // Concurrency 1 is the serial reference: every request alone, bit for bit what generate()
    // gives at batch size 1, whatever the arrival order; and the same again on a fresh engine.
    void servingSerialIsTheReference_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("tiny-llama") << QStringLiteral("tiny-llama");
        QTest::newRow("tiny-qwen3") << QStringLiteral("tiny-qwen3");
    }
    void servingSerialIsTheReference() {
        QFETCH(QString, name);
        const auto prompts = servingPrompts();
        GenerateOptions opt;
        opt.max_new_tokens = 8;
        Engine eng(modelPath(name), anyHead(name));
        const auto ref = eng.generate(prompts, RunConfig::fromJson({{"batch_size", 1}}), opt);
        engine::ServeStats st;
        const auto a = eng.serve(prompts, serving(1, 3), opt, &st);
        const auto b = Engine(modelPath(name), anyHead(name)).serve(prompts, serving(1, 5), opt);
        QCOMPARE(a.size(), prompts.size());
        QCOMPARE(b.size(), prompts.size());
        QCOMPARE(ref.size(), prompts.size());
        std::vector<std::int64_t> arrivals;
        for (std::size_t i = 0; i < a.size(); ++i) {
            for (const auto* other : {&ref[i], &b[i]}) {
                QCOMPARE(a[i].text, other->text);
                QCOMPARE(a[i].finish, other->finish);
                QCOMPARE(a[i].steps.size(), other->steps.size());
                for (std::size_t k = 0; k < a[i].steps.size(); ++k) {
                    QVERIFY(sameBits(a[i].steps[k], other->steps[k]));
                }
            }
            for (const auto& step : a[i].steps) {
                QCOMPARE(step.batch, 1);
            }
            arrivals.push_back(a[i].arrival);
        }
        // The seed orders the arrivals: a permutation, not the given order.
        std::vector<std::int64_t> sorted = arrivals;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            QCOMPARE(sorted[i], std::int64_t(i));
        }
        QVERIFY(!std::is_sorted(arrivals.begin(), arrivals.end()));
        QCOMPARE(st.prefills, std::int64_t(prompts.size()));
        QCOMPARE(st.max_resident, std::int64_t(1));
        QVERIFY(st.model_seconds > 0 && st.model_seconds < st.total_seconds);
    }

    // Concurrency 4: requests join a running batch when a slot frees and leave when done, so a
    // request shares its batch with others, padded. Outputs may fork from the serial reference
    // only where the reference was near a tie, and logits before a fork agree to float32
    // noise: a wrong cache merge, mask or position would move them far more.
    void servingContinuousBatching() {
        const auto prompts = servingPrompts();
        GenerateOptions opt;
        opt.max_new_tokens = 12;
        opt.stop = {"l", "w"}; // ends requests at different steps: slots free mid-flight
        opt.stop_at_eos = false;
        Engine eng(modelPath(QStringLiteral("tiny-llama")), anyHead(QStringLiteral("tiny")));
        const auto ref = eng.serve(prompts, serving(1, 0), opt);
        engine::ServeStats st;
        const auto out = eng.serve(prompts, serving(4, 0), opt, &st);
        std::set<std::size_t> lengths;
        for (const auto& g : ref) {
            lengths.insert(g.steps.size());
        }
        QVERIFY2(lengths.size() > 2, "the prompts must finish at different steps");
        QCOMPARE(st.max_resident, std::int64_t(4));
        QVERIFY(st.prefills > 3); // more than static groups of 4: requests joined mid-flight
        bool shared = false, changed = false;
        for (std::size_t i = 0; i < out.size(); ++i) {
            std::set<int> batches;
            for (const auto& s : out[i].steps) {
                QVERIFY(s.batch >= 1 && s.batch <= 4);
                batches.insert(s.batch);
            }
            shared = shared || *batches.rbegin() > 1;
            changed = changed || batches.size() > 1;
            const auto& r = ref[i].steps;
            const auto& o = out[i].steps;
            std::size_t k = 0;
            while (k < r.size() && k < o.size() && r[k].token == o[k].token) {
                QVERIFY2(std::abs(r[k].logit - o[k].logit) < 1e-4f,
                         qPrintable(QStringLiteral("item %1 step %2: logit %3 vs %4")
                                        .arg(i)
                                        .arg(k)
                                        .arg(r[k].logit)
                                        .arg(o[k].logit)));
                ++k;
            }
            if (k < r.size() && k < o.size()) {
                QVERIFY2(r[k].gap < 1e-4f, "a fork away from a near tie");
            }
        }
        QVERIFY(shared && changed); // the batch a request shares is a hidden, changing input
        // Another arrival order, another schedule; the same seed, the same bits.
        const auto again = eng.serve(prompts, serving(4, 0), opt);
        for (std::size_t i = 0; i < out.size(); ++i) {
            QCOMPARE(again[i].steps.size(), out[i].steps.size());
            for (std::size_t k = 0; k < out[i].steps.size(); ++k) {
                QVERIFY(sameBits(again[i].steps[k], out[i].steps[k]));
            }
        }
    }

    // Batch-invariant kernels make the batch a request shares irrelevant: concurrency 4 gives
    // the bits of concurrency 1 (tokens, logits, gaps), and so does a static batch of 5, in
    // float32 and bfloat16. The negative: the default kernels at concurrency 4 move logits in
    // float32.
    void servingInvariantKernels_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("dtype");
        for (const char* m : {"tiny-llama", "tiny-qwen3"}) {
            for (const char* d : {"float32", "bfloat16"}) {
                QTest::newRow(
                    qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(m), QLatin1String(d))))
                    << QString::fromLatin1(m) << QString::fromLatin1(d);
            }
        }
    }
    void servingInvariantKernels() {
        QFETCH(QString, name);
        QFETCH(QString, dtype);
        const auto prompts = servingPrompts();
        GenerateOptions opt;
        opt.max_new_tokens = 10;
        opt.stop = {"l", "w"};
        opt.stop_at_eos = false;
        Engine eng(modelPath(name), anyHead(name));
        const auto cfg = [&](std::int64_t concurrency, const char* kernels) {
            return RunConfig::fromJson({{"dtype", dtype.toStdString()},
                                        {"kernels", kernels},
                                        {"concurrency", concurrency},
                                        {"arrival_seed", 11}});
        };
        const auto ref = eng.serve(prompts, cfg(1, "batch_invariant"), opt);
        engine::ServeStats st;
        const auto four = eng.serve(prompts, cfg(4, "batch_invariant"), opt, &st);
        auto staticCfg = RunConfig::fromJson(
            {{"dtype", dtype.toStdString()}, {"kernels", "batch_invariant"}, {"batch_size", 5}});
        const auto batched = eng.generate(prompts, staticCfg, opt);
        QCOMPARE(ref.size(), prompts.size());
        QCOMPARE(four.size(), prompts.size());
        QCOMPARE(batched.size(), prompts.size());
        if (name == QStringLiteral("tiny-llama")) {
            // Its outputs end at different steps (tiny-qwen3 repeats one piece to the limit):
            // requests join mid-flight.
            QVERIFY(st.prefills > 3);
        }
        bool shared = false;
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            for (const auto* other : {&four[i], &batched[i]}) {
                QCOMPARE(other->text, ref[i].text);
                QCOMPARE(other->steps.size(), ref[i].steps.size());
                for (std::size_t k = 0; k < ref[i].steps.size(); ++k) {
                    const auto& a = ref[i].steps[k];
                    const auto& b = other->steps[k];
                    QCOMPARE(b.token, a.token);
                    QVERIFY(std::memcmp(&a.logit, &b.logit, sizeof(float)) == 0);
                    QVERIFY(std::memcmp(&a.gap, &b.gap, sizeof(float)) == 0);
                    shared = shared || b.batch > 1;
                }
            }
        }
        QVERIFY(shared);
        if (dtype != QStringLiteral("float32")) {
            return; // in bfloat16 these tiny models' default CPU kernels happen to keep the bits
        }
        // The default kernels at concurrency 4 do not give the serial bits.
        const auto plain1 = eng.serve(prompts, cfg(1, "default"), opt);
        const auto plain4 = eng.serve(prompts, cfg(4, "default"), opt);
        bool moved = false;
        for (std::size_t i = 0; i < prompts.size() && !moved; ++i) {
            const auto n = std::min(plain1[i].steps.size(), plain4[i].steps.size());
            for (std::size_t k = 0; k < n && !moved; ++k) {
                moved = plain1[i].steps[k].token != plain4[i].steps[k].token ||
                        std::memcmp(&plain1[i].steps[k].logit, &plain4[i].steps[k].logit,
                                    sizeof(float)) != 0;
            }
        }
        QVERIFY2(moved, "the default kernels were expected to depend on the batch");
    }

    // top_logprobs K: every step keeps the K most likely tokens, most likely first (the greedy
    // choice), with log-probabilities that are log-softmax values: descending, at most 0, their
    // probabilities summing to at most 1, the first two apart by the step's logit gap. Asking
    // for them changes nothing else, and without them the lists are empty.
    void topLogprobsPerStep() {
        const auto prompts = servingPrompts();
        GenerateOptions opt;
        opt.max_new_tokens = 6;
        opt.stop_at_eos = false;
        Engine eng(modelPath(QStringLiteral("tiny-llama")), anyHead(QStringLiteral("tiny")));
        const auto plain = eng.serve(prompts, serving(2, 3), opt);
        opt.top_logprobs = 5;
        const auto top = eng.serve(prompts, serving(2, 3), opt);
        QCOMPARE(top.size(), prompts.size());
        for (std::size_t i = 0; i < top.size(); ++i) {
            QCOMPARE(top[i].steps.size(), plain[i].steps.size());
            for (std::size_t k = 0; k < top[i].steps.size(); ++k) {
                const auto& st = top[i].steps[k];
                QVERIFY(plain[i].steps[k].top_tokens.empty());
                auto bare = st;
                bare.top_tokens.clear();
                bare.top_logprobs.clear();
                QVERIFY(sameBits(bare, plain[i].steps[k]));
                QCOMPARE(st.top_tokens.size(), std::size_t(5));
                QCOMPARE(st.top_logprobs.size(), std::size_t(5));
                QCOMPARE(st.top_tokens[0], st.token);
                double mass = 0;
                for (std::size_t j = 0; j < 5; ++j) {
                    QVERIFY(st.top_logprobs[j] <= 0);
                    QVERIFY(j == 0 || st.top_logprobs[j] <= st.top_logprobs[j - 1]);
                    mass += std::exp(double(st.top_logprobs[j]));
                }
                QVERIFY(mass <= 1 + 1e-5);
                QVERIFY(std::abs((st.top_logprobs[0] - st.top_logprobs[1]) - st.gap) < 1e-4f);
            }
        }
    }

    // Concurrency is a generation axis: a decision run refuses it; it joins the canonical
    // config only when set, so earlier ledgers keep their config hashes.
    void concurrencyIsAGenerationAxis() {
        const RunConfig plain;
        QVERIFY(plain.canonical().find("concurrency") == std::string::npos);
        const RunConfig four = serving(4, 9);
        QVERIFY(four.canonical().find("\"concurrency\":4") != std::string::npos);
        QVERIFY(four.hash() != plain.hash());
        QCOMPARE(four.differences(plain),
                 (std::vector<std::string>{"arrival_seed", "concurrency"}));
        std::vector<std::string> errors;
        RunConfig::fromJson(nlohmann::json{{"concurrency", 0}}, "$", errors);
        QCOMPARE(errors.size(), std::size_t(1));
        Engine eng(modelPath(QStringLiteral("tiny-llama")), anyHead(QStringLiteral("tiny")));
        QVERIFY_THROWS_EXCEPTION(
            Error, eng.run(std::vector<tokenizer::Encoding>{}, four, engine::Capture::None));
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
