#include "core/runner/engine_recorder.h"

#include "core/engine/engine.h"
#include "core/engine/env_fingerprint.h"

#include <algorithm>
#include <functional>

namespace probaudit::runner {

using nlohmann::json;

namespace {

ledger::Record toRecord(const engine::ItemRecord& r) {
    ledger::Record o;
    o.item = static_cast<std::int64_t>(r.item);
    o.tokens = r.tokens;
    o.truncated = r.truncated;
    o.probs = r.head.probs;
    o.logits = r.head.logits;
    o.decision = r.head.decision;
    o.margin = r.head.margin;
    o.nonfinite = r.head.nonfinite;
    o.batch = r.batch;
    o.row = r.row;
    o.padded_length = r.padded_length;
    o.batch_seconds = r.batch_seconds;
    o.layer_hashes = r.layer_hashes;
    o.vocabulary = r.vocabulary;
    if (!r.layer_vectors.empty()) {
        o.hidden = static_cast<std::int64_t>(r.layer_vectors.front().size());
        for (const auto& v : r.layer_vectors) {
            o.layer_vectors.insert(o.layer_vectors.end(), v.begin(), v.end());
        }
    }
    if (!r.layer_full.empty()) {
        o.full_tokens = r.layer_full.front().size(0);
        for (const at::Tensor& t : r.layer_full) {
            const at::Tensor c = t.to(at::kFloat).contiguous();
            o.layer_full.insert(o.layer_full.end(), c.data_ptr<float>(),
                                c.data_ptr<float>() + c.numel());
        }
    }
    return o;
}

ledger::GenerationRecord toGenerationRecord(const engine::Generation& g, std::int64_t item) {
    ledger::GenerationRecord o;
    o.item = item;
    o.prompt_tokens = static_cast<std::int64_t>(g.prompt_ids.size());
    o.text = g.text;
    o.finish = g.finish;
    o.arrival = g.arrival;
    for (const auto& s : g.steps) {
        o.tokens.push_back(s.token);
        o.logits.push_back(s.logit);
        o.gaps.push_back(s.gap);
        o.batch.push_back(s.batch);
        o.top_tokens.insert(o.top_tokens.end(), s.top_tokens.begin(), s.top_tokens.end());
        o.top_logprobs.insert(o.top_logprobs.end(), s.top_logprobs.begin(), s.top_logprobs.end());
    }
    return o;
}

// Every batch in one transaction, records in ledger item order.
void recordDecisions(engine::Engine& eng, ledger::Ledger& led, ActiveRun& run,
                     const std::vector<tokenizer::Encoding>& enc, ProgressEvents& progress) {
    auto sink = [&](const std::vector<engine::ItemRecord>& batch) {
        std::vector<ledger::Record> recs;
        recs.reserve(batch.size());
        for (const auto& rec : batch) {
            recs.push_back(toRecord(rec));
            recs.back().item = run.ledgerItem(rec.item);
        }
        std::sort(recs.begin(), recs.end(),
                  [](const auto& a, const auto& b) { return a.item < b.item; });
        if (!batch.empty()) {
            run.forward += batch.front().batch_seconds;
        }
        led.appendBatch(run.id, recs);
        run.doneHere += batch.size();
        batchCommitted();
    };
    eng.run(enc, run.req.config, engine::parseCapture(run.req.capture), std::ref(progress), sink,
            run.skip);
    led.setKernelTrace(run.id, eng.lastTrace().toJson());
}

// A generation run is recorded whole: under the serving simulation the batch a request shares
// depends on every other request, so the rest of a cut-off run would be another experiment.
// Outputs are written in one transaction at the end.
engine::ServeStats recordGeneration(engine::Engine& eng, ledger::Ledger& led, ActiveRun& run,
                                    const std::vector<engine::Item>& items,
                                    ProgressEvents& progress) {
    const HeadSpec& head = *run.req.head;
    std::vector<std::string> prompts;
    prompts.reserve(run.items);
    for (std::size_t k = 0; k < run.items; ++k) {
        prompts.push_back(head.prompt(items.at(std::size_t(run.ledgerItem(k))).text));
    }
    engine::GenerateOptions opt;
    opt.max_new_tokens = head.max_new_tokens;
    opt.stop = head.stop;
    opt.stop_at_eos = head.stop_at_eos;
    opt.top_logprobs = head.top_logprobs;
    engine::ServeStats serving;
    const auto outputs =
        run.req.config.batch_size > 1
            ? eng.generate(prompts, run.req.config, opt, std::ref(progress)) // static batches
            : eng.serve(prompts, run.req.config, opt, &serving, std::ref(progress));
    if (!eng.cancelled()) {
        std::vector<ledger::GenerationRecord> recs;
        recs.reserve(outputs.size());
        for (std::size_t k = 0; k < outputs.size(); ++k) {
            recs.push_back(toGenerationRecord(outputs[k], run.ledgerItem(k)));
        }
        led.appendGenerations(run.id, recs);
        run.doneHere = recs.size();
        run.forward = serving.model_seconds;
        batchCommitted();
    }
    return serving;
}

json servingJson(const engine::ServeStats& serving) {
    return {{"total_seconds", serving.total_seconds},
            {"model_seconds", serving.model_seconds},
            {"record_seconds", serving.record_seconds},
            {"overhead_share", serving.overheadShare()},
            {"prefills", serving.prefills},
            {"decode_steps", serving.decode_steps},
            {"max_resident", serving.max_resident}};
}

} // namespace

EngineRecorder::EngineRecorder(const RecorderContext& context) : m_ctx(context) {}

EngineRecorder::~EngineRecorder() = default;

const study::ModelVariant& EngineRecorder::variantOf(const std::string& variant) const {
    const study::ModelVariant* v = m_ctx.study.variant(variant);
    if (v == nullptr) { // configs are checked when the study loads: a caller's mistake
        throw Error(m_ctx.study.file, "no model variant \"" + variant + "\"");
    }
    return *v;
}

engine::Engine& EngineRecorder::engine(const HeadSpec& head, const std::string& variant) {
    const study::ModelVariant& v = variantOf(variant);
    const auto key = std::make_pair(v.name, head.name);
    auto it = m_engines.find(key);
    if (it == m_engines.end()) {
        it = m_engines.emplace(key, std::make_unique<engine::Engine>(v.path, head)).first;
    }
    return *it->second;
}

const std::vector<tokenizer::Encoding>& EngineRecorder::encodings(const HeadSpec& head,
                                                                  std::int64_t maxLength,
                                                                  const std::string& variant) {
    const study::ModelVariant& v = variantOf(variant);
    const auto key = std::make_tuple(v.name, head.name, maxLength);
    auto it = m_encodings.find(key);
    if (it == m_encodings.end()) {
        engine::Engine& eng = engine(head, v.name);
        std::vector<tokenizer::Encoding> e;
        e.reserve(m_ctx.items.size());
        for (const auto& item : m_ctx.items) {
            e.push_back(eng.encode(item, maxLength));
        }
        checkSameTokens(head, maxLength, v, e);
        it = m_encodings.emplace(key, std::move(e)).first;
    }
    return it->second;
}

void EngineRecorder::checkSameTokens(const HeadSpec& head, std::int64_t maxLength,
                                     const study::ModelVariant& v,
                                     const std::vector<tokenizer::Encoding>& e) {
    // The reference config's variant: the items as the reference tokenizes them.
    const study::NamedConfig* refConfig = m_ctx.study.config(m_ctx.study.reference);
    const study::ModelVariant& first =
        variantOf(refConfig != nullptr ? refConfig->config.model : "");
    if (&v == &first) {
        return;
    }
    const auto& ref = encodings(head, maxLength, first.name);
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (e[i].ids != ref[i].ids) {
            throw Error(m_ctx.study.file,
                        "model variant \"" + v.name + "\" tokenizes item \"" + m_ctx.items[i].id +
                            "\" into other token ids than \"" + first.name + "\" (" +
                            std::to_string(e[i].ids.size()) + " tokens against " +
                            std::to_string(ref[i].ids.size()) +
                            "): their decisions cannot be compared item by item");
        }
    }
}

void EngineRecorder::plan(ActiveRun& run) {
    const RunRequest& r = run.req;
    engine::Engine& eng = engine(*r.head, r.config.model);
    const bool generation = r.head->generation();
    // Decision heads read the items tokenized once per head; a generation encodes its prompts.
    static const std::vector<tokenizer::Encoding> none;
    const auto& all = generation ? none : encodings(*r.head, r.config.max_length, r.config.model);
    m_subset.clear();
    if (!r.items.empty() && !generation) {
        for (std::int64_t i : r.items) {
            m_subset.push_back(all.at(std::size_t(i)));
        }
    }
    m_enc = r.items.empty() ? &all : &m_subset;
    run.items =
        generation ? (r.items.empty() ? m_ctx.items.size() : r.items.size()) : m_enc->size();
    if (m_ctx.options.shard.active() && r.kind == RunKind::Study && !generation) {
        markOutsideShard(run);
    }
    eng.prepare(r.config);
}

void EngineRecorder::markOutsideShard(ActiveRun& run) const {
    std::vector<std::int64_t> lengths;
    for (const auto& e : *m_enc) {
        lengths.push_back(static_cast<std::int64_t>(e.ids.size()));
    }
    const engine::RunPlan plan = engine::Engine::plan(lengths, run.req.config);
    const auto [first, last] = m_ctx.options.shard.batchRange(plan.batches.size());
    run.outside.assign(run.items, true);
    for (std::size_t b = first; b < last; ++b) {
        for (std::size_t i : plan.batches[b]) {
            run.outside[i] = false;
        }
    }
}

json EngineRecorder::environment(const RunRequest&) {
    return engine::collectEnvironment();
}

Computed EngineRecorder::compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) {
    const RunRequest& r = run.req;
    engine::Engine& eng = engine(*r.head, r.config.model);
    Computed out;
    if (r.head->generation()) {
        const engine::ServeStats serving =
            recordGeneration(eng, ledger, run, m_ctx.items, progress);
        if (r.config.batch_size == 1) { // the serving simulation: where the time went
            out.finished["serving"] = servingJson(serving);
        }
    } else {
        recordDecisions(eng, ledger, run, *m_enc, progress);
    }
    out.stopped = eng.cancelled();
    return out;
}

bool EngineRecorder::resumable(const RunRequest& request) const {
    return !request.head->generation();
}

} // namespace probaudit::runner
