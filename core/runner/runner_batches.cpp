#include "core/runner/runner_batches.h"

#include "core/engine/engine.h"
#include "core/engine/heads.h"

#include <algorithm>
#include <chrono>

namespace probaudit::runner {

using nlohmann::json;

namespace {

std::int64_t paddedLength(const RunConfig& c, std::int64_t longest) {
    if (c.pad_to == PadTo::Multiple) {
        return (longest + c.pad_to_n - 1) / c.pad_to_n * c.pad_to_n;
    }
    return c.pad_to == PadTo::Fixed ? c.pad_to_n : longest;
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

RunnerTrace runRunnerBatches(TransformersRunner& tr, const std::vector<const RunnerItem*>& items,
                             const HeadSpec& head, const RunConfig& config,
                             const std::string& capture, const std::vector<bool>& skip, bool trace,
                             const RunnerBatchSink& sink) {
    std::vector<std::int64_t> lengths;
    for (const RunnerItem* it : items) {
        lengths.push_back(static_cast<std::int64_t>(it->ids.size()));
    }
    const auto skipped = [&](std::size_t k) { return !skip.empty() && skip[k]; };
    const engine::RunPlan plan = engine::Engine::plan(lengths, config);
    std::vector<std::size_t> todo; // the batches to send; the others were recorded before
    for (std::size_t b = 0; b < plan.batches.size(); ++b) {
        if (!std::all_of(plan.batches[b].begin(), plan.batches[b].end(), skipped)) {
            todo.push_back(b);
        }
    }
    const auto send = [&](std::size_t b) {
        std::vector<std::vector<std::int64_t>> rows;
        for (std::size_t k : plan.batches[b]) {
            rows.push_back(items[k]->ids);
        }
        return tr.sendForward(rows, config, capture);
    };
    // Each batch's records, with its seconds: from the reply before it (when the runner began
    // it) to its own.
    auto last = std::chrono::steady_clock::now();
    const auto record = [&](std::size_t b, std::int64_t id) {
        const auto& members = plan.batches[b];
        std::vector<RunnerRecord> got = tr.receiveForward(id, members.size(), capture);
        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - last).count();
        last = now;
        std::int64_t longest = 0;
        for (std::size_t k : members) {
            longest = std::max(longest, lengths[k]);
        }
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
        return sink(std::move(recs), seconds);
    };
    if (trace) {
        tr.traceStart();
    }
    last = std::chrono::steady_clock::now();
    // One batch ahead: the runner computes batch i + 1 while batch i is decided and recorded
    // here. A stop after batch i records batch i + 1 too (it was computed), then ends.
    std::int64_t due = todo.empty() ? 0 : send(todo[0]);
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const std::int64_t id = due;
        due = i + 1 < todo.size() ? send(todo[i + 1]) : 0;
        if (!record(todo[i], id)) {
            if (due != 0) {
                record(todo[i + 1], due);
            }
            break;
        }
    }
    return trace ? tr.traceStop() : RunnerTrace{};
}

} // namespace probaudit::runner
