// Ledger throughput (issue bars): inserting item records with `hashes` capture of a 32-layer
// model (33 hidden states: embeddings + 32 layers), one transaction per batch as the runner
// writes them, then sealing the run, then reading two runs of N items back into memory, then
// a full comparison of the two (reading included, as `probaudit compare` does it), then
// `verify` of the whole ledger (every run's records rehashed, every link and table checked).
// Synthetic records of the real size; prints one JSON object.
// With --merge-shards S it measures `probaudit merge` instead: S shard ledgers (meta "shard"
// I/S, each with the whole study's items and every run's share of whole batches), written
// first, then merged into one sealed ledger and verified.
//
//   build/default/bin/ledger_bench [--items 100000] [--runs 2] [--batch 8] [--layers 32]
//                                  [--classes 2] [--merge-shards S]
#include "core/analysis/compare.h"
#include "core/ledger/ledger.h"
#include "core/ledger/merge.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <unistd.h>

using namespace probaudit;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Shape {
    std::int64_t items = 100000, runs = 2, batch = 8, layers = 32, classes = 2;
};

std::vector<ledger::Item> makeItems(const Shape& s) {
    std::vector<ledger::Item> its;
    for (std::int64_t i = 0; i < s.items; ++i) {
        its.push_back({i, "item-" + std::to_string(i),
                       "synthetic text of a typical review sentence " + std::to_string(i),
                       int(i % s.classes), i + 1});
    }
    return its;
}

// Items [first, last) of one run: synthetic values of the real size.
std::vector<ledger::Record> makeRecords(const Shape& s, std::int64_t first, std::int64_t last,
                                        std::mt19937_64& gen) {
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<ledger::Record> all;
    for (std::int64_t i = first; i < last; ++i) {
        ledger::Record& r = all.emplace_back();
        r.item = i;
        r.tokens = 20 + i % 50;
        for (std::int64_t c = 0; c < s.classes; ++c) {
            r.logits.push_back(u(gen) * 10);
            r.probs.push_back(u(gen));
        }
        r.decision = 1;
        r.margin = u(gen);
        r.batch = i / s.batch;
        r.row = i % s.batch;
        r.padded_length = 64;
        r.batch_seconds = 0.01;
        for (std::int64_t l = 0; l <= s.layers; ++l) {
            r.layer_hashes.push_back(gen());
        }
    }
    return all;
}

void appendInBatches(ledger::Ledger& led, std::int64_t run, const Shape& s,
                     const std::vector<ledger::Record>& all) {
    for (std::size_t b = 0; b < all.size(); b += std::size_t(s.batch)) {
        led.appendBatch(
            run, std::vector<ledger::Record>(
                     all.begin() + std::ptrdiff_t(b),
                     all.begin() + std::ptrdiff_t(std::min(all.size(), b + std::size_t(s.batch)))));
    }
}

// S shard ledgers of the study, merged: what `probaudit merge` costs.
nlohmann::json mergeBench(const Shape& s, std::int64_t shards, const std::string& dir) {
    const auto items = makeItems(s);
    const std::int64_t batches = (s.items + s.batch - 1) / s.batch;
    std::vector<std::string> paths;
    std::mt19937_64 gen(1);
    const auto t0 = Clock::now();
    for (std::int64_t k = 0; k < shards; ++k) {
        paths.push_back(dir + "/shard-" + std::to_string(k + 1) + ".ledger");
        ledger::Ledger led(paths.back(), ledger::Ledger::Mode::Write);
        led.initStudy({{"name", "bench"}}, "0", items);
        led.setMeta("shard", std::to_string(k + 1) + "/" + std::to_string(shards));
        const std::string env = led.putEnvironment({{"bench", true}});
        const std::int64_t first = std::min(s.items, batches * k / shards * s.batch);
        const std::int64_t last = std::min(s.items, batches * (k + 1) / shards * s.batch);
        for (std::int64_t runNo = 0; runNo < s.runs; ++runNo) {
            const std::string cfg = "config" + std::to_string(runNo);
            led.putConfig(cfg, cfg, {{"batch_size", s.batch}});
            const auto run = led.beginRun("h", {{"kind", "label_tokens"}}, cfg, cfg, env, "hashes",
                                          last - first);
            appendInBatches(led, run, s, makeRecords(s, first, last, gen));
            led.finishRun(run);
        }
    }
    const double write = since(t0);
    const std::string out = dir + "/merged.ledger";
    const auto t1 = Clock::now();
    const ledger::MergeResult m = ledger::mergeShards(paths, out);
    const double merge = since(t1);
    const ledger::Ledger merged(out, ledger::Ledger::Mode::Read);
    const auto v = merged.verify();
    return {{"shards", shards},        {"items", s.items},
            {"run_count", s.runs},     {"write_shards_seconds", write},
            {"merge_seconds", merge},  {"merged_runs", m.runs},
            {"merged_items", m.items}, {"merged_verify_ok", v.ok}};
}

} // namespace

int main(int argc, char** argv) {
    Shape shape;
    std::int64_t mergeShards = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const std::int64_t v = std::atoll(argv[i + 1]);
        if (a == "--items")
            shape.items = v;
        else if (a == "--runs")
            shape.runs = std::max<std::int64_t>(2, v);
        else if (a == "--batch")
            shape.batch = v;
        else if (a == "--layers")
            shape.layers = v;
        else if (a == "--classes")
            shape.classes = v;
        else if (a == "--merge-shards")
            mergeShards = v;
    }
    const auto [items, runs, batch, layers, classes] = shape;
    const std::string dir =
        std::filesystem::temp_directory_path() / ("ledger_bench." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    if (mergeShards > 0) {
        const nlohmann::json m = mergeBench(shape, mergeShards, dir);
        std::filesystem::remove_all(dir);
        std::cout << m.dump(2) << std::endl;
        return 0;
    }
    const std::string path = dir + "/bench.ledger";
    nlohmann::json out{{"items", items},
                       {"run_count", runs},
                       {"batch", batch},
                       {"layers", layers},
                       {"classes", classes}};
    {
        ledger::Ledger led(path, ledger::Ledger::Mode::Write);
        led.initStudy({{"name", "bench"}}, "0", makeItems(shape));
        const std::string env = led.putEnvironment({{"bench", true}});
        std::mt19937_64 gen(1);
        for (std::int64_t runNo = 0; runNo < runs; ++runNo) {
            const std::string cfg = "config" + std::to_string(runNo);
            led.putConfig(cfg, cfg, {{"batch_size", batch}});
            const auto run =
                led.beginRun("h", {{"kind", "label_tokens"}}, cfg, cfg, env, "hashes", items);
            // Records made up front: the benchmark measures the ledger, not the generator.
            const std::vector<ledger::Record> all = makeRecords(shape, 0, items, gen);
            const auto t0 = Clock::now();
            appendInBatches(led, run, shape, all);
            const double insert = since(t0);
            const auto t1 = Clock::now();
            led.finishRun(run);
            const double seal = since(t1);
            out["runs"].push_back({{"insert_seconds", insert},
                                   {"records_per_second", double(items) / insert},
                                   {"seal_seconds", seal}});
        }
    }
    {
        const ledger::Ledger led(path, ledger::Ledger::Mode::Read);
        const auto t0 = Clock::now();
        const auto a = led.records(1, true);
        const auto b = led.records(2, true);
        const double read = since(t0);
        // What `probaudit compare` does: read both runs and compare them in full.
        const auto t1 = Clock::now();
        const auto stored = led.items();
        analysis::RunData ra{led.run(1), led.records(1, true)};
        analysis::RunData rb{led.run(2), led.records(2, true)};
        const auto cmp = analysis::compare(ra, rb, stored);
        out["compare_two_runs_seconds"] = since(t1);
        out["compare_flips"] = cmp.flips;
        out["read_two_runs_seconds"] = read;
        out["read_records"] = a.size() + b.size();
        out["file_mib"] = double(std::filesystem::file_size(path)) / (1 << 20);
        const auto t2 = Clock::now();
        const auto v = led.verify();
        out["verify_seconds"] = since(t2);
        out["verify_ok"] = v.ok;
        out["verify_sealed_runs"] = v.sealed;
    }
    std::filesystem::remove_all(dir);
    std::cout << out.dump(2) << std::endl;
    return 0;
}
