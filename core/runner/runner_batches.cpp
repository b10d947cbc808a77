#include "runner/runner_batches.h"

#include "engine/engine.h"
#include "engine/heads.h"

#include <algorithm>
#include <chrono>

namespace probaudit::runner {

using nlohmann::json;

namespace {

std::int64_t paddedLength(const RunConfig& c, std::int64_t longest) {
    if (c.pad_to == "multiple") {
        return (longest + c.pad_to_n - 1) / c.pad_to_n * c.pad_to_n;
    }
    return c.pad_to == "fixed" ? c.pad_to_n : longest;
}

ledger::Record decided(RunnerRecord&& rr, const RunnerItem& item, const HeadSpec& head) {
    ledger::Record o;
    o.tokens = static_cast<std::int64_t>(item.ids.size());
    o.truncated = item.truncated;
    const engine::HeadOutput h = engine::decide(at::tensor(rr.logits, at::kFloat), head.threshold);
    o.probs = h.probs;
    o.logits = h.logits;
    o.decision = h.decision;
    o.margin = h.margin;
    o.nonfinite = h.nonfinite;
    o.layer_hashes = std::move(rr.hashes);
    const std::size_t layers = o.layer_hashes.size();
    if (!rr.vectors.empty() && layers > 0) {
        o.hidden = static_cast<std::int64_t>(rr.vectors.size() / layers);
        o.layer_vectors = std::move(rr.vectors);
    }
    if (!rr.full.empty()) {
        o.full_tokens = o.tokens;
        o.layer_full = std::move(rr.full);
    }
    return o;
}

} // namespace

void addKernelTrace(json& run, const json& batch) {
    for (const char* part : {"ops", "device_kernels"}) {
        if (!batch.contains(part) || !batch[part].is_object()) {
            continue;
        }
        json& into = run[part];
        if (!into.is_object()) {
            into = json::object();
        }
        for (const auto& [name, n] : batch[part].items()) {
            into[name] = into.value(name, std::int64_t(0)) + n.get<std::int64_t>();
        }
    }
    if (batch.contains("device_kernels_unavailable")) {
        run["device_kernels_unavailable"] = batch["device_kernels_unavailable"];
    }
}

void runRunnerBatches(TransformersRunner& tr, const std::vector<const RunnerItem*>& items,
                      const HeadSpec& head, const RunConfig& config, const std::string& capture,
                      const std::vector<bool>& skip, const RunnerBatchSink& sink) {
    const json configJson = config.toJson();
    std::vector<std::int64_t> lengths;
    for (const RunnerItem* it : items) {
        lengths.push_back(static_cast<std::int64_t>(it->ids.size()));
    }
    const auto skipped = [&](std::size_t k) { return !skip.empty() && skip[k]; };
    const engine::RunPlan plan = engine::Engine::plan(lengths, config);
    for (std::size_t b = 0; b < plan.batches.size(); ++b) {
        const auto& members = plan.batches[b];
        if (std::all_of(members.begin(), members.end(), skipped)) {
            continue; // recorded before a resume
        }
        std::vector<std::vector<std::int64_t>> rows;
        std::int64_t longest = 0;
        for (std::size_t k : members) {
            rows.push_back(items[k]->ids);
            longest = std::max(longest, lengths[k]);
        }
        json trace;
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<RunnerRecord> got = tr.forward(rows, configJson, capture, true, &trace);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::vector<ledger::Record> recs;
        for (std::size_t row = 0; row < members.size(); ++row) {
            const std::size_t k = members[row];
            if (skipped(k)) {
                continue;
            }
            recs.push_back(decided(std::move(got[row]), *items[k], head));
            ledger::Record& rec = recs.back();
            rec.item = static_cast<std::int64_t>(k);
            rec.batch = static_cast<std::int64_t>(b);
            rec.row = static_cast<std::int64_t>(row);
            rec.padded_length = paddedLength(config, longest);
            rec.batch_seconds = seconds;
        }
        if (!sink(std::move(recs), seconds, trace)) {
            return;
        }
    }
}

} // namespace probaudit::runner
