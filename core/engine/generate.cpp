#include "engine/generate.h"

#include "common/error.h"
#include "engine/batch.h"
#include "engine/engine.h"

#include <c10/core/InferenceMode.h>

#include <algorithm>

namespace probaudit::engine {

namespace {

// Records step results for the unfinished rows; returns whether every row has finished.
bool takeStep(const at::Tensor& logits, const tokenizer::Tokenizer& tok,
              const model::ModelSpec& spec, const GenerateOptions& g, std::vector<Generation>& out,
              std::vector<bool>& done) {
    const at::Tensor lf = logits.to(at::kCPU).to(at::kFloat).contiguous();
    const at::Tensor best = lf.argmax(-1); // the first of equal maxima, as torch.argmax
    const auto top = lf.topk(std::min<std::int64_t>(2, lf.size(1)), -1);
    const at::Tensor topv = std::get<0>(top);
    for (std::size_t r = 0; r < out.size(); ++r) {
        if (done[r]) {
            continue;
        }
        Generation& gen = out[r];
        GenStep st;
        st.token = static_cast<std::int32_t>(best[std::int64_t(r)].item<std::int64_t>());
        st.logit = lf[std::int64_t(r)][st.token].item<float>();
        st.gap = topv.size(1) > 1 ? topv[std::int64_t(r)][0].item<float>() -
                                        topv[std::int64_t(r)][1].item<float>()
                                  : 0.0f;
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

} // namespace

std::vector<Generation> Engine::generate(const std::vector<std::string>& prompts,
                                         const RunConfig& c, const GenerateOptions& g) {
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
    c10::InferenceMode guard;
    const auto& spec = m_ckpt.spec();
    const std::int32_t padId = spec.pad_token_id >= 0 ? static_cast<std::int32_t>(spec.pad_token_id)
                               : !spec.eos_token_ids.empty()
                                   ? static_cast<std::int32_t>(spec.eos_token_ids.front())
                                   : 0;
    const at::Device device = c.device == "cpu" ? at::Device(at::kCPU) : at::Device(c.device);
    std::vector<Generation> all;
    for (std::size_t first = 0; first < prompts.size(); first += std::size_t(c.batch_size)) {
        const std::size_t end = std::min(prompts.size(), first + std::size_t(c.batch_size));
        std::vector<std::vector<std::int32_t>> rows;
        std::vector<Generation> out(end - first);
        for (std::size_t i = first; i < end; ++i) {
            const auto enc =
                m_tok.encode(prompts[i], true, static_cast<std::size_t>(spec.max_positions));
            if (enc.ids.empty()) {
                throw Error("prompt " + std::to_string(i) + " has no tokens");
            }
            rows.push_back(enc.ids);
            out[i - first].prompt_ids = enc.ids;
        }
        Batch b = makeBatch(rows, "left", "longest", 0, padId);
        b.input_ids = b.input_ids.to(device);
        b.attention_mask = b.attention_mask.to(device);
        b.position_ids = b.position_ids.to(device);
        KvCache cache;
        ForwardOptions opt;
        opt.attention = c.attention;
        opt.cache = &cache;
        std::vector<bool> done(out.size(), false);
        std::vector<std::int64_t> next(b.length.begin(), b.length.end()); // next position per row
        at::Tensor mask = b.attention_mask;
        ForwardResult fr = m_model->forward(b, opt);
        at::Tensor logits = m_model->lmLogits(fr.last_hidden.select(1, -1), false);
        while (!takeStep(logits, m_tok, spec, g, out, done)) {
            const auto B = static_cast<std::int64_t>(out.size());
            std::vector<std::int64_t> ids(out.size()), pos(out.size());
            for (std::size_t r = 0; r < out.size(); ++r) {
                ids[r] = done[r] ? padId : out[r].steps.back().token; // finished rows ride along
                pos[r] = next[r]++;
            }
            mask = at::cat({mask, at::ones({B, 1}, mask.options())}, 1);
            Batch step;
            step.input_ids = at::tensor(ids, at::kLong).view({B, 1}).to(device);
            step.position_ids = at::tensor(pos, at::kLong).view({B, 1}).to(device);
            step.attention_mask = mask;
            step.start.assign(out.size(), 0);
            step.length.assign(out.size(), 1);
            fr = m_model->forward(step, opt);
            logits = m_model->lmLogits(fr.last_hidden.select(1, -1), false);
        }
        for (auto& gen : out) {
            all.push_back(std::move(gen));
        }
    }
    return all;
}

} // namespace probaudit::engine
