// The engine end to end: decision probabilities against the reference, the same config twice
// giving the same bits, capture that does not change numerics, the kernel trace, batch
// planning and resuming, and every kind of bad input.
#include "core/common/error.h"
#include "core/common/run_config.h"
#include "core/engine/engine.h"
#include "core/model/safetensors.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <thread>

using namespace probaudit;
using engine::Capture;
using engine::Engine;
using engine::HeadSpec;
using engine::Item;
using engine::ItemRecord;
using engine::KernelTrace;

namespace {

const std::string kSrc = PROBAUDIT_SOURCE_DIR;

QJsonObject heads() {
    QFile f(QString::fromStdString(kSrc + "/tests/golden/heads.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("no heads.json");
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<Item> forwardItems() {
    QFile f(QString::fromStdString(kSrc + "/tests/golden/forward_inputs.json"));
    f.open(QIODevice::ReadOnly);
    std::vector<Item> items;
    int i = 0;
    for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) {
        items.push_back(
            Item{"item-" + std::to_string(i++), v.toString().toStdString(), std::nullopt});
    }
    return items;
}

HeadSpec headFor(const QString& name) {
    QJsonObject h = heads()[name].toObject()[u"head"].toObject();
    if (h.contains(u"path")) {
        h[u"path"] = QString::fromStdString(kSrc + "/") + h[u"path"].toString();
    }
    return HeadSpec::parse(QJsonDocument(h).toJson().toStdString());
}

std::string modelDir(const QString& name) {
    if (name == QStringLiteral("SmolLM2-135M-Instruct")) {
        return kSrc + "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf";
    }
    if (name.startsWith(QStringLiteral("tiny-"))) {
        return kSrc + "/tests/fixtures/" + name.toStdString();
    }
    return kSrc + "/.cache/models/" + name.toStdString();
}

RunConfig config(const char* json) {
    return RunConfig::fromJson(nlohmann::json::parse(json));
}

bool sameBits(const std::vector<ItemRecord>& a, const std::vector<ItemRecord>& b, bool hashes) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto& x = a[i].head;
        const auto& y = b[i].head;
        if (x.logits.size() != y.logits.size() ||
            std::memcmp(x.logits.data(), y.logits.data(), x.logits.size() * 4) != 0 ||
            std::memcmp(x.probs.data(), y.probs.data(), x.probs.size() * 4) != 0 ||
            x.decision != y.decision) {
            return false;
        }
        if (hashes && a[i].layer_hashes != b[i].layer_hashes) {
            return false;
        }
    }
    return true;
}

// kernels: "default" or "batch_invariant" (every op through kernels/invariant.h); gemm: "aten"
// or "onednn" (the layers' projections through oneDNN on packed weights).
void compareWithReference(const QString& name, double tol, const char* kernels = "default",
                          const char* gemm = "aten") {
    Engine eng(modelDir(name), headFor(name));
    const auto items = forwardItems();
    const QJsonArray ref = heads()[name].toObject()[u"probs"].toArray();
    for (const char* base :
         {"{\"batch_size\":1}", "{\"batch_size\":8,\"padding_side\":\"left\"}",
          "{\"batch_size\":8,\"padding_side\":\"right\",\"attention\":\"sdpa\"}"}) {
        auto j = nlohmann::json::parse(base);
        j["kernels"] = kernels;
        j["gemm"] = gemm;
        const std::string cfg = j.dump();
        const auto records = eng.run(items, RunConfig::fromJson(j), Capture::None);
        QCOMPARE(records.size(), items.size());
        double worst = 0;
        for (std::size_t i = 0; i < records.size(); ++i) {
            const QJsonArray p = ref[qsizetype(i)].toArray();
            QCOMPARE(records[i].head.probs.size(), std::size_t(p.size()));
            for (qsizetype c = 0; c < p.size(); ++c) {
                const double d =
                    std::abs(double(records[i].head.probs[std::size_t(c)]) - p[c].toDouble());
                // std::max(worst, NaN) is worst: a NaN probability must fail, not vanish.
                worst =
                    std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(worst, d);
            }
        }
        QVERIFY2(worst <= tol, qPrintable(QStringLiteral("%1 %2: max |dp| %3")
                                              .arg(name, QString::fromStdString(cfg))
                                              .arg(worst)));
    }
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Decision probabilities within 1e-5 of the reference (float32), alone and batched.
    void fixtureHeadsMatchReference_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("adapter on tiny-bert") << QStringLiteral("tiny-bert");
        QTest::newRow("label tokens on tiny-llama") << QStringLiteral("tiny-llama");
    }
    void fixtureHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5);
    }
    // The batch-invariant kernels stay within the same float32 tolerance of the reference.
    void fixtureInvariantHeadsMatchReference_data() { fixtureHeadsMatchReference_data(); }
    void fixtureInvariantHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5, "batch_invariant");
    }
    void realInvariantHeadsMatchReference_data() { realHeadsMatchReference_data(); }
    void realInvariantHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5, "batch_invariant");
    }

    // gemm onednn: oneDNN's GEMM rounds otherwise than MKL's, within the same tolerance.
    void fixtureOnednnHeadsMatchReference_data() { fixtureHeadsMatchReference_data(); }
    void fixtureOnednnHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5, "default", "onednn");
    }
    void realOnednnHeadsMatchReference_data() { realHeadsMatchReference_data(); }
    void realOnednnHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5, "default", "onednn");
    }

    void realHeadsMatchReference_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("adapter on all-MiniLM-L6-v2") << QStringLiteral("all-MiniLM-L6-v2");
        QTest::newRow("label tokens on SmolLM2") << QStringLiteral("SmolLM2-135M-Instruct");
    }
    void realHeadsMatchReference() {
        QFETCH(QString, name);
        compareWithReference(name, 1e-5);
    }

    // Invariance sanity: the same config run twice gives bit-identical records.
    void sameConfigTwiceIsBitIdentical_data() {
        QTest::addColumn<QString>("cfg");
        QTest::newRow("batch 1") << QStringLiteral("{\"batch_size\":1}");
        QTest::newRow("batch 8 left, pad to 128") << QStringLiteral(
            "{\"batch_size\":8,\"padding_side\":\"left\",\"pad_to\":\"fixed\",\"pad_to_n\":128}");
        QTest::newRow("bfloat16 sdpa shuffled")
            << QStringLiteral("{\"batch_size\":4,\"dtype\":\"bfloat16\",\"attention\":\"sdpa\","
                              "\"order\":\"shuffled\",\"order_seed\":3}");
        QTest::newRow("2 threads") << QStringLiteral("{\"batch_size\":3,\"threads\":2}");
    }
    void sameConfigTwiceIsBitIdentical() {
        QFETCH(QString, cfg);
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        const auto items = forwardItems();
        const auto a = eng.run(items, config(cfg.toLatin1().constData()), Capture::Hashes);
        Engine other(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        const auto b = other.run(items, config(cfg.toLatin1().constData()), Capture::Hashes);
        QVERIFY(sameBits(a, b, true));
        QCOMPARE(a.front().layer_hashes.size(), size_t(3)); // embeddings + 2 layers
    }

    // Capture is observation only: none, hashes, vectors and full give the same bits.
    void captureDoesNotChangeNumerics() {
        Engine eng(modelDir(QStringLiteral("tiny-bert")), headFor(QStringLiteral("tiny-bert")));
        const auto items = forwardItems();
        const RunConfig c = config("{\"batch_size\":8,\"padding_side\":\"left\"}");
        const auto none = eng.run(items, c, Capture::None);
        const auto hashes = eng.run(items, c, Capture::Hashes);
        const auto vectors = eng.run(items, c, Capture::Vectors);
        const auto full = eng.run(items, c, Capture::Full);
        QVERIFY(none.front().layer_hashes.empty());
        QVERIFY(sameBits(none, hashes, false));
        QVERIFY(sameBits(hashes, vectors, true));
        QVERIFY(sameBits(vectors, full, true));
        QCOMPARE(vectors.front().layer_vectors.size(), size_t(3));
        QCOMPARE(qint64(full.front().layer_full.front().size(0)), qint64(full.front().tokens));
    }

    // The kernel trace is evidence of the path: switching the attention implementation
    // shows up in it.
    void kernelTraceShowsTheAttentionPath() {
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        const auto items = forwardItems();
        eng.run(items, config("{\"batch_size\":8}"), Capture::None);
        const auto math = eng.lastTrace().ops();
        eng.run(items, config("{\"batch_size\":8,\"attention\":\"sdpa\"}"), Capture::None);
        const auto sdpa = eng.lastTrace().ops();
        QVERIFY(math.count("aten::softmax") && !math.count("aten::scaled_dot_product_attention"));
        QVERIFY(sdpa.count("aten::scaled_dot_product_attention"));
        QCOMPARE(sdpa.at("aten::scaled_dot_product_attention"), 4 * 2); // 4 batches x 2 layers
        QVERIFY(math.at("aten::linear") > 0);
    }

    // The GEMM clock (the benchmark's floor): it counts and times exactly the matrix
    // multiplies, of the engine's run or of a thread of its own, not the other operators; a
    // second clock is refused while one runs; time and count are zero again in the next one.
    void gemmClockTimesOnlyTheMatrixMultiplies() {
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        const auto items = forwardItems();
        const RunConfig c = config("{\"batch_size\":8}");
        eng.run(items, c, Capture::None);
        const auto ops = eng.lastTrace().ops();
        std::int64_t gemms = 0;
        for (const char* op : {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}) {
            gemms += ops.count(op) ? ops.at(op) : 0;
        }
        QVERIFY(gemms > 0);
        {
            const engine::GemmClock clock;
            QVERIFY_THROWS_EXCEPTION(Error, engine::GemmClock());
            const auto t0 = std::chrono::steady_clock::now();
            eng.run(items, c, Capture::None);
            const double pass =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            QCOMPARE(clock.calls(), gemms);
            QVERIFY(clock.seconds() > 0 && clock.seconds() < pass);
            std::thread([] { (void)at::mm(at::ones({64, 64}), at::ones({64, 64})); }).join();
            (void)at::add(at::ones({64, 64}), 1);
            QCOMPARE(clock.calls(), gemms + 1);
        }
        const engine::GemmClock next;
        QCOMPARE(next.calls(), std::int64_t(0));
        QCOMPARE(next.seconds(), 0.0);
    }

    // A trace asked to record device kernels where there are none (this CPU run, and on a
    // machine without a GPU, no profiler: it says why) still counts the operators, leaves
    // device_kernels an object, survives checkpoints, and leaves nothing running: the next
    // trace starts.
    void deviceKernelTraceStartsAndStops() {
        for (int round = 0; round < 2; ++round) {
            KernelTrace trace;
            trace.start(true);
            const at::Tensor a = at::ones({4, 4});
            for (int i = 0; i < 40; ++i) {
                (void)at::mm(a, a);
                trace.checkpoint();
            }
            trace.stop();
            QCOMPARE(trace.ops().at("aten::mm"), std::int64_t(40));
            const nlohmann::json j = trace.toJson();
            QVERIFY(j.at("device_kernels").is_object());
            QVERIFY(j.at("device_kernels").empty());
            QCOMPARE(j.contains("device_kernels_unavailable"), !at::hasCUDA());
        }
        KernelTrace plain;
        plain.start();
        plain.stop();
    }

    void planOrdersAndBatches() {
        const std::vector<std::int64_t> lengths{5, 1, 4, 2, 3};
        RunConfig c = config("{\"batch_size\":2,\"order\":\"by_length\"}");
        auto p = Engine::plan(lengths, c);
        QCOMPARE(p.batches.size(), size_t(3));
        QCOMPARE(p.batches[0], (std::vector<std::size_t>{1, 3}));
        QCOMPARE(p.batches[2], (std::vector<std::size_t>{0}));
        c = config("{\"batch_size\":5,\"order\":\"shuffled\",\"order_seed\":7}");
        const auto s1 = Engine::plan(lengths, c).batches[0];
        QCOMPARE(Engine::plan(lengths, c).batches[0], s1); // same seed, same order
        c.order_seed = 8;
        QVERIFY(Engine::plan(lengths, c).batches[0] != s1);

        // neighbours_shuffled: every item keeps its row, its batch-mates change with the seed.
        const std::vector<std::int64_t> many(30, 4); // 30 items, batches of 8 (the last of 6)
        const auto rowOf = [](const probaudit::engine::RunPlan& plan) {
            std::map<std::size_t, std::size_t> row;
            for (const auto& b : plan.batches) {
                for (std::size_t r = 0; r < b.size(); ++r) {
                    row[b[r]] = r;
                }
            }
            return row;
        };
        c = config("{\"batch_size\":8,\"order\":\"neighbours_shuffled\",\"order_seed\":1}");
        const auto n1 = Engine::plan(many, c);
        c.order_seed = 2;
        const auto n2 = Engine::plan(many, c);
        QCOMPARE(n1.batches.size(), size_t(4));
        QCOMPARE(n1.batches.back().size(), size_t(6));
        const auto rows1 = rowOf(n1);
        QCOMPARE(rows1.size(), many.size()); // every item once
        for (const auto& [item, row] : rows1) {
            QCOMPARE(row, item % 8); // its row as given
        }
        QCOMPARE(rowOf(n2), rows1);
        QVERIFY(n1.batches != n2.batches);                   // other neighbours
        QCOMPARE(Engine::plan(many, c).batches, n2.batches); // the same seed, the same batches
        c.order = ItemOrder::Shuffled; // the plain shuffle moves items to other rows
        std::size_t moved = 0;
        for (const auto& [item, row] : rowOf(Engine::plan(many, c))) {
            moved += row != item % 8;
        }
        QVERIFY(moved > 0);
    }

    // A resumed run (items already recorded are skipped) gives the same bits for the rest,
    // because batches are planned over all items and keep their neighbours.
    void resumedRunMatches() {
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        const auto items = forwardItems();
        const RunConfig c = config("{\"batch_size\":8,\"padding_side\":\"left\"}");
        const auto all = eng.run(items, c, Capture::Hashes);
        std::vector<bool> skip(items.size(), false);
        for (std::size_t i = 0; i < 12; ++i) {
            skip[i] = true;
        }
        const auto rest = eng.run(items, c, Capture::Hashes, {}, {}, skip);
        QCOMPARE(rest.size(), items.size() - 12);
        QVERIFY(sameBits(std::vector<ItemRecord>(all.begin() + 12, all.end()), rest, true));
    }

    void cancelKeepsFinishedBatches() {
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        std::size_t sunk = 0;
        const auto got = eng.run(
            forwardItems(), config("{\"batch_size\":8}"), Capture::None,
            [](std::size_t done, std::size_t) { return done < 16; },
            [&](const std::vector<ItemRecord>& b) { sunk += b.size(); });
        QVERIFY(eng.cancelled());
        QCOMPARE(got.size(), size_t(16));
        QCOMPARE(sunk, size_t(16));
    }

    void emptyTextIsAnError() {
        Engine eng(modelDir(QStringLiteral("tiny-bert")), headFor(QStringLiteral("tiny-bert")));
        try {
            eng.run({Item{"a", "fine", {}}, Item{"b7", "  \n", {}}}, RunConfig(), Capture::None);
            QFAIL("accepted empty text");
        } catch (const Error& e) {
            QVERIFY2(QString::fromLatin1(e.what()).contains(QStringLiteral("item b7: empty text")),
                     e.what());
        }
    }

    void longTextIsTruncatedWithAFlag() {
        Engine eng(modelDir(QStringLiteral("tiny-bert")), headFor(QStringLiteral("tiny-bert")));
        std::string longText;
        for (int i = 0; i < 300; ++i) {
            longText += "word ";
        }
        const auto r = eng.run({Item{"long", longText, {}}, Item{"short", "fine", {}}}, RunConfig(),
                               Capture::None);
        QVERIFY(r[0].truncated);
        QCOMPARE(r[0].tokens, std::int64_t(128)); // tiny-bert's max_position_embeddings
        QVERIFY(!r[1].truncated);
        const auto capped =
            eng.run({Item{"long", longText, {}}}, config("{\"max_length\":16}"), Capture::None);
        QCOMPARE(capped[0].tokens, std::int64_t(16));
    }

    void labelWordsMustBeSingleTokens() {
        const HeadSpec h = HeadSpec::parse("{\"kind\":\"label_tokens\",\"template\":\"{text}\","
                                           "\"labels\":[\" a\",\" positively\"]}");
        Engine eng(modelDir(QStringLiteral("tiny-llama")), h);
        try {
            eng.run({Item{"x", "hello", {}}}, RunConfig(), Capture::None);
            QFAIL("accepted a multi-token label");
        } catch (const Error& e) {
            QVERIFY2(QString::fromLatin1(e.what()).contains(
                         QStringLiteral("a label must be exactly one token")),
                     e.what());
        }
    }

    void headShapeMustMatchTheModel() {
        // The MiniLM adapter (hidden 384) on tiny-bert (hidden 64).
        const HeadSpec h =
            HeadSpec::parse("{\"kind\":\"adapter\",\"path\":\"" + kSrc +
                            "/tests/fixtures/adapters/all-MiniLM-L6-v2-mean.safetensors\"}");
        Engine eng(modelDir(QStringLiteral("tiny-bert")), h);
        try {
            eng.run({Item{"x", "hello", {}}}, RunConfig(), Capture::None);
            QFAIL("accepted a mismatched head");
        } catch (const Error& e) {
            QVERIFY2(QString::fromLatin1(e.what()).contains(QStringLiteral("hidden size is 64")),
                     e.what());
        }
    }

    // An adapter learned on a prompt template reads the item through it, and refuses a head
    // that gives another template (or none): its numbers would silently mean nothing.
    void adapterReadsItsPromptTemplate() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.safetensors")).toStdString();
        const std::string tmpl = "Review: {text}\nSentiment:";
        std::vector<float> w(2 * 64);
        for (std::size_t i = 0; i < w.size(); ++i) {
            w[i] = float((i * 37) % 11) / 11.0f - 0.5f;
        }
        model::writeSafetensorsF32(path, {{"weight", {{2, 64}, w}}, {"bias", {{2}, {0.f, 0.f}}}},
                                   {{"pooling", "last"}, {"template", tmpl}});
        auto head = [&](const std::string& t) {
            std::string j = "{\"kind\":\"adapter\",\"path\":\"" + path + "\"";
            if (!t.empty()) {
                j += ",\"template\":\"" +
                     QString::fromStdString(t)
                         .replace(QStringLiteral("\n"), QStringLiteral("\\n"))
                         .toStdString() +
                     "\"";
            }
            return HeadSpec::parse(j + "}");
        };
        const std::vector<Item> items{Item{"x", "great food", {}}};
        Engine templated(modelDir(QStringLiteral("tiny-llama")), head(tmpl));
        const auto r = templated.run(items, RunConfig(), Capture::None);
        QVERIFY(r[0].head.decision >= 0);
        // The same weights learned on the bare text read fewer tokens: the template's words.
        const std::string bare = dir.filePath(QStringLiteral("b.safetensors")).toStdString();
        model::writeSafetensorsF32(bare, {{"weight", {{2, 64}, w}}, {"bias", {{2}, {0.f, 0.f}}}},
                                   {{"pooling", "last"}});
        Engine plain(modelDir(QStringLiteral("tiny-llama")),
                     HeadSpec::parse("{\"kind\":\"adapter\",\"path\":\"" + bare + "\"}"));
        const auto p = plain.run(items, RunConfig(), Capture::None);
        QVERIFY2(r[0].tokens >= p[0].tokens + 4,
                 qPrintable(QStringLiteral("%1 vs %2").arg(r[0].tokens).arg(p[0].tokens)));
        QVERIFY(r[0].head.logits != p[0].head.logits);
        for (const std::string& other : {std::string(), std::string("Q: {text} A:")}) {
            try {
                Engine eng(modelDir(QStringLiteral("tiny-llama")), head(other));
                eng.run(items, RunConfig(), Capture::None);
                QFAIL("accepted an adapter under another template");
            } catch (const Error& e) {
                QVERIFY2(QString::fromLatin1(e.what()).contains(
                             QStringLiteral("learned on the prompt template")),
                         e.what());
            }
        }
    }

    // NaN logits are recorded and flagged, never turned into a decision.
    void nonFiniteLogitsAreFlagged() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("nan.safetensors")).toStdString();
        {
            const std::string header =
                "{\"weight\":{\"dtype\":\"F32\",\"shape\":[2,64],\"data_offsets\":[0,512]},"
                "\"bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[512,520]},"
                "\"__metadata__\":{\"pooling\":\"cls\"}}";
            std::vector<float> data(130, 0.01f);
            data[3] = std::numeric_limits<float>::quiet_NaN();
            QFile f(QString::fromStdString(path));
            f.open(QIODevice::WriteOnly);
            const quint64 n = header.size();
            f.write(reinterpret_cast<const char*>(&n), 8);
            f.write(header.data(), qint64(header.size()));
            f.write(reinterpret_cast<const char*>(data.data()), qint64(data.size() * 4));
        }
        Engine eng(modelDir(QStringLiteral("tiny-bert")),
                   HeadSpec::parse("{\"kind\":\"adapter\",\"path\":\"" + path + "\"}"));
        const auto r = eng.run({Item{"x", "hello", {}}}, RunConfig(), Capture::None);
        QVERIFY(r[0].head.nonfinite);
        QCOMPARE(r[0].head.decision, -1);
    }

    // The negative test: on the real models, at least one of batch 1 vs 8, padding added and
    // threads 1 vs 2 changes some probability bits on this CPU (so that invariance tests can
    // fail). Prints which ones do.
    void defaultPathDiffersSomewhere_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("all-MiniLM-L6-v2") << QStringLiteral("all-MiniLM-L6-v2");
        QTest::newRow("SmolLM2-135M-Instruct") << QStringLiteral("SmolLM2-135M-Instruct");
    }
    void defaultPathDiffersSomewhere() {
        QFETCH(QString, name);
        Engine eng(modelDir(name), headFor(name));
        const auto items = forwardItems();
        struct Probe {
            const char* what;
            const char* base;
            const char* cfg;
        };
        const Probe probes[] = {
            {"batch 1 vs 8", "{\"batch_size\":1}", "{\"batch_size\":8}"},
            {"padding added (pad to 128)", "{\"batch_size\":1}",
             "{\"batch_size\":1,\"pad_to\":\"fixed\",\"pad_to_n\":128}"},
            {"threads 1 vs 2 (batch 8)", "{\"batch_size\":8}", "{\"batch_size\":8,\"threads\":2}"}};
        int differing = 0;
        for (const auto& p : probes) {
            const auto ref = eng.run(items, config(p.base), Capture::None);
            const auto other = eng.run(items, config(p.cfg), Capture::None);
            int changed = 0;
            for (std::size_t i = 0; i < items.size(); ++i) {
                changed += std::memcmp(ref[i].head.probs.data(), other[i].head.probs.data(),
                                       ref[i].head.probs.size() * 4) != 0;
            }
            qInfo("%s, %s: %d of %zu items changed probability bits", qPrintable(name), p.what,
                  changed, items.size());
            differing += changed > 0;
        }
        QVERIFY2(differing > 0, "no shape or thread change moved any probability bit on this CPU");
    }

    // gemm onednn computes the layers' projections with oneDNN (the trace shows its operator in
    // their place; the LM head stays ATen's) and gives other bits than MKL somewhere (on the real
    // models: the tiny fixtures' GEMMs are too small to round differently). A model holds one
    // layout of its weights at a time: going to oneDNN's and back is exact, and the
    // batch-invariant kernels, whose packs know weights by address, still read the right ones.
    void onednnLayoutSwitchesAreExact() {
        const QString name = QStringLiteral("tiny-llama");
        Engine eng(modelDir(name), headFor(name));
        const auto items = forwardItems();
        const RunConfig aten = config("{\"batch_size\":4}");
        const RunConfig inv = config("{\"batch_size\":4,\"kernels\":\"batch_invariant\"}");
        const RunConfig one = config("{\"batch_size\":4,\"gemm\":\"onednn\"}");
        const auto a1 = eng.run(items, aten, Capture::Hashes);
        const auto atenOps = eng.lastTrace().ops();
        const auto i1 = eng.run(items, inv, Capture::Hashes);
        const auto o1 = eng.run(items, one, Capture::Hashes);
        const auto oneOps = eng.lastTrace().ops();
        const std::int64_t projections = std::int64_t(items.size() / 4) * 2 * 7; // 2 layers
        QCOMPARE(oneOps.at("mkldnn::_linear_pointwise"), projections);
        QCOMPARE(oneOps.at("aten::linear") + projections, atenOps.at("aten::linear"));
        QVERIFY(!atenOps.count("mkldnn::_linear_pointwise"));
        const auto a2 = eng.run(items, aten, Capture::Hashes);
        const auto i2 = eng.run(items, inv, Capture::Hashes);
        const auto o2 = eng.run(items, one, Capture::Hashes);
        QVERIFY(sameBits(a1, a2, true));
        QVERIFY(sameBits(i1, i2, true));
        QVERIFY(sameBits(o1, o2, true));
        Engine fresh(modelDir(name), headFor(name));
        QVERIFY(sameBits(o1, fresh.run(items, one, Capture::Hashes), true));
    }
    void onednnGemmDiffersSomewhere_data() { defaultPathDiffersSomewhere_data(); }
    void onednnGemmDiffersSomewhere() {
        QFETCH(QString, name);
        Engine eng(modelDir(name), headFor(name));
        const auto items = forwardItems();
        const auto aten = eng.run(items, config("{\"batch_size\":8}"), Capture::Hashes);
        const auto one =
            eng.run(items, config("{\"batch_size\":8,\"gemm\":\"onednn\"}"), Capture::Hashes);
        int changed = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            changed += aten[i].layer_hashes != one[i].layer_hashes;
        }
        qInfo("%s: gemm onednn changed the layer bits of %d of %zu items", qPrintable(name),
              changed, items.size());
        QVERIFY(changed > 0);
    }
    // Where oneDNN cannot pack the weights (float16 without the CPU's fp16 instructions) the run
    // fails with one sentence and the model keeps its weights as they were.
    void onednnRefusalLeavesTheModelAsItWas() {
        for (const char* bad :
             {"{\"gemm\":\"onednn\",\"kernels\":\"batch_invariant\"}",
              "{\"gemm\":\"onednn\",\"device\":\"cuda:0\"}", "{\"gemm\":\"mkl\"}"}) {
            QVERIFY_THROWS_EXCEPTION(Error, config(bad));
        }
        const QString name = QStringLiteral("tiny-llama");
        Engine eng(modelDir(name), headFor(name));
        const auto items = forwardItems();
        const RunConfig half = config("{\"batch_size\":4,\"dtype\":\"float16\"}");
        const auto before = eng.run(items, half, Capture::Hashes);
        try {
            eng.run(items, config("{\"batch_size\":4,\"dtype\":\"float16\",\"gemm\":\"onednn\"}"),
                    Capture::None);
            qInfo("oneDNN packs float16 weights on this CPU");
        } catch (const Error& e) {
            const std::string what = e.what();
            QVERIFY2(what.rfind("gemm onednn: ", 0) == 0 && what.find('\n') == std::string::npos,
                     what.c_str());
        }
        QVERIFY(sameBits(before, eng.run(items, half, Capture::Hashes), true));
    }

    // A batch-invariant run shows its kernels in the trace, and no BLAS linear, matmul or SDPA.
    void invariantKernelsShowInTheTrace() {
        Engine eng(modelDir(QStringLiteral("tiny-llama")), headFor(QStringLiteral("tiny-llama")));
        eng.run({Item{"x", "hi there", {}}}, config("{\"kernels\":\"batch_invariant\"}"),
                Capture::None);
        const auto ops = eng.lastTrace().toJson().at("ops");
        for (const char* op : {"probaudit::invariant_linear", "probaudit::invariant_attention",
                               "probaudit::invariant_rms_norm", "probaudit::invariant_rope",
                               "probaudit::invariant_silu_mul"}) {
            QVERIFY2(ops.contains(op), op);
        }
        for (const char* op :
             {"aten::linear", "aten::matmul", "aten::scaled_dot_product_attention"}) {
            QVERIFY2(!ops.contains(op), op);
        }
        eng.run({Item{"x", "hi there", {}}}, config("{}"), Capture::None);
        QVERIFY(!eng.lastTrace().toJson().at("ops").contains("probaudit::invariant_linear"));
    }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
