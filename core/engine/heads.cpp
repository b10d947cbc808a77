#include "core/engine/heads.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/engine/invariant_ops.h"
#include "core/engine/weights.h"
#include "core/model/checkpoint.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace probaudit::engine {

using nlohmann::json;

namespace {

// Rows of hidden [B, L, H] at one position per row -> [B, H].
at::Tensor rowsAt(const at::Tensor& hidden, const std::vector<std::int64_t>& pos) {
    const auto opts = at::TensorOptions().dtype(at::kLong).device(hidden.device());
    const at::Tensor idx = at::tensor(pos, at::kLong).to(hidden.device());
    return hidden.index({at::arange(hidden.size(0), opts), idx});
}

std::vector<std::int64_t> lastPositions(const Batch& b) {
    std::vector<std::int64_t> p;
    for (std::int64_t r = 0; r < b.rows(); ++r) {
        p.push_back(b.last(r));
    }
    return p;
}

// A decision vector or logits in float32, or float64 in a float64 run (atLeastFloat32).
at::Tensor widened(const at::Tensor& t) {
    return t.to(atLeastFloat32(t.scalar_type()));
}

at::Tensor meanPool(const Batch& b, const at::Tensor& hidden) {
    const at::Tensor mask = b.attention_mask.to(atLeastFloat32(hidden.scalar_type())).unsqueeze(-1);
    return (widened(hidden) * mask).sum(1) / mask.sum(1).clamp_min(1e-9);
}

class LabelTokens final : public Head {
public:
    LabelTokens(HeadSpec s, const TransformerModel& model, const tokenizer::Tokenizer& tok)
        : Head(std::move(s)) {
        if (!model.hasLmHead()) {
            throw Error("a label_tokens head needs a model with a language-model head");
        }
        for (const auto& word : m_spec.labels) {
            const auto enc = tok.encode(word, false);
            if (enc.ids.size() != 1) {
                std::string pieces;
                for (auto id : enc.ids) {
                    pieces += (pieces.empty() ? "" : " ") + nlohmann::json(tok.token(id)).dump();
                }
                throw Error("label word " + nlohmann::json(word).dump() + " is " +
                            std::to_string(enc.ids.size()) + " tokens (" + pieces +
                            "); a label must be exactly one token");
            }
            m_ids.push_back(enc.ids[0]);
        }
    }
    at::Tensor logits(const TransformerModel& model, const Batch& b,
                      const ForwardResult& out) const override {
        const at::Tensor rows = rowsAt(out.last_hidden, lastPositions(b));
        const at::Tensor ids = at::tensor(m_ids, at::kLong).to(rows.device());
        return widened(model.lmLogitsOf(rows, ids, b.invariant));
    }
    // The whole row of language-model logits, as the default kernels compute it before they
    // select the label words (the batch-invariant kernels give the label words' logits the
    // same bits either way), softmaxed in the run's precision (float32 at least).
    at::Tensor vocabularyLogProbs(const TransformerModel& model, const Batch& b,
                                  const ForwardResult& out) const override {
        if (!m_spec.vocabulary) {
            return {};
        }
        const at::Tensor rows = rowsAt(out.last_hidden, lastPositions(b));
        return at::log_softmax(widened(model.lmLogits(rows, b.invariant)), 1).to(at::kFloat);
    }

private:
    std::vector<std::int64_t> m_ids;
};

class Adapter final : public Head {
public:
    Adapter(HeadSpec s, const TransformerModel& model) : Head(std::move(s)) {
        const model::SafetensorsCheckpoint file(m_spec.adapter_path);
        const auto dev = model
                             .weight(model.spec().family == model::Family::Bert
                                         ? "embeddings.word_embeddings.weight"
                                         : "model.embed_tokens.weight")
                             .device();
        // float32 as trained, float64 under a float64 model (the exact reference).
        const at::ScalarType type = atLeastFloat32(model.dtype());
        m_w = loadTensor(file, "weight", type).to(dev);
        m_b = loadTensor(file, "bias", type).to(dev);
        const auto& meta = file.files().front()->metadata();
        const auto H = model.spec().hidden_size;
        if (m_w.dim() != 2 || m_w.size(1) != H) {
            throw Error(m_spec.adapter_path,
                        "adapter weight is [" + std::to_string(m_w.size(0)) + ", " +
                            std::to_string(m_w.dim() == 2 ? m_w.size(1) : -1) +
                            "] but the model's hidden size is " + std::to_string(H));
        }
        if (m_b.dim() != 1 || m_b.size(0) != m_w.size(0)) {
            throw Error(m_spec.adapter_path, "adapter bias does not have one value per class");
        }
        if (m_spec.pooling.empty()) {
            const auto it = meta.find("pooling");
            if (it == meta.end()) {
                throw Error(m_spec.adapter_path,
                            "no pooling given (head \"pooling\" or file metadata)");
            }
            m_spec.pooling = it->second;
        }
        const auto learned = meta.find("template");
        const std::string learnedTemplate = learned == meta.end() ? "{text}" : learned->second;
        if (learnedTemplate != m_spec.template_text) {
            throw Error(m_spec.adapter_path, "the adapter learned on the prompt template \"" +
                                                 learnedTemplate + "\" but the head gives \"" +
                                                 m_spec.template_text +
                                                 "\" (give the head the template it learned on)");
        }
        if (auto it = meta.find("normalize"); it != meta.end() && it->second == "true") {
            m_spec.normalize = true;
        }
        if (m_spec.labels.empty()) {
            if (auto it = meta.find("labels"); it != meta.end()) {
                try {
                    m_spec.labels = parseJson(it->second).get<std::vector<std::string>>();
                } catch (const std::exception& e) {
                    throw Error(m_spec.adapter_path,
                                std::string("the adapter's labels metadata: ") + e.what());
                }
            }
        }
        if (m_spec.labels.empty()) {
            for (std::int64_t c = 0; c < m_w.size(0); ++c) {
                m_spec.labels.push_back(std::to_string(c));
            }
        }
        if (static_cast<std::int64_t>(m_spec.labels.size()) != m_w.size(0)) {
            throw Error(m_spec.adapter_path, "the adapter has " + std::to_string(m_w.size(0)) +
                                                 " classes but " +
                                                 std::to_string(m_spec.labels.size()) + " labels");
        }
    }
    at::Tensor decisionVector(const Batch& b, const at::Tensor& hidden) const override {
        if (m_spec.pooling == "mean") {
            return b.invariant ? invariant::meanPool(b, hidden) : meanPool(b, hidden);
        }
        return widened(rowsAt(hidden, m_spec.pooling == "cls" ? b.start : lastPositions(b)));
    }
    at::Tensor logits(const TransformerModel&, const Batch& b,
                      const ForwardResult& out) const override {
        at::Tensor pooled = decisionVector(b, out.last_hidden);
        if (b.invariant) {
            if (m_spec.normalize) {
                pooled = invariant::l2Normalize(pooled);
            }
            return invariant::linear(pooled, m_w, m_b, nullptr);
        }
        if (m_spec.normalize) {
            pooled = pooled / pooled.norm(2, {-1}, true).clamp_min(1e-12);
        }
        return at::linear(pooled, m_w, m_b);
    }

private:
    at::Tensor m_w, m_b;
};

class Classifier final : public Head {
public:
    Classifier(HeadSpec s, const TransformerModel& model) : Head(std::move(s)) {
        m_bert = model.spec().family == model::Family::Bert;
        m_w = model.weight(m_bert ? "classifier.weight" : "score.weight");
        m_b = model.weight(m_bert ? "classifier.bias" : "score.bias");
        if (!m_w.defined()) {
            throw Error("the checkpoint has no sequence-classification head (" +
                        std::string(m_bert ? "classifier.weight" : "score.weight") + ")");
        }
        if (m_w.size(1) != model.spec().hidden_size) {
            throw Error("the classification head does not match the model's hidden size");
        }
        if (m_spec.labels.empty()) {
            for (std::int64_t c = 0; c < m_w.size(0); ++c) {
                const auto it = model.spec().id2label.find(c);
                m_spec.labels.push_back(it != model.spec().id2label.end() ? it->second
                                                                          : std::to_string(c));
            }
        }
    }
    at::Tensor decisionVector(const Batch& b, const at::Tensor& hidden) const override {
        return widened(rowsAt(hidden, m_bert ? b.start : lastPositions(b)));
    }
    at::Tensor logits(const TransformerModel&, const Batch& b,
                      const ForwardResult& out) const override {
        if (m_bert) {
            if (!out.pooler.defined()) {
                throw Error("the checkpoint has a classifier but no pooler");
            }
            if (b.invariant) {
                return invariant::linear(out.pooler, m_w, m_b, nullptr).to(at::kFloat);
            }
            return widened(at::linear(
                out.pooler, m_w, m_b.defined() ? c10::optional<at::Tensor>(m_b) : c10::nullopt));
        }
        const at::Tensor rows = rowsAt(out.last_hidden, lastPositions(b));
        if (b.invariant) {
            return invariant::linear(rows, m_w, m_b, nullptr).to(at::kFloat);
        }
        return widened(
            at::linear(rows, m_w, m_b.defined() ? c10::optional<at::Tensor>(m_b) : c10::nullopt));
    }

private:
    bool m_bert = false;
    at::Tensor m_w, m_b;
};

} // namespace

at::Tensor Head::decisionVector(const Batch& b, const at::Tensor& hidden) const {
    return widened(rowsAt(hidden, lastPositions(b)));
}

at::Tensor Head::vocabularyLogProbs(const TransformerModel&, const Batch&,
                                    const ForwardResult&) const {
    return {};
}

HeadOutput Head::decide(const at::Tensor& row) const {
    return engine::decide(row, m_spec.threshold);
}

namespace {

// The decision class (the first of equal maxima) and the margin: top-1 minus top-2 logit, or
// |logit| for a one-class head. Finite logits only.
template <typename T> std::pair<int, T> bestAndMargin(const std::vector<T>& logits) {
    int best = 0;
    for (int c = 1; c < static_cast<int>(logits.size()); ++c) {
        if (logits[std::size_t(c)] > logits[std::size_t(best)]) {
            best = c;
        }
    }
    T second = -std::numeric_limits<T>::infinity();
    for (int c = 0; c < static_cast<int>(logits.size()); ++c) {
        if (c != best) {
            second = std::max(second, logits[std::size_t(c)]);
        }
    }
    return {best, logits.size() > 1 ? logits[std::size_t(best)] - second : std::abs(logits[0])};
}

// A float64 row (the exact reference): softmax, decision and margin of the float64 logits. The
// record keeps them rounded to float32; exact_probs keeps the float64 probabilities.
HeadOutput decideExact(const at::Tensor& row, double threshold) {
    HeadOutput o;
    const at::Tensor l = row.to(at::kCPU).contiguous();
    const std::vector<double> logits(l.data_ptr<double>(), l.data_ptr<double>() + l.numel());
    const at::Tensor p = at::softmax(l, -1).contiguous();
    o.exact_probs.assign(p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
    for (double v : logits) {
        o.logits.push_back(static_cast<float>(v));
        o.nonfinite = o.nonfinite || !std::isfinite(v);
    }
    for (double v : o.exact_probs) {
        o.probs.push_back(static_cast<float>(v));
    }
    if (o.nonfinite) {
        o.margin = std::numeric_limits<float>::quiet_NaN();
        return o;
    }
    const auto [best, margin] = bestAndMargin(logits);
    o.margin = static_cast<float>(margin);
    o.decision = best;
    if (threshold >= 0 && o.exact_probs.size() == 2) {
        o.decision = o.exact_probs[1] >= threshold ? 1 : 0;
    }
    return o;
}

} // namespace

HeadOutput decide(const at::Tensor& row, double threshold) {
    if (row.scalar_type() == at::kDouble) {
        return decideExact(row, threshold);
    }
    HeadOutput o;
    const at::Tensor l = row.to(at::kFloat).contiguous();
    o.logits.assign(l.data_ptr<float>(), l.data_ptr<float>() + l.numel());
    const at::Tensor p = at::softmax(l, -1);
    o.probs.assign(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
    for (float v : o.logits) {
        if (!std::isfinite(v)) {
            o.nonfinite = true;
        }
    }
    if (o.nonfinite) {
        o.margin = std::numeric_limits<float>::quiet_NaN();
        return o;
    }
    const auto [best, margin] = bestAndMargin(o.logits);
    o.margin = margin;
    o.decision = best;
    if (threshold >= 0 && o.probs.size() == 2) {
        o.decision = o.probs[1] >= threshold ? 1 : 0;
    }
    return o;
}

std::unique_ptr<Head> Head::create(const HeadSpec& spec, const TransformerModel& model,
                                   const tokenizer::Tokenizer& tok, const model::Checkpoint&) {
    if (spec.kind == HeadKind::LabelTokens) {
        return std::make_unique<LabelTokens>(spec, model, tok);
    }
    if (spec.kind == HeadKind::Adapter) {
        return std::make_unique<Adapter>(spec, model);
    }
    if (spec.kind == HeadKind::Classifier) {
        return std::make_unique<Classifier>(spec, model);
    }
    throw Error("unknown head kind \"" + nameString(spec.kind) + "\"");
}

} // namespace probaudit::engine
