// GPU: every CUDA kernel of kernels/ against its CPU reference (llm.c's tol + |ref|·eps, bitwise
// where the orders make the bits equal), non-finite checks, and sentinel words around every
// output to catch stray writes. Skips (exit 77) without a CUDA device.
#include "../kernel_test_data.h"
#include "harness.h"
#include "kernels/invariant_cuda.h"
#include "kernels/row_hash.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace probaudit::kernels;
using kernel_test::denseAttention;
using kernel_test::randomVec;

namespace {

constexpr int kGuard = 64;                           // elements of sentinel on each side
constexpr std::uint32_t kSentinelBits = 0x7FBADBADu; // a NaN no kernel writes

// A device copy of a host array, or an output of n elements, with sentinels around it.
template <typename T> struct Guarded {
    std::size_t n;
    T* base = nullptr;
    explicit Guarded(std::size_t count, const T* init = nullptr) : n(count) {
        std::vector<T> host(n + 2 * kGuard);
        for (auto& x : host) {
            std::memset(&x, 0, sizeof(T));
            std::memcpy(&x, &kSentinelBits, std::min(sizeof(T), sizeof(kSentinelBits)));
        }
        if (init != nullptr) {
            std::copy(init, init + n, host.begin() + kGuard);
        }
        const cudaError_t made = cudaMalloc(&base, host.size() * sizeof(T));
        GPU_CHECK(made == cudaSuccess, "cudaMalloc: %s", cudaGetErrorString(made));
        const cudaError_t copied =
            cudaMemcpy(base, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
        GPU_CHECK(copied == cudaSuccess, "cudaMemcpy to the device: %s",
                  cudaGetErrorString(copied));
    }
    ~Guarded() { cudaFree(base); }
    T* ptr() { return base + kGuard; }
    // The n elements back; checks the sentinels.
    std::vector<T> fetch(const char* what) {
        const cudaError_t ran = cudaDeviceSynchronize();
        GPU_CHECK(ran == cudaSuccess, "%s: %s", what, cudaGetErrorString(ran));
        std::vector<T> host(n + 2 * kGuard);
        const cudaError_t copied =
            cudaMemcpy(host.data(), base, host.size() * sizeof(T), cudaMemcpyDeviceToHost);
        GPU_CHECK(copied == cudaSuccess, "%s: copy back: %s", what, cudaGetErrorString(copied));
        for (int i = 0; i < kGuard; ++i) {
            for (std::size_t at : {std::size_t(i), n + kGuard + std::size_t(i)}) {
                std::uint32_t bits = 0;
                std::memcpy(&bits, &host[at], std::min(sizeof(T), sizeof(bits)));
                GPU_CHECK(bits == kSentinelBits || sizeof(T) < 4, "%s: a sentinel was overwritten",
                          what);
            }
        }
        return std::vector<T>(host.begin() + kGuard, host.begin() + kGuard + std::ptrdiff_t(n));
    }
};

void compare(const char* what, const std::vector<float>& got, const std::vector<float>& ref,
             double tol, double eps, bool bitwise) {
    double worst = 0;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        GPU_CHECK(std::isfinite(got[i]) || !std::isfinite(ref[i]), "%s: non-finite at %zu", what,
                  i);
        const double err = std::abs(double(got[i]) - ref[i]);
        worst = std::max(worst, err - (tol + std::abs(ref[i]) * eps));
        differing += std::memcmp(&got[i], &ref[i], 4) != 0 ? 1 : 0;
    }
    GPU_CHECK(worst <= 0, "%s: exceeds tol + |ref|*eps by %g", what, worst);
    if (bitwise) {
        GPU_CHECK(differing == 0, "%s: %zu of %zu elements differ in bits from the CPU", what,
                  differing, ref.size());
    }
    std::printf("  %s: %zu of %zu elements differ in bits from the CPU reference\n", what,
                differing, ref.size());
}

} // namespace

GPU_CASE(matmulMatchesCpuBitwise) {
    for (auto [m, n, k, bias] : {std::tuple{1, 1, 1, false},
                                 {7, 33, 17, true},
                                 {130, 100, 384, false},
                                 {64, 1536, 576, true},
                                 {300, 576, 1536, true}}) {
        const auto a = randomVec(std::size_t(m * k), 1);
        const auto w = randomVec(std::size_t(n * k), 2, 0.05f);
        const auto b = randomVec(std::size_t(n), 3);
        std::vector<float> ref(std::size_t(m * n));
        MatmulParams p;
        p.a = a.data();
        p.m = m;
        p.k = k;
        p.lda = k;
        p.w = w.data();
        p.bias = bias ? b.data() : nullptr;
        p.c = ref.data();
        p.n = n;
        p.ldc = n;
        matmulReference(p);
        Guarded<float> da(a.size(), a.data()), dw(w.size(), w.data()), db(b.size(), b.data()),
            dc(ref.size());
        p.a = da.ptr();
        p.w = dw.ptr();
        p.bias = bias ? db.ptr() : nullptr;
        p.c = dc.ptr();
        matmulCuda(p, nullptr);
        compare(("matmul " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k))
                    .c_str(),
                dc.fetch("matmul"), ref, 1e-6, 1e-6, true);
    }
}

GPU_CASE(normsMatchCpuBitwise) {
    for (auto [rms, h] : {std::pair{false, 384}, {false, 37}, {true, 576}, {true, 64}}) {
        const std::int64_t rows = 33;
        auto x = randomVec(std::size_t(rows * h), 6, 3.0f);
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
        p.ldy = h;
        std::vector<float> ref(x.size());
        p.y = ref.data();
        normCpu(p, 0, rows);
        Guarded<float> dx(x.size(), x.data()), dw(w.size(), w.data()), dbias(b.size(), b.data()),
            dy(x.size());
        p.x = dx.ptr();
        p.weight = dw.ptr();
        p.bias = rms ? nullptr : dbias.ptr();
        p.y = dy.ptr();
        normCuda(p, nullptr);
        compare(rms ? "rmsnorm" : "layernorm", dy.fetch("norm"), ref, 1e-6, 1e-6, true);
    }
}

namespace {

// One attention shape: q [B, L, heads, dim], k and v [B, T, kvHeads, dim] (T > L: cached keys),
// row ranges over the T keys; the CUDA kernel against attentionCpu. With deviceRanges the
// ranges go to the kernel already on the device, as the engine hands them over.
struct AttentionCase {
    const char* name;
    std::int64_t batch, len, keys, heads, kvHeads, dim;
    std::vector<std::int64_t> start, length;
    bool causal;
    bool deviceRanges;
    float qkScale; // spread of q and k
};

void checkAttentionCase(const AttentionCase& c, std::uint32_t seed) {
    const std::int64_t qs = c.heads * c.dim, kvs = c.kvHeads * c.dim;
    const auto q = randomVec(std::size_t(c.batch * c.len * qs), seed, c.qkScale);
    const auto k = randomVec(std::size_t(c.batch * c.keys * kvs), seed + 1, c.qkScale);
    const auto v = randomVec(std::size_t(c.batch * c.keys * kvs), seed + 2);
    std::vector<float> ref(q.size());
    AttentionParams p =
        denseAttention(q.data(), k.data(), v.data(), ref.data(), c.batch, c.len, c.heads, c.kvHeads,
                       c.dim, c.start.data(), c.length.data(), c.causal);
    p.kv_len = c.keys;
    attentionCpu(p, 0, attentionUnits(p));
    std::vector<std::int64_t> ranges = c.start;
    ranges.insert(ranges.end(), c.length.begin(), c.length.end());
    Guarded<float> dq(q.size(), q.data()), dk(k.size(), k.data()), dv(v.size(), v.data()),
        dout(ref.size());
    Guarded<std::int64_t> dranges(ranges.size(), ranges.data());
    p.q = dq.ptr();
    p.k = dk.ptr();
    p.v = dv.ptr();
    p.out = dout.ptr();
    attentionCuda(p, nullptr, c.deviceRanges ? dranges.ptr() : nullptr);
    compare(c.name, dout.fetch(c.name), ref, 1e-6, 1e-5, false);
}

} // namespace

GPU_CASE(attentionMatchesCpu) {
    checkAttentionCase(
        {"attention", 3, 40, 40, 4, 4, 32, {0, 5, 28}, {40, 30, 12}, false, false, 1.0f}, 10);
    checkAttentionCase(
        {"attention causal gqa", 3, 40, 40, 9, 3, 64, {0, 5, 28}, {40, 30, 12}, true, false, 1.0f},
        10);
}

// Keys from a KV cache (kv_len > len, the decode step of generation) with left-padded rows, and
// the ranges handed over on the device as the engine does: the CPU reference's values.
GPU_CASE(attentionWithCachedKeysMatchesCpu) {
    checkAttentionCase(
        {"attention, cached keys", 3, 2, 45, 6, 2, 64, {0, 7, 40}, {45, 38, 5}, true, true, 1.0f},
        30);
}

// More keys than the default 48 KiB of shared memory holds (13000 cached keys, 4 queries): the
// launch asks for more.
GPU_CASE(attentionBeyondDefaultSharedMemoryMatchesCpu) {
    checkAttentionCase(
        {"attention, 13000 keys", 1, 4, 13000, 2, 2, 32, {0}, {13000}, true, true, 0.1f}, 33);
}

GPU_CASE(elementwiseMatchCpu) {
    const auto x = randomVec(5000, 16, 4.0f);
    const auto u = randomVec(5000, 17);
    for (Activation f : {Activation::Silu, Activation::GeluErf, Activation::GeluTanh,
                         Activation::Relu, Activation::Tanh}) {
        std::vector<float> ref(x.size());
        activationCpu(f, x.data(), ref.data(), std::int64_t(x.size()));
        Guarded<float> dx(x.size(), x.data()), dy(x.size());
        activationCuda(f, dx.ptr(), dy.ptr(), std::int64_t(x.size()), nullptr);
        // CUDA's erff/tanhf/expf are within 2 ulp of the rounded result, glibc's within 1: for
        // GELU at x near -4 the bracket 1 + erf(..) is a difference of values near 1 (ulp 6e-8)
        // times x/2, so absolute errors of ~2e-7 appear where |ref| is only 1e-4. The CPU
        // suite's tolerance against double precision (1e-6 + 1e-5|ref|) is used here too.
        compare("activation", dy.fetch("activation"), ref, 1e-6, 1e-5, false);
    }
    std::vector<float> ref(x.size());
    siluMulCpu(x.data(), u.data(), ref.data(), std::int64_t(x.size()));
    Guarded<float> dg(x.size(), x.data()), du(u.size(), u.data()), dy(x.size());
    siluMulCuda(dg.ptr(), du.ptr(), dy.ptr(), std::int64_t(x.size()), nullptr);
    compare("silu*up", dy.fetch("silu_mul"), ref, 1e-6, 1e-5, false);
}

GPU_CASE(ropeMatchesCpu) {
    const std::int64_t rows = 50, heads = 3, dim = 64;
    const auto x = randomVec(std::size_t(rows * heads * dim), 18);
    std::vector<std::int64_t> pos(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) {
        pos[std::size_t(r)] = (r * 37) % 2000;
    }
    std::vector<float> inv(static_cast<std::size_t>(dim / 2));
    for (std::int64_t i = 0; i < dim / 2; ++i) {
        inv[std::size_t(i)] = std::pow(10000.0f, -2.0f * float(i) / float(dim));
    }
    RopeParams p;
    p.x = x.data();
    p.positions = pos.data();
    p.inv_freq = inv.data();
    p.rows = rows;
    p.heads = heads;
    p.dim = dim;
    std::vector<float> ref(x.size());
    p.y = ref.data();
    ropeCpu(p, 0, rows);
    Guarded<float> dx(x.size(), x.data()), dinv(inv.size(), inv.data()), dy(x.size());
    Guarded<std::int64_t> dpos(pos.size(), pos.data());
    p.x = dx.ptr();
    p.inv_freq = dinv.ptr();
    p.positions = dpos.ptr();
    p.y = dy.ptr();
    ropeCuda(p, nullptr);
    compare("rope", dy.fetch("rope"), ref, 1e-5, 1e-5, false);
}

GPU_CASE(poolingAndNormalizeMatchCpuBitwise) {
    const std::int64_t B = 4, L = 30, H = 384;
    const auto h = randomVec(std::size_t(B * L * H), 19);
    std::vector<std::int64_t> start{0, 10, 0, 29}, length{30, 20, 1, 1};
    MeanPoolParams p;
    p.hidden = h.data();
    p.batch = B;
    p.len = L;
    p.h = H;
    p.start = start.data();
    p.length = length.data();
    std::vector<float> ref(std::size_t(B * H));
    p.out = ref.data();
    meanPoolCpu(p);
    Guarded<float> dh(h.size(), h.data()), dout(ref.size());
    p.hidden = dh.ptr();
    p.out = dout.ptr();
    meanPoolCuda(p, nullptr);
    compare("mean pool", dout.fetch("mean_pool"), ref, 0, 0, true);

    std::vector<float> norm = ref;
    l2NormalizeCpu(norm.data(), B, H);
    Guarded<float> dn(ref.size(), ref.data());
    l2NormalizeCuda(dn.ptr(), B, H, nullptr);
    compare("l2 normalize", dn.fetch("l2_normalize"), norm, 0, 0, true);
}

GPU_CASE(rowDivergenceMatchesCpu) {
    const std::int64_t rows = 6, n = 1000;
    const auto a = randomVec(std::size_t(rows * n), 20);
    auto b = a;
    for (std::size_t i = 0; i < b.size(); i += 7) {
        b[i] = std::nextafter(b[i], 1e9f);
    }
    std::vector<double> d2(rows), r2(rows);
    std::vector<float> mx(rows);
    std::vector<std::int64_t> diff(rows);
    RowDivergenceParams p{a.data(), b.data(),  rows,      n,         n,
                          n,        d2.data(), r2.data(), mx.data(), diff.data()};
    rowDivergenceCpu(p);
    Guarded<float> da(a.size(), a.data()), dbv(b.size(), b.data());
    Guarded<double> dd2(rows), dr2(rows);
    Guarded<float> dmx(rows);
    Guarded<std::int64_t> ddiff(rows);
    RowDivergenceParams g{da.ptr(), dbv.ptr(), rows,      n,         n,
                          n,        dd2.ptr(), dr2.ptr(), dmx.ptr(), ddiff.ptr()};
    rowDivergenceCuda(g, nullptr);
    const auto gd2 = dd2.fetch("sq_diff");
    const auto gr2 = dr2.fetch("sq_ref");
    const auto gmx = dmx.fetch("max_abs");
    const auto gdiff = ddiff.fetch("differing");
    for (std::int64_t r = 0; r < rows; ++r) {
        GPU_CHECK(gdiff[std::size_t(r)] == diff[std::size_t(r)], "row %ld: %ld vs %ld differing",
                  long(r), long(gdiff[std::size_t(r)]), long(diff[std::size_t(r)]));
        GPU_CHECK(gmx[std::size_t(r)] == mx[std::size_t(r)], "row %ld: max differs", long(r));
        GPU_CHECK(std::abs(gd2[std::size_t(r)] - d2[std::size_t(r)]) <=
                      1e-12 * d2[std::size_t(r)] + 1e-30,
                  "row %ld: sq_diff", long(r));
        GPU_CHECK(std::abs(gr2[std::size_t(r)] - r2[std::size_t(r)]) <= 1e-12 * r2[std::size_t(r)],
                  "row %ld: sq_ref", long(r));
    }
}

GPU_CASE(rowHashMatchesCpu) {
    for (auto [rows, rowBytes, stride] : {std::tuple{3, 0, 0},
                                          {7, 13, 16},
                                          {64, 384 * 4, 384 * 4},
                                          {8, 128 * 576 * 4, 128 * 576 * 4}}) {
        std::vector<unsigned char> host(std::size_t(rows) * std::size_t(stride) + 1);
        std::mt19937 gen(21);
        for (auto& x : host) {
            x = static_cast<unsigned char>(gen());
        }
        std::vector<std::uint64_t> cpu(static_cast<std::size_t>(rows));
        rowHashCpu(RowHashParams{host.data(), rows, rowBytes, stride, cpu.data()});
        Guarded<unsigned char> dd(host.size(), host.data());
        Guarded<std::uint64_t> dout(cpu.size());
        rowHashCuda(RowHashParams{dd.ptr(), rows, rowBytes, stride, dout.ptr()}, nullptr);
        GPU_CHECK(dout.fetch("row_hash") == cpu, "row hash %d x %d differs from the CPU", rows,
                  rowBytes);
    }
}

int main(int argc, char** argv) {
    return gpu_test::runAll(argc, argv);
}
