#include "core/engine/generate.h"

#include "core/common/error.h"
#include "core/engine/batch.h"
#include "core/engine/engine.h"
#include "core/engine/weights.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>

namespace probaudit::engine {

namespace {

// Records step results for the unfinished rows (row r of `logits` is out[r]); returns whether
// every row has finished.
bool takeStep(const at::Tensor& logits, const tokenizer::Tokenizer& tok,
              const model::ModelSpec& spec, const GenerateOptions& g,
              const std::vector<Generation*>& out, std::vector<bool>& done) {
    // float32 (float64 in a float64 run: the choice of the exact logits).
    const at::Tensor lf = logits.to(at::kCPU).to(atLeastFloat32(logits.scalar_type())).contiguous();
    const at::Tensor best = lf.argmax(-1); // the first of equal maxima, as torch.argmax
    const auto top = lf.topk(std::min<std::int64_t>(2, lf.size(1)), -1);
    const at::Tensor topv = std::get<0>(top);
    const std::int64_t K = std::min<std::int64_t>(g.top_logprobs, lf.size(1));
    at::Tensor topLp, topIds; // [B, K], the K most likely tokens and their log-probabilities
    if (K > 0) {
        auto t = at::log_softmax(lf, -1).topk(K, -1);
        topLp = std::get<0>(t).contiguous();
        if (topLp.scalar_type() != at::kFloat) { // float64: recorded as float32
            topLp = topLp.to(at::kFloat);
        }
        topIds = std::get<1>(t).to(at::kInt).contiguous();
    }
    for (std::size_t r = 0; r < out.size(); ++r) {
        if (done[r]) {
            continue;
        }
        Generation& gen = *out[r];
        GenStep st;
        st.batch = static_cast<std::int32_t>(lf.size(0));
        st.token = static_cast<std::int32_t>(best[std::int64_t(r)].item<std::int64_t>());
        st.logit = lf[std::int64_t(r)][st.token].item<float>();
        st.gap = topv.size(1) > 1 ? topv[std::int64_t(r)][0].item<float>() -
                                        topv[std::int64_t(r)][1].item<float>()
                                  : 0.0f;
        if (K > 0) {
            const auto* ids = topIds.data_ptr<std::int32_t>() + std::int64_t(r) * K;
            const auto* lp = topLp.data_ptr<float>() + std::int64_t(r) * K;
            st.top_tokens.assign(ids, ids + K);
            st.top_logprobs.assign(lp, lp + K);
        }
        gen.steps.push_back(st);
        const bool eos =
            g.stop_at_eos && std::find(spec.eos_token_ids.begin(), spec.eos_token_ids.end(),
                                       std::int64_t(st.token)) != spec.eos_token_ids.end();
        std::vector<std::int32_t> ids;
        for (const auto& s : gen.steps) {
            ids.push_back(s.token);
        }
        if (eos) {
            ids.pop_back();
        }
        gen.text = tok.decode(ids);
        if (eos) {
            gen.finish = "eos";
            done[r] = true;
            continue;
        }
        for (const auto& s : g.stop) {
            if (const auto at = gen.text.find(s); !s.empty() && at != std::string::npos) {
                gen.text.resize(at);
                gen.finish = "stop";
                done[r] = true;
                break;
            }
        }
        if (!done[r] && std::int64_t(gen.steps.size()) >= g.max_new_tokens) {
            gen.finish = "length";
            done[r] = true;
        }
    }
    return std::all_of(done.begin(), done.end(), [](bool d) { return d; });
}

// A batch's tensors on the device.
Batch toDevice(Batch b, const at::Device& device, const RunConfig& c) {
    b.input_ids = b.input_ids.to(device);
    b.attention_mask = b.attention_mask.to(device);
    b.position_ids = b.position_ids.to(device);
    markKernels(b, c);
    return b;
}

// One decode position for every row: the last chosen token at the row's next position; the
// mask gains a column of ones.
Batch decodeBatch(const std::vector<std::int64_t>& ids, const std::vector<std::int64_t>& pos,
                  at::Tensor& mask, const at::Device& device, const RunConfig& c) {
    const auto B = static_cast<std::int64_t>(ids.size());
    mask = at::cat({mask, at::ones({B, 1}, mask.options())}, 1);
    Batch step;
    markKernels(step, c);
    step.input_ids = at::tensor(ids, at::kLong).view({B, 1}).to(device);
    step.position_ids = at::tensor(pos, at::kLong).view({B, 1}).to(device);
    step.attention_mask = mask;
    step.start.assign(ids.size(), 0);
    step.length.assign(ids.size(), 1);
    return step;
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// A cache with room for the tokens the generation may add (up to 256 at a time, not to hold
// memory for a long limit that an EOS ends early), so that decoding writes in place.
KvCache emptyCache(const GenerateOptions& g) {
    KvCache c;
    c.reserve = std::clamp<std::int64_t>(g.max_new_tokens, 1, 256);
    c.grow_in_place = g.cache_in_place;
    return c;
}

// The running batch of the serving simulation: resident rows, their KV cache and its mask.
struct Resident {
    std::vector<std::size_t> item;  // prompt index of each row
    std::vector<std::int64_t> next; // next position of each row
    KvCache cache;                  // [B, kv_heads, T, head_dim] per layer
    at::Tensor mask;                // [B, T], 1 = a real cached position

    std::size_t size() const { return item.size(); }

    // Keeps the rows `keep` (ascending) of a prefilled group and appends them, left padding
    // whichever side has the shorter cache so that every row's newest position is the last.
    void admit(const std::vector<std::size_t>& items, const std::vector<std::int64_t>& nexts,
               KvCache& c, at::Tensor m, const std::vector<std::int64_t>& keep) {
        if (keep.empty()) {
            return;
        }
        const at::Tensor idx = at::tensor(keep, at::kLong).to(m.device());
        m = m.index_select(0, idx);
        for (std::size_t l = 0; l < c.k.size(); ++l) {
            c.k[l] = c.k[l].index_select(0, idx);
            c.v[l] = c.v[l].index_select(0, idx);
        }
        for (const auto r : keep) {
            item.push_back(items[std::size_t(r)]);
            next.push_back(nexts[std::size_t(r)]);
        }
        if (!mask.defined()) {
            cache = std::move(c);
            mask = m;
            return;
        }
        const auto T = mask.size(1);
        const auto Tn = m.size(1);
        const std::int64_t td = cache.time_dim; // where the cache keeps positions
        const auto padLeft = [](const at::Tensor& t, std::int64_t dim, std::int64_t n) {
            if (n == 0) {
                return t;
            }
            auto shape = t.sizes().vec();
            shape[std::size_t(dim)] = n;
            return at::cat({at::zeros(shape, t.options()), t}, dim);
        };
        mask = at::cat({padLeft(mask, 1, std::max<std::int64_t>(0, Tn - T)),
                        padLeft(m, 1, std::max<std::int64_t>(0, T - Tn))},
                       0);
        for (std::size_t l = 0; l < cache.k.size(); ++l) {
            cache.k[l] = at::cat({padLeft(cache.k[l], td, std::max<std::int64_t>(0, Tn - T)),
                                  padLeft(c.k[l], td, std::max<std::int64_t>(0, T - Tn))},
                                 0);
            cache.v[l] = at::cat({padLeft(cache.v[l], td, std::max<std::int64_t>(0, Tn - T)),
                                  padLeft(c.v[l], td, std::max<std::int64_t>(0, T - Tn))},
                                 0);
        }
    }

    // Drops finished rows and the leading cache columns no remaining row uses.
    void evict(const std::vector<bool>& done) {
        std::vector<std::int64_t> keep;
        for (std::size_t r = 0; r < done.size(); ++r) {
            if (!done[r]) {
                keep.push_back(static_cast<std::int64_t>(r));
            }
        }
        if (keep.size() == done.size()) {
            return;
        }
        std::vector<std::size_t> items;
        std::vector<std::int64_t> nexts;
        for (const auto r : keep) {
            items.push_back(item[std::size_t(r)]);
            nexts.push_back(next[std::size_t(r)]);
        }
        item = std::move(items);
        next = std::move(nexts);
        if (keep.empty()) {
            cache.clear();
            mask = at::Tensor();
            return;
        }
        const at::Tensor idx = at::tensor(keep, at::kLong).to(mask.device());
        mask = mask.index_select(0, idx);
        const auto used = mask.sum(0).gt(0).nonzero();
        const std::int64_t first = used.numel() > 0 ? used[0][0].item<std::int64_t>() : 0;
        const std::int64_t T = mask.size(1) - first;
        mask = mask.narrow(1, first, T);
        for (std::size_t l = 0; l < cache.k.size(); ++l) {
            cache.k[l] = cache.k[l].index_select(0, idx).narrow(cache.time_dim, first, T);
            cache.v[l] = cache.v[l].index_select(0, idx).narrow(cache.time_dim, first, T);
        }
    }
};

} // namespace

std::int32_t Engine::prepareGeneration(const RunConfig& c, const GenerateOptions& g) {
    m_cancelled = false;
    if (m_ckpt.spec().family == model::Family::Bert) {
        throw Error("generation needs a llama-family model with a language-model head");
    }
    if (g.max_new_tokens < 1) {
        throw Error("max_new_tokens must be at least 1");
    }
    prepare(c);
    if (!m_model->hasLmHead()) {
        throw Error("this checkpoint has no language-model head");
    }
    const auto& spec = m_ckpt.spec();
    return spec.pad_token_id >= 0        ? static_cast<std::int32_t>(spec.pad_token_id)
           : !spec.eos_token_ids.empty() ? static_cast<std::int32_t>(spec.eos_token_ids.front())
                                         : 0;
}

std::vector<std::int32_t> Engine::encodePrompt(const std::string& prompt, std::size_t index) const {
    const auto enc =
        m_tok.encode(prompt, true, static_cast<std::size_t>(m_ckpt.spec().max_positions));
    if (enc.ids.empty()) {
        throw Error("prompt " + std::to_string(index) + " has no tokens");
    }
    return enc.ids;
}

std::vector<Generation> Engine::generate(const std::vector<std::string>& prompts,
                                         const RunConfig& c, const GenerateOptions& g,
                                         const RunProgress& progress) {
    const std::int32_t padId = prepareGeneration(c, g);
    c10::InferenceMode guard;
    const auto& spec = m_ckpt.spec();
    const at::Device device = c.device == "cpu" ? at::Device(at::kCPU) : at::Device(c.device);
    std::vector<Generation> all(prompts.size());
    for (std::size_t first = 0; first < prompts.size(); first += std::size_t(c.batch_size)) {
        const std::size_t end = std::min(prompts.size(), first + std::size_t(c.batch_size));
        std::vector<std::vector<std::int32_t>> rows;
        std::vector<Generation*> out;
        for (std::size_t i = first; i < end; ++i) {
            all[i].prompt_ids = encodePrompt(prompts[i], i);
            all[i].arrival = static_cast<std::int64_t>(i);
            rows.push_back(all[i].prompt_ids);
            out.push_back(&all[i]);
        }
        const Batch b =
            toDevice(makeBatch(rows, PaddingSide::Left, PadTo::Longest, 0, padId), device, c);
        KvCache cache = emptyCache(g);
        ForwardOptions opt;
        opt.attention = c.attention;
        opt.cache = &cache;
        std::vector<bool> done(out.size(), false);
        std::vector<std::int64_t> next(b.length.begin(), b.length.end()); // next position per row
        at::Tensor mask = b.attention_mask;
        ForwardResult fr = m_model->forward(b, opt);
        at::Tensor logits = m_model->lmLogits(fr.last_hidden.select(1, -1), b.invariant);
        while (!takeStep(logits, m_tok, spec, g, out, done)) {
            std::vector<std::int64_t> ids(out.size()), pos(out.size());
            for (std::size_t r = 0; r < out.size(); ++r) {
                ids[r] = done[r] ? padId : out[r]->steps.back().token; // finished rows ride along
                pos[r] = next[r]++;
            }
            fr = m_model->forward(decodeBatch(ids, pos, mask, device, c), opt);
            logits = m_model->lmLogits(fr.last_hidden.select(1, -1), b.invariant);
        }
        if (progress && !progress(end, prompts.size())) {
            m_cancelled = true;
            break;
        }
    }
    return all;
}

std::vector<Generation> Engine::serve(const std::vector<std::string>& prompts, const RunConfig& c,
                                      const GenerateOptions& g, ServeStats* stats,
                                      const RunProgress& progress) {
    const std::int32_t padId = prepareGeneration(c, g);
    c10::InferenceMode guard;
    const auto& spec = m_ckpt.spec();
    const at::Device device = c.device == "cpu" ? at::Device(at::kCPU) : at::Device(c.device);
    const auto C = static_cast<std::size_t>(c.concurrency);
    std::vector<Generation> all(prompts.size());
    for (std::size_t i = 0; i < prompts.size(); ++i) {
        all[i].prompt_ids = encodePrompt(prompts[i], i); // every problem before any work
    }
    // The clock starts once the model is loaded and the prompts are encoded: what follows is
    // the generation, and the scheduler's share of it is what ServeStats reports.
    const auto start = Clock::now();
    const std::vector<std::size_t> arrivals = seededOrder(prompts.size(), c.arrival_seed);
    ServeStats st;
    ForwardOptions opt;
    opt.attention = c.attention;
    // The model's work and the per-step records, timed apart from the scheduler's own.
    const auto model = [&](const Batch& b, KvCache& cache) {
        const auto t = Clock::now();
        opt.cache = &cache;
        const ForwardResult fr = m_model->forward(b, opt);
        at::Tensor logits = m_model->lmLogits(fr.last_hidden.select(1, -1), b.invariant);
        if (logits.is_cuda()) {
            logits = logits.to(at::kCPU); // the copy waits for the GPU: its time is the model's
        }
        st.model_seconds += since(t);
        return logits;
    };
    const auto record = [&](const at::Tensor& logits, const std::vector<std::size_t>& items,
                            std::vector<bool>& done) {
        const auto t = Clock::now();
        std::vector<Generation*> out;
        for (const auto i : items) {
            out.push_back(&all[i]);
        }
        takeStep(logits, m_tok, spec, g, out, done);
        st.record_seconds += since(t);
    };

    Resident res;
    std::size_t queued = 0;   // arrivals[queued] is the next request to join
    std::size_t finished = 0; // requests done
    const auto tell = [&](const std::vector<bool>& done) {
        const auto n = static_cast<std::size_t>(std::count(done.begin(), done.end(), true));
        finished += n;
        if (n > 0 && progress && !progress(finished, prompts.size())) {
            m_cancelled = true;
        }
    };
    while ((queued < arrivals.size() || res.size() > 0) && !m_cancelled) {
        if (res.size() < C && queued < arrivals.size()) {
            // Free slots: the next arrivals join, prefilled together.
            std::vector<std::size_t> join;
            std::vector<std::vector<std::int32_t>> rows;
            while (res.size() + join.size() < C && queued < arrivals.size()) {
                const std::size_t i = arrivals[queued];
                all[i].arrival = static_cast<std::int64_t>(queued++);
                join.push_back(i);
                rows.push_back(all[i].prompt_ids);
            }
            const Batch b =
                toDevice(makeBatch(rows, PaddingSide::Left, PadTo::Longest, 0, padId), device, c);
            KvCache cache = emptyCache(g);
            const at::Tensor logits = model(b, cache);
            ++st.prefills;
            std::vector<bool> done(join.size(), false);
            record(logits, join, done);
            tell(done);
            std::vector<std::int64_t> keep;
            for (std::size_t r = 0; r < join.size(); ++r) {
                if (!done[r]) {
                    keep.push_back(static_cast<std::int64_t>(r));
                }
            }
            res.admit(join, b.length, cache, b.attention_mask, keep);
            st.max_resident = std::max<std::int64_t>(st.max_resident, std::int64_t(res.size()));
            continue; // a prefill pass is a step: admit again if its requests finished at once
        }
        std::vector<std::int64_t> ids(res.size()), pos(res.size());
        for (std::size_t r = 0; r < res.size(); ++r) {
            ids[r] = all[res.item[r]].steps.back().token;
            pos[r] = res.next[r]++;
        }
        const at::Tensor logits = model(decodeBatch(ids, pos, res.mask, device, c), res.cache);
        ++st.decode_steps;
        std::vector<bool> done(res.size(), false);
        record(logits, res.item, done);
        tell(done);
        res.evict(done);
    }
    st.total_seconds = since(start);
    if (stats != nullptr) {
        *stats = st;
    }
    return all;
}

} // namespace probaudit::engine
