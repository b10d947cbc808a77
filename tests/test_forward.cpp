// Forward passes against the reference implementation (tests/golden/forward_*.safetensors from
// make_golden.py): every layer's hidden states of every real token, the decision-position
// logits and the BERT pooler, for 32 inputs alone and in batches of 8 with right and left
// padding. float32: within 1e-4 + 1e-4·|ref|, for both attention implementations.
#include "core/engine/batch.h"
#include "core/engine/model_loader.h"
#include "core/engine/transformer.h"
#include "core/engine/weights.h"
#include "core/model/checkpoint.h"
#include "core/model/safetensors.h"

#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <QTest>

#include <cmath>
#include <limits>

using namespace probaudit;

namespace {

struct Golden {
    model::SafetensorsCheckpoint file;
    explicit Golden(const std::string& name)
        : file(PROBAUDIT_SOURCE_DIR "/tests/golden/forward_" + name + ".safetensors") {}
    bool has(const std::string& n) const { return file.contains(n); }
    at::Tensor get(const std::string& n) const { return engine::loadTensor(file, n); }
};

// Largest (|a - b| - (atol + rtol·|b|)); <= 0 means within tolerance. A NaN anywhere (max()
// carries it through) counts as out of tolerance: "e > worst" is false for NaN.
double excess(const at::Tensor& a, const at::Tensor& b, double atol, double rtol) {
    const at::Tensor af = a.to(at::kFloat);
    if (af.sizes() != b.sizes()) {
        return std::numeric_limits<double>::infinity();
    }
    const double e = ((af - b).abs() - (atol + rtol * b.abs())).max().item<double>();
    return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

struct Case {
    QString model;
    QString dir;
    bool full; // fixtures: every token; real models: first/last/mean rows
};

void runModel(const Case& c, const std::string& attention, at::ScalarType dtype, double atol,
              double rtol) {
    c10::InferenceMode guard;
    const Golden g(c.model.toStdString());
    const auto ckpt = model::Checkpoint::open(c.dir.toStdString());
    auto model = engine::TransformerModel::create(ckpt.spec(), engine::loadWeights(ckpt, dtype));
    const bool bert = ckpt.spec().family == model::Family::Bert;
    std::vector<std::vector<std::int32_t>> ids;
    for (int i = 0; g.has("ids." + std::to_string(i)); ++i) {
        const at::Tensor t = g.get("ids." + std::to_string(i));
        ids.emplace_back(t.data_ptr<std::int64_t>(), t.data_ptr<std::int64_t>() + t.numel());
    }
    QCOMPARE(ids.size(), size_t(32));
    at::Tensor logitIds = g.has("logit_ids") ? g.get("logit_ids") : at::Tensor();

    int compared = 0;
    double worst = -1e9;
    QString worstWhere;
    auto check = [&](const at::Tensor& got, const std::string& name) {
        const double e = excess(got, g.get(name), atol, rtol);
        ++compared;
        if (e > worst) {
            worst = e;
            worstWhere = QString::fromStdString(name);
        }
    };
    for (const auto& [mode, side, size] : {std::tuple{"single", PaddingSide::Right, 1},
                                           {"batch8_right", PaddingSide::Right, 8},
                                           {"batch8_left", PaddingSide::Left, 8}}) {
        for (std::size_t first = 0; first < ids.size(); first += size_t(size)) {
            std::vector<std::vector<std::int32_t>> rows(ids.begin() + std::ptrdiff_t(first),
                                                        ids.begin() +
                                                            std::ptrdiff_t(first + size_t(size)));
            const engine::Batch b = engine::makeBatch(rows, side, PadTo::Longest, 0, 0);
            engine::ForwardOptions opt;
            opt.attention = fromNameOrThrow<Attention>(attention);
            opt.onHidden = [&](int layer, const at::Tensor& h) {
                for (std::int64_t r = 0; r < b.rows(); ++r) {
                    const std::string key = std::string(mode) + "." +
                                            std::to_string(first + size_t(r)) + ".h" +
                                            std::to_string(layer);
                    const at::Tensor real = h[r].narrow(0, b.start[size_t(r)], b.length[size_t(r)]);
                    if (c.full) {
                        check(real, key);
                        continue;
                    }
                    // Real models: the summaries the golden file keeps for this layer, if any.
                    if (g.has(key + ".first")) {
                        check(real[0], key + ".first");
                    }
                    if (g.has(key + ".last")) {
                        check(real[-1], key + ".last");
                    }
                    if (g.has(key + ".mean")) {
                        check(real.to(at::kFloat).mean(0), key + ".mean");
                    }
                }
            };
            const engine::ForwardResult out = model->forward(b, opt);
            for (std::int64_t r = 0; r < b.rows(); ++r) {
                const std::string key = std::string(mode) + "." + std::to_string(first + size_t(r));
                if (bert) {
                    check(out.pooler[r], key + ".pooler");
                } else {
                    at::Tensor logits = model->lmLogits(out.last_hidden[r][b.last(r)], false);
                    if (logitIds.defined()) {
                        logits = logits.index_select(0, logitIds);
                    }
                    check(logits, key + ".logits");
                }
            }
        }
    }
    QVERIFY(compared > 32 * 3);
    QVERIFY2(worst <= 0, qPrintable(QStringLiteral("%1 %2: %3 exceeds the tolerance by %4")
                                        .arg(c.model, QString::fromStdString(attention), worstWhere)
                                        .arg(worst)));
}

void addCases(bool real) {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dir");
    QTest::addColumn<bool>("full");
    QTest::addColumn<QString>("attention");
    const QString src = QStringLiteral(PROBAUDIT_SOURCE_DIR);
    QList<Case> cases;
    if (!real) {
        for (const char* m : {"tiny-llama", "tiny-qwen3", "tiny-bert"}) {
            cases << Case{QString::fromLatin1(m),
                          src + QStringLiteral("/tests/fixtures/") + QString::fromLatin1(m), true};
        }
    } else {
        cases << Case{QStringLiteral("all-MiniLM-L6-v2"),
                      src + QStringLiteral("/.cache/models/all-MiniLM-L6-v2"), false};
        cases << Case{
            QStringLiteral("SmolLM2-135M-Instruct"),
            src + QStringLiteral(
                      "/.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf"),
            false};
    }
    for (const Case& c : cases) {
        for (const char* a : {"math", "sdpa"}) {
            QTest::addRow("%s %s", qPrintable(c.model), a)
                << c.model << c.dir << c.full << QString::fromLatin1(a);
        }
    }
}

} // namespace

class TestForward : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { at::set_num_threads(1); }

    void fixturesFloat32_data() { addCases(false); }
    void fixturesFloat32() {
        QFETCH(QString, model);
        QFETCH(QString, dir);
        QFETCH(bool, full);
        QFETCH(QString, attention);
        runModel(Case{model, dir, full}, attention.toStdString(), at::kFloat, 1e-4, 1e-4);
    }

    // Reduced precision against the float32 reference: every value within k·eps·(1 + |ref|),
    // eps the format's unit roundoff (bfloat16 2^-8, float16 2^-11). Each of the 3 hidden
    // states (embeddings, 2 layers) adds rounding of its inputs, weights and accumulations; we
    // allow 8 eps per state, k = 24. Measured on these fixtures: k = 1 fails (bfloat16 errors
    // reach about 8 eps), k = 24 passes with a margin of about 3.
    void fixturesReducedPrecision_data() { addCases(false); }
    void fixturesReducedPrecision() {
        QFETCH(QString, model);
        QFETCH(QString, dir);
        QFETCH(bool, full);
        QFETCH(QString, attention);
        for (const auto& [dtype, eps] :
             {std::pair{at::kBFloat16, 1.0 / 256}, std::pair{at::kHalf, 1.0 / 2048}}) {
            const double k = 8.0 * 3; // 8 per layer, 2 layers + embeddings
            runModel(Case{model, dir, full}, attention.toStdString(), dtype, k * eps, k * eps);
        }
    }

    void realModelsFloat32_data() { addCases(true); }
    void realModelsFloat32() {
        QFETCH(QString, model);
        QFETCH(QString, dir);
        QFETCH(bool, full);
        QFETCH(QString, attention);
        runModel(Case{model, dir, full}, attention.toStdString(), at::kFloat, 1e-4, 1e-4);
    }
};

QTEST_GUILESS_MAIN(TestForward)
#include "test_forward.moc"
