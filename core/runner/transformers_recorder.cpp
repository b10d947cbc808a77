#include "core/runner/transformers_recorder.h"

#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/common/vocabulary.h"
#include "core/engine/engine.h" // engine::Item
#include "core/runner/runner_batches.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>

namespace probaudit::runner {

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

// A decision head's run on the transformers runner: its batches, one transaction each, records
// in ledger item order; returns false when stopped.
bool recordRunnerDecisions(TransformersRunner& tr, ledger::Ledger& led, ActiveRun& run,
                           const std::vector<RunnerItem>& all, ProgressEvents& progress,
                           RunnerTrace& trace) {
    std::vector<const RunnerItem*> items;
    for (std::size_t k = 0; k < run.items; ++k) {
        items.push_back(&all.at(std::size_t(run.ledgerItem(k))));
    }
    bool going = true;
    trace =
        runRunnerBatches(tr, items, *run.req.head, run.req.config, run.req.capture, run.skip,
                         /*trace=*/true, [&](std::vector<ledger::Record>&& recs, double seconds) {
                             for (auto& rec : recs) {
                                 rec.item = run.ledgerItem(std::size_t(rec.item));
                             }
                             std::sort(recs.begin(), recs.end(), [](const auto& x, const auto& y) {
                                 return x.item < y.item;
                             });
                             led.appendBatch(run.id, recs);
                             run.doneHere += recs.size();
                             run.forward += seconds;
                             batchCommitted();
                             going = progress(run.doneHere, run.total());
                             return going;
                         });
    return going;
}

// A generation head's run on the transformers runner: static batches of batch_size prompts
// (the engine's generate()), recorded whole in one transaction at the end, as the engine's
// generation runs are; returns false when stopped (nothing recorded).
bool recordRunnerGeneration(TransformersRunner& tr, ledger::Ledger& led, ActiveRun& run,
                            const std::vector<engine::Item>& items, ProgressEvents& progress) {
    const HeadSpec& head = *run.req.head;
    const auto B = static_cast<std::size_t>(run.req.config.batch_size);
    std::vector<ledger::GenerationRecord> recs;
    for (std::size_t first = 0; first < run.items; first += B) {
        std::vector<std::string> prompts;
        for (std::size_t k = first; k < std::min(run.items, first + B); ++k) {
            prompts.push_back(head.prompt(items.at(std::size_t(run.ledgerItem(k))).text));
        }
        const auto t0 = Clock::now();
        for (auto& g : tr.generate(prompts, head)) {
            const std::size_t k = first + std::size_t(g.item);
            g.item = run.ledgerItem(k);
            g.arrival = static_cast<std::int64_t>(k);
            recs.push_back(std::move(g));
        }
        run.forward += std::chrono::duration<double>(Clock::now() - t0).count();
        if (!progress(recs.size(), run.items)) {
            return false;
        }
    }
    led.appendGenerations(run.id, recs);
    run.doneHere = recs.size();
    batchCommitted();
    return true;
}

} // namespace

TransformersRecorder::TransformersRecorder(const RecorderContext& context) : m_ctx(context) {}

TransformersRecorder::~TransformersRecorder() = default;

TransformersRunner& TransformersRecorder::runner(const RunConfig& c) {
    const std::string key = c.env + "\n" + nameString(c.cpu_capability);
    auto it = m_runners.find(key);
    if (it == m_runners.end()) {
        const study::Environment* env = m_ctx.study.environment(c.env);
        if (env == nullptr) {
            throw Error(m_ctx.options.study, "no environment \"" + c.env + "\" in $.environments");
        }
        study::Environment e = *env;
        if (c.cpu_capability != CpuCapability::Auto) { // the runner's own process: before torch
            e.vars.push_back("ATEN_CPU_CAPABILITY=" + nameString(c.cpu_capability));
        }
        it = m_runners.emplace(key, std::make_unique<TransformersRunner>(e)).first;
    }
    return *it->second;
}

const std::vector<RunnerItem>& TransformersRecorder::runnerItems(TransformersRunner& tr,
                                                                 const HeadSpec& head,
                                                                 std::int64_t maxLength,
                                                                 const std::string& variant) {
    const std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(&tr)) + "\n" +
                            head.name + "\n" + std::to_string(maxLength) + "\n" + variant;
    auto it = m_runnerItems.find(key);
    if (it == m_runnerItems.end()) {
        std::vector<std::string> texts;
        for (const auto& item : m_ctx.items) {
            if (item.text.find_first_not_of(" \t\r\n") == std::string::npos) {
                throw Error("item " + item.id + ": empty text");
            }
            texts.push_back(item.text);
        }
        it = m_runnerItems.emplace(key, tr.tokenize(texts, maxLength)).first;
    }
    return it->second;
}

void TransformersRecorder::preflight(const Selection& sel) {
    std::set<std::string> seen;
    for (const study::NamedConfig* nc : sel.configs) {
        const RunConfig& c = nc->config;
        if (c.runner != Runner::Transformers ||
            !seen.insert(c.env + "\n" + nameString(c.cpu_capability) + "\n" + c.model).second) {
            continue;
        }
        TransformersRunner& tr = runner(c);
        tr.fingerprint();
        for (const HeadSpec* h : sel.heads) {
            tr.load(m_ctx.study.variant(c.model)->path, h->toJson(), c.toJson());
        }
    }
}

void TransformersRecorder::plan(ActiveRun& run) {
    const RunRequest& r = run.req;
    if (m_ctx.options.shard.active()) {
        throw Error(m_ctx.options.study,
                    "config \"" + r.configName +
                        "\" runs on the transformers runner; a sweep shard records "
                        "engine configs");
    }
    TransformersRunner& tr = runner(r.config);
    tr.load(m_ctx.study.variant(r.config.model)->path, r.head->toJson(), r.config.toJson());
    static const std::vector<RunnerItem> none;
    m_planned = r.head->generation()
                    ? &none
                    : &runnerItems(tr, *r.head, r.config.max_length, r.config.model);
    run.items = r.items.empty() ? m_ctx.items.size() : r.items.size();
}

json TransformersRecorder::environment(const RunRequest& request) {
    return runner(request.config).fingerprint();
}

Computed TransformersRecorder::compute(ActiveRun& run, ledger::Ledger& ledger,
                                       ProgressEvents& progress) {
    const RunRequest& r = run.req;
    TransformersRunner& tr = runner(r.config);
    const bool generation = r.head->generation();
    RunnerTrace trace;
    const bool whole = generation
                           ? recordRunnerGeneration(tr, ledger, run, m_ctx.items, progress)
                           : recordRunnerDecisions(tr, ledger, run, *m_planned, progress, trace);
    if (!generation) {
        ledger.setKernelTrace(run.id, trace.trace);
    }
    if (trace.opsFrom == "profiler") {
        m_ctx.events.emit({{"event", protocol::event::kWarning},
                           {"message", "config " + r.configName +
                                           ": the transformers runner counted the kernel trace's "
                                           "operators with torch.profiler, which slows a run by "
                                           "10-20% (" +
                                           trace.why + ")"}});
    }
    Computed out;
    out.finished["runner"] = {{"kind", EnvKind::Transformers},
                              {"environment", r.config.env},
                              {"row_hash", tr.ready().rowHash}};
    if (!trace.opsFrom.empty()) {
        out.finished["runner"]["trace_ops"] = trace.opsFrom;
    }
    out.stopped = !whole && run.already + std::int64_t(run.doneHere) < std::int64_t(run.total());
    return out;
}

bool TransformersRecorder::resumable(const RunRequest& request) const {
    return !request.head->generation();
}

} // namespace probaudit::runner
