// Ledger throughput (issue bars): inserting item records with `hashes` capture of a 32-layer
// model (33 hidden states: embeddings + 32 layers), one transaction per batch as the runner
// writes them, then sealing the run, then reading two runs of N items back into memory, then
// a full comparison of the two (reading included, as `probaudit compare` does it), then
// `verify` of the whole ledger (every run's records rehashed, every link and table checked).
// Synthetic records of the real size; prints one JSON object.
//
//   build/default/bin/ledger_bench [--items 100000] [--runs 2] [--batch 8] [--layers 32]
//                                  [--classes 2]
#include "analysis/compare.h"
#include "ledger/ledger.h"

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

} // namespace

int main(int argc, char** argv) {
    std::int64_t items = 100000, runs = 2, batch = 8, layers = 32, classes = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const std::int64_t v = std::atoll(argv[i + 1]);
        if (a == "--items")
            items = v;
        else if (a == "--runs")
            runs = std::max<std::int64_t>(2, v);
        else if (a == "--batch")
            batch = v;
        else if (a == "--layers")
            layers = v;
        else if (a == "--classes")
            classes = v;
    }
    const std::string dir =
        std::filesystem::temp_directory_path() / ("ledger_bench." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/bench.ledger";
    nlohmann::json out{{"items", items},
                       {"run_count", runs},
                       {"batch", batch},
                       {"layers", layers},
                       {"classes", classes}};
    {
        ledger::Ledger led(path, ledger::Ledger::Mode::Write);
        std::vector<ledger::Item> its;
        for (std::int64_t i = 0; i < items; ++i) {
            its.push_back({i, "item-" + std::to_string(i),
                           "synthetic text of a typical review sentence " + std::to_string(i),
                           int(i % classes), i + 1});
        }
        led.initStudy({{"name", "bench"}}, "0", its);
        const std::string env = led.putEnvironment({{"bench", true}});
        std::mt19937_64 gen(1);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        for (std::int64_t runNo = 0; runNo < runs; ++runNo) {
            const std::string cfg = "config" + std::to_string(runNo);
            led.putConfig(cfg, cfg, {{"batch_size", batch}});
            const auto run =
                led.beginRun("h", {{"kind", "label_tokens"}}, cfg, cfg, env, "hashes", items);
            // Records made up front: the benchmark measures the ledger, not the generator.
            std::vector<ledger::Record> all(static_cast<std::size_t>(items));
            for (std::int64_t i = 0; i < items; ++i) {
                auto& r = all[std::size_t(i)];
                r.item = i;
                r.tokens = 20 + i % 50;
                for (std::int64_t c = 0; c < classes; ++c) {
                    r.logits.push_back(u(gen) * 10);
                    r.probs.push_back(u(gen));
                }
                r.decision = 1;
                r.margin = u(gen);
                r.batch = i / batch;
                r.row = i % batch;
                r.padded_length = 64;
                r.batch_seconds = 0.01;
                for (std::int64_t l = 0; l <= layers; ++l) {
                    r.layer_hashes.push_back(gen());
                }
            }
            const auto t0 = Clock::now();
            for (std::int64_t b = 0; b < items; b += batch) {
                led.appendBatch(
                    run, std::vector<ledger::Record>(all.begin() + b,
                                                     all.begin() + std::min(items, b + batch)));
            }
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
