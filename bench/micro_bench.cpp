// C++ micro-benchmarks (Google Benchmark, Debian's libbenchmark-dev): the pieces every review
// and every run repeat, on synthetic data of the real size, in memory (no SQLite):
//   BM_Compare        analysis::compare of two runs of N items with 33 layer hashes each
//   BM_RecordsSha256  SHA-256 over the records' bytes, as the ledger's seal does it
//   BM_RowHash/isa    the pa64 row hash capture `hashes` takes of every layer: one MiniLM hidden
//                     state at batch 8 (8 x 40 x 384 floats), per instruction set (0 plain,
//                     1 AVX2, 2 AVX-512; skipped where the CPU lacks it)
//   BM_KvCache/mode   one SmolLM2 layer's KV cache through a generation at batch 8: a prefill of
//                     40 positions, then 128 decode steps (0: grown by concatenation, each step
//                     copying the whole cache; 1: written in place, engine::KvCache)
//
//   build/default/bin/micro_bench [--benchmark_filter=Compare] [--benchmark_format=json]
#include "core/analysis/compare.h"
#include "core/common/sha256.h"
#include "core/engine/transformer.h"
#include "kernels/row_hash.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>

using namespace probaudit;

namespace {

analysis::RunData makeRun(std::int64_t items, int layers, std::uint64_t salt, double jitter) {
    analysis::RunData rd;
    rd.run.id = std::int64_t(salt);
    std::mt19937_64 gen(7);
    std::normal_distribution<double> gap(0.0, 2.0);
    for (std::int64_t i = 0; i < items; ++i) {
        ledger::Record r;
        r.item = i;
        const double g = gap(gen) + (i % 3 == 0 ? jitter : 0.0);
        r.logits = {float(-g / 2), float(g / 2)};
        const double p1 = 1.0 / (1.0 + std::exp(-g));
        r.probs = {float(1 - p1), float(p1)};
        r.decision = g >= 0 ? 1 : 0;
        r.margin = float(std::abs(g));
        for (int l = 0; l <= layers; ++l) {
            r.layer_hashes.push_back(std::uint64_t(i * 131 + l) ^ (i % 3 == 0 && l > 0 ? salt : 0));
        }
        rd.records.push_back(std::move(r));
    }
    return rd;
}

void BM_Compare(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    const auto a = makeRun(n, 32, 1, 0);
    const auto b = makeRun(n, 32, 2, 1e-6);
    std::vector<ledger::Item> items(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        items[std::size_t(i)].idx = i;
        items[std::size_t(i)].label = int(i % 2);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(analysis::compare(a, b, items));
    }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_Compare)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_RecordsSha256(benchmark::State& state) {
    const std::vector<std::uint8_t> bytes(std::size_t(state.range(0)), 0x5a);
    for (auto _ : state) {
        Sha256 h;
        h.update(bytes.data(), bytes.size());
        benchmark::DoNotOptimize(h.hex());
    }
    state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RecordsSha256)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_RowHash(benchmark::State& state) {
    const auto isa = static_cast<kernels::HashIsa>(state.range(0));
    if (!kernels::hashIsaSupported(isa)) {
        state.SkipWithError("this CPU lacks the instruction set");
        return;
    }
    std::vector<float> hidden(8 * 40 * 384);
    for (std::size_t i = 0; i < hidden.size(); ++i) {
        hidden[i] = float(i) * 1e-3f;
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            kernels::hashBytesWith(isa, hidden.data(), hidden.size() * sizeof(float)));
    }
    state.SetLabel(kernels::hashIsaName(isa));
    state.SetBytesProcessed(state.iterations() * std::int64_t(hidden.size() * sizeof(float)));
}
BENCHMARK(BM_RowHash)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_KvCache(benchmark::State& state) {
    const auto kv = [](std::int64_t t) { return at::randn({8, 3, t, 64}); }; // SmolLM2's kv heads
    const at::Tensor prefillK = kv(40), prefillV = kv(40);
    std::vector<at::Tensor> stepK, stepV;
    for (int i = 0; i < 128; ++i) {
        stepK.push_back(kv(1));
        stepV.push_back(kv(1));
    }
    for (auto _ : state) {
        engine::KvCache cache;
        cache.grow_in_place = state.range(0) == 1;
        cache.reserve = 128;
        at::Tensor k = prefillK, v = prefillV;
        cache.append(0, k, v, 2);
        for (std::size_t i = 0; i < stepK.size(); ++i) {
            k = stepK[i];
            v = stepV[i];
            cache.append(0, k, v, 2);
        }
        benchmark::DoNotOptimize(k.data_ptr());
    }
    state.SetLabel(state.range(0) == 1 ? "in place" : "concatenation");
}
BENCHMARK(BM_KvCache)->DenseRange(0, 1)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
