// The batch-invariant CPU kernels (kernels/invariant.h): every instruction set gives the scalar
// reference's bits; a row's result does not depend on the other rows, its position or padding;
// and the results agree with a double-precision computation within tol + |ref|·eps.
#include "kernel_test_data.h"
#include "kernels/invariant.h"
#include "kernels/invariant_cuda.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace probaudit::kernels;
using kernel_test::denseAttention;
using kernel_test::randomVec;

namespace {

bool sameBits(const float* a, const float* b, std::size_t n) {
    return std::memcmp(a, b, n * 4) == 0;
}

std::vector<CpuIsa> isas() {
    std::vector<CpuIsa> out;
    for (CpuIsa i : {CpuIsa::Scalar, CpuIsa::Avx2, CpuIsa::Avx512}) {
        if (cpuIsaSupported(i)) {
            out.push_back(i);
        }
    }
    return out;
}

// tol + |ref|·eps, as llm.c's validation helper.
bool close(double got, double ref, double tol, double eps) {
    return std::abs(got - ref) <= tol + std::abs(ref) * eps;
}

// Double-precision attention of one (row, head) for the accuracy check.
void attentionDouble(const AttentionParams& p, std::int64_t b, std::int64_t h,
                     std::vector<double>& out) {
    const auto D = p.head_dim;
    const auto kvh = h / (p.heads / p.kv_heads);
    out.assign(std::size_t(p.len * D), 0.0);
    for (std::int64_t tq = 0; tq < p.length[b]; ++tq) {
        const float* q = p.q + (b * p.len + p.start[b] + tq) * p.q_row_stride + h * D;
        const std::int64_t nk = p.causal ? tq + 1 : p.length[b];
        std::vector<double> s(static_cast<std::size_t>(nk));
        double mx = -1e300;
        for (std::int64_t j = 0; j < nk; ++j) {
            const float* k = p.k + (b * p.len + p.start[b] + j) * p.kv_row_stride + kvh * D;
            double acc = 0;
            for (std::int64_t d = 0; d < D; ++d) {
                acc += double(q[d]) * k[d];
            }
            s[std::size_t(j)] = acc * p.scale;
            mx = std::max(mx, s[std::size_t(j)]);
        }
        double sum = 0;
        for (auto& x : s) {
            x = std::exp(x - mx);
            sum += x;
        }
        for (std::int64_t j = 0; j < nk; ++j) {
            const float* v = p.v + (b * p.len + p.start[b] + j) * p.kv_row_stride + kvh * D;
            for (std::int64_t d = 0; d < D; ++d) {
                out[std::size_t((p.start[b] + tq) * D + d)] += s[std::size_t(j)] / sum * v[d];
            }
        }
    }
}

} // namespace

class TestInvariantKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qInfo("best CPU kernels here: %s", cpuIsaName(bestCpuIsa())); }

    void matmulEveryIsaGivesTheReferenceBits_data() {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<bool>("bias");
        QTest::newRow("1x1x1") << 1 << 1 << 1 << false;
        QTest::newRow("7x33x17 bias") << 7 << 33 << 17 << true;
        QTest::newRow("13x100x384") << 13 << 100 << 384 << false;
        QTest::newRow("64x96x64 bias") << 64 << 96 << 64 << true;
        QTest::newRow("5x31x1536 bias") << 5 << 31 << 1536 << true;
    }
    void matmulEveryIsaGivesTheReferenceBits() {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(bool, bias);
        const std::int64_t lda = k + 3; // a strided A
        const auto a = randomVec(std::size_t(m * lda), 1);
        const auto w = randomVec(std::size_t(n * k), 2, 0.05f);
        const auto b = randomVec(std::size_t(n), 3);
        const PackedWeight pw = packWeight(w.data(), n, k);
        MatmulParams p;
        p.a = a.data();
        p.m = m;
        p.k = k;
        p.lda = lda;
        p.w = w.data();
        p.packed = &pw;
        p.bias = bias ? b.data() : nullptr;
        p.n = n;
        p.ldc = n + 1;
        std::vector<float> ref(std::size_t(m * p.ldc), -7.0f);
        p.c = ref.data();
        matmulReference(p);
        for (CpuIsa isa : isas()) {
            std::vector<float> got(ref.size(), -7.0f); // -7 in the gaps: nothing written there
            p.c = got.data();
            matmulCpu(p, 0, pw.panelCount(), isa);
            QVERIFY2(sameBits(got.data(), ref.data(), ref.size()), cpuIsaName(isa));
        }
        // Accuracy against double precision.
        for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
                double acc = bias ? b[std::size_t(j)] : 0.0;
                double mag = 0;
                for (std::int64_t kk = 0; kk < k; ++kk) {
                    acc += double(a[std::size_t(i * lda + kk)]) * w[std::size_t(j * k + kk)];
                    mag +=
                        std::abs(double(a[std::size_t(i * lda + kk)]) * w[std::size_t(j * k + kk)]);
                }
                QVERIFY(close(ref[std::size_t(i * p.ldc + j)], acc, 1e-6 * mag + 1e-7, 1e-6));
            }
        }
    }

    // f(x[:1]) == f(x)[:1] for every row: a row computed alone, or among 1..40 others at any
    // position, or in a panel range split differently (threads), gives the same bits.
    void matmulRowDoesNotDependOnItsBatch() {
        const std::int64_t k = 384, n = 70, m = 40;
        const auto a = randomVec(std::size_t(m * k), 4);
        const auto w = randomVec(std::size_t(n * k), 5, 0.05f);
        const PackedWeight pw = packWeight(w.data(), n, k);
        MatmulParams p;
        p.a = a.data();
        p.m = m;
        p.k = k;
        p.lda = k;
        p.packed = &pw;
        p.n = n;
        p.ldc = n;
        std::vector<float> full(std::size_t(m * n));
        p.c = full.data();
        matmulCpu(p, 0, 1);
        matmulCpu(p, 1, pw.panelCount()); // the panels in two calls, as two threads would
        for (std::int64_t first = 0; first < m; first += 7) {
            for (std::int64_t rows : {1, 2, 3, 5, 8}) {
                if (first + rows > m) {
                    continue;
                }
                std::vector<float> part(std::size_t(rows * n));
                MatmulParams q = p;
                q.a = a.data() + first * k;
                q.m = rows;
                q.c = part.data();
                matmulCpu(q, 0, pw.panelCount());
                QVERIFY(sameBits(part.data(), full.data() + first * n, part.size()));
            }
        }
    }

    void normsEveryIsaSameBitsAndAccurate_data() {
        QTest::addColumn<bool>("rms");
        QTest::addColumn<int>("h");
        QTest::newRow("layernorm 384") << false << 384;
        QTest::newRow("layernorm 37") << false << 37;
        QTest::newRow("rmsnorm 576") << true << 576;
        QTest::newRow("rmsnorm 64") << true << 64;
    }
    void normsEveryIsaSameBitsAndAccurate() {
        QFETCH(bool, rms);
        QFETCH(int, h);
        const std::int64_t rows = 9;
        auto x = randomVec(std::size_t(rows * h), 6, 3.0f);
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] += 1.5f; // a mean far from zero
        }
        const auto w = randomVec(std::size_t(h), 7);
        const auto b = randomVec(std::size_t(h), 8);
        NormParams p;
        p.x = x.data();
        p.rows = rows;
        p.h = h;
        p.ldx = h;
        p.weight = w.data();
        p.bias = rms ? nullptr : b.data();
        p.rms = rms;
        p.eps = 1e-5f;
        p.ldy = h;
        std::vector<float> ref(x.size());
        p.y = ref.data();
        normCpu(p, 0, rows, CpuIsa::Scalar);
        for (CpuIsa isa : isas()) {
            std::vector<float> got(x.size());
            p.y = got.data();
            normCpu(p, 0, rows, isa);
            QVERIFY2(sameBits(got.data(), ref.data(), got.size()), cpuIsaName(isa));
            // One row alone gives that row's bits.
            std::vector<float> one(static_cast<std::size_t>(h));
            NormParams q = p;
            q.x = x.data() + 4 * h;
            q.rows = 1;
            q.y = one.data();
            normCpu(q, 0, 1, isa);
            QVERIFY(sameBits(one.data(), ref.data() + 4 * h, one.size()));
        }
        for (std::int64_t r = 0; r < rows; ++r) {
            const float* xr = x.data() + r * h;
            double mean = 0, sq = 0;
            for (int i = 0; i < h; ++i) {
                mean += xr[i];
                sq += double(xr[i]) * xr[i];
            }
            mean /= h;
            double var = 0;
            for (int i = 0; i < h; ++i) {
                var += (xr[i] - mean) * (xr[i] - mean);
            }
            var /= h;
            for (int i = 0; i < h; ++i) {
                const double want =
                    rms ? w[std::size_t(i)] * xr[i] / std::sqrt(sq / h + 1e-5)
                        : (xr[i] - mean) / std::sqrt(var + 1e-5) * w[std::size_t(i)] +
                              b[std::size_t(i)];
                QVERIFY2(close(ref[std::size_t(r * h + i)], want, 1e-5, 1e-5),
                         qPrintable(QStringLiteral("row %1 col %2: %3 vs %4")
                                        .arg(r)
                                        .arg(i)
                                        .arg(ref[std::size_t(r * h + i)])
                                        .arg(want)));
            }
        }
    }

    void laneSumFollowsTheDocumentedOrder() {
        const auto x = randomVec(37, 9, 100.0f);
        float lanes[16] = {};
        for (int i = 0; i < 37; ++i) {
            lanes[i % 16] += x[std::size_t(i)];
        }
        for (int s = 8; s > 0; s /= 2) {
            for (int l = 0; l < s; ++l) {
                lanes[l] += lanes[l + s];
            }
        }
        const float got = laneSum(x.data(), 37);
        QVERIFY(std::memcmp(&got, &lanes[0], 4) == 0);
    }

    // Attention: every ISA gives the same bits; an item's output does not depend on the batch
    // it is in, on left or right padding of any length, or on the heads grouping; and it agrees
    // with double precision.
    void attentionIsInvariantAndAccurate_data() {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("dim");
        QTest::newRow("bert-like") << false << 4 << 4 << 32;
        QTest::newRow("llama-like gqa") << true << 6 << 2 << 64;
    }
    void attentionIsInvariantAndAccurate() {
        QFETCH(bool, causal);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, dim);
        const std::int64_t n = 11; // the item's real tokens
        const auto itemQ = randomVec(std::size_t(n * heads * dim), 10);
        const auto itemK = randomVec(std::size_t(n * kvHeads * dim), 11);
        const auto itemV = randomVec(std::size_t(n * kvHeads * dim), 12);
        // Runs the item as row `row` of a batch of `batch` rows padded to `len`, left or right;
        // returns its output at its real positions.
        auto runAs = [&](std::int64_t batch, std::int64_t row, std::int64_t len, bool left,
                         CpuIsa isa) {
            const std::int64_t qs = heads * dim, kvs = kvHeads * dim;
            auto q = randomVec(std::size_t(batch * len * qs), 13 + std::uint32_t(len));
            auto k = randomVec(std::size_t(batch * len * kvs), 14 + std::uint32_t(len));
            auto v = randomVec(std::size_t(batch * len * kvs), 15 + std::uint32_t(len));
            std::vector<std::int64_t> start(static_cast<std::size_t>(batch)),
                length(static_cast<std::size_t>(batch));
            for (std::int64_t r = 0; r < batch; ++r) {
                length[std::size_t(r)] = r == row ? n : 1 + (r * 5) % len;
                start[std::size_t(r)] = left ? len - length[std::size_t(r)] : 0;
            }
            const std::int64_t st = start[std::size_t(row)];
            std::memcpy(q.data() + (row * len + st) * qs, itemQ.data(), itemQ.size() * 4);
            std::memcpy(k.data() + (row * len + st) * kvs, itemK.data(), itemK.size() * 4);
            std::memcpy(v.data() + (row * len + st) * kvs, itemV.data(), itemV.size() * 4);
            std::vector<float> out(std::size_t(batch * len * qs), 99.0f);
            const AttentionParams p =
                denseAttention(q.data(), k.data(), v.data(), out.data(), batch, len, heads, kvHeads,
                               dim, start.data(), length.data(), causal);
            attentionCpu(p, 0, attentionUnits(p), isa);
            return std::vector<float>(out.begin() + (row * len + st) * qs,
                                      out.begin() + (row * len + st + n) * qs);
        };
        const auto alone = runAs(1, 0, n, false, CpuIsa::Scalar);
        for (CpuIsa isa : isas()) {
            QVERIFY(sameBits(runAs(1, 0, n, false, isa).data(), alone.data(), alone.size()));
            QVERIFY(sameBits(runAs(3, 1, 16, true, isa).data(), alone.data(), alone.size()));
            QVERIFY(sameBits(runAs(5, 4, 64, false, isa).data(), alone.data(), alone.size()));
            QVERIFY(sameBits(runAs(8, 0, 128, true, isa).data(), alone.data(), alone.size()));
        }
        // Accuracy.
        std::vector<std::int64_t> start{0}, length{n};
        std::vector<float> out(alone.size());
        const AttentionParams p =
            denseAttention(itemQ.data(), itemK.data(), itemV.data(), out.data(), 1, n, heads,
                           kvHeads, dim, start.data(), length.data(), causal);
        attentionCpu(p, 0, attentionUnits(p));
        for (std::int64_t h = 0; h < heads; ++h) {
            std::vector<double> want;
            attentionDouble(p, 0, h, want);
            for (std::int64_t t = 0; t < n; ++t) {
                for (std::int64_t d = 0; d < dim; ++d) {
                    QVERIFY(close(out[std::size_t((t * heads + h) * dim + d)],
                                  want[std::size_t(t * dim + d)], 1e-5, 1e-4));
                }
            }
        }
    }

    // Keys from a KV cache (kv_len > len: the queries are the last len positions): the item's
    // last queries give the bits of the full pass, in any batch, under any left padding of the
    // cached keys, with every ISA.
    void attentionWithCachedKeysGivesTheFullPassBits() {
        const std::int64_t n = 9, heads = 6, kvHeads = 2, dim = 64;
        const std::int64_t qs = heads * dim, kvs = kvHeads * dim;
        const auto itemQ = randomVec(std::size_t(n * qs), 20);
        const auto itemK = randomVec(std::size_t(n * kvs), 21);
        const auto itemV = randomVec(std::size_t(n * kvs), 22);
        std::vector<float> full(itemQ.size());
        std::vector<std::int64_t> start0{0}, length0{n};
        const AttentionParams pf =
            denseAttention(itemQ.data(), itemK.data(), itemV.data(), full.data(), 1, n, heads,
                           kvHeads, dim, start0.data(), length0.data(), true);
        attentionCpu(pf, 0, attentionUnits(pf), CpuIsa::Scalar);
        for (const std::int64_t L : {1, 3}) {
            for (CpuIsa isa : isas()) {
                const std::int64_t batch = 3, row = 1, T = 20;
                auto q = randomVec(std::size_t(batch * L * qs), 23);
                auto k = randomVec(std::size_t(batch * T * kvs), 24);
                auto v = randomVec(std::size_t(batch * T * kvs), 25);
                std::vector<std::int64_t> start(batch), length(batch);
                for (std::int64_t r = 0; r < batch; ++r) {
                    length[std::size_t(r)] = r == row ? n : 4 + r;
                    start[std::size_t(r)] = T - length[std::size_t(r)];
                }
                std::memcpy(q.data() + row * L * qs, itemQ.data() + (n - L) * qs,
                            std::size_t(L * qs) * 4);
                std::memcpy(k.data() + (row * T + T - n) * kvs, itemK.data(), itemK.size() * 4);
                std::memcpy(v.data() + (row * T + T - n) * kvs, itemV.data(), itemV.size() * 4);
                std::vector<float> out(std::size_t(batch * L * qs), 99.0f);
                AttentionParams p =
                    denseAttention(q.data(), k.data(), v.data(), out.data(), batch, L, heads,
                                   kvHeads, dim, start.data(), length.data(), true);
                p.kv_len = T;
                attentionCpu(p, 0, attentionUnits(p), isa);
                QVERIFY(sameBits(out.data() + row * L * qs, full.data() + (n - L) * qs,
                                 std::size_t(L * qs)));
            }
        }
    }

    void attentionRefusesInconsistentShapes() {
        std::vector<float> buf(64);
        std::vector<std::int64_t> start{2}, length{3};
        AttentionParams p;
        p.q = p.k = p.v = buf.data();
        p.out = buf.data();
        p.batch = 1;
        p.len = 4; // start 2 + length 3 > 4
        p.heads = 2;
        p.kv_heads = 1;
        p.head_dim = 4;
        p.q_row_stride = 8;
        p.kv_row_stride = 4;
        p.start = start.data();
        p.length = length.data();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionCpu(p, 0, 2));
        p.len = 5;
        p.kv_heads = 3; // 2 heads cannot share 3 key heads
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionCpu(p, 0, 2));
        p.kv_heads = 1;
        p.kv_row_stride = 3; // shorter than a position's key heads
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionCpu(p, 0, 2));
    }

    // The mean pool reads each row's real tokens; a range outside the batch, or an empty one
    // (a division by zero), is refused before anything is read.
    void meanPoolRefusesRowsOutsideTheBatch() {
        std::vector<float> hidden(2 * 4 * 3, 1.0f), out(2 * 3);
        std::vector<std::int64_t> start{0, 2}, length{4, 2};
        MeanPoolParams p;
        p.hidden = hidden.data();
        p.out = out.data();
        p.batch = 2;
        p.len = 4;
        p.h = 3;
        p.start = start.data();
        p.length = length.data();
        meanPoolCpu(p);
        QCOMPARE(out[5], 1.0f);
        length[1] = 3; // 2 + 3 > 4
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meanPoolCpu(p));
        length[1] = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meanPoolCpu(p));
        length[1] = 1;
        start[1] = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meanPoolCpu(p));
    }

    void activationsAreElementwiseAndAccurate() {
        const auto x = randomVec(1000, 16, 4.0f);
        std::vector<float> y(x.size()), y2(7);
        for (Activation f :
             {Activation::Silu, Activation::GeluErf, Activation::GeluTanh, Activation::Tanh}) {
            activationCpu(f, x.data(), y.data(), std::int64_t(x.size()));
            activationCpu(f, x.data() + 333, y2.data(), 7); // a slice at another offset
            QVERIFY(sameBits(y2.data(), y.data() + 333, 7));
            for (std::size_t i = 0; i < x.size(); ++i) {
                const double v = x[i];
                const double want =
                    f == Activation::Silu      ? v / (1 + std::exp(-v))
                    : f == Activation::GeluErf ? 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))
                    : f == Activation::GeluTanh
                        ? 0.5 * v *
                              (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)))
                        : std::tanh(v);
                QVERIFY(close(y[i], want, 1e-6, 1e-5));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestInvariantKernels)
#include "test_invariant_kernels.moc"
