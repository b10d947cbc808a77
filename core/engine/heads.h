#pragma once
// Decision heads (DESIGN.md): how a model turns an item into class probabilities.
//   label_tokens  an LLM's next-token logits at the last real token, restricted to the label
//                 words' token ids, softmaxed (each label word must be exactly one token)
//   adapter       a linear head file (weight [C, H], bias [C]) on a pooled hidden state
//                 (cls, mean over real tokens, or last real token; optionally L2-normalized)
//   classifier    the checkpoint's own sequence-classification head (llama-type score.weight
//                 on the last real token; BERT pooler + classifier)
#include "core/common/head_spec.h"
#include "core/engine/batch.h"
#include "core/engine/transformer.h"
#include "core/tokenizer/tokenizer.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <vector>

namespace probaudit::engine {

using probaudit::HeadSpec;

// What a head gives for one item.
struct HeadOutput {
    std::vector<float> logits; // decision-class logits (float32 values of the computed ones)
    std::vector<float> probs;  // softmax of the logits, float32
    int decision = -1;         // -1 when the logits are not finite
    float margin = 0;          // top-1 minus top-2 logit
    bool nonfinite = false;    // NaN or Inf in the logits: recorded, never a decision
    // float64 runs only (the exact reference): the float64 softmax, of which probs holds the
    // float32 roundings that the ledger keeps. Empty otherwise.
    std::vector<double> exact_probs;
};

// Probabilities (float32 softmax; float64 for a float64 row, rounded to float32 in probs),
// decision and margin of one row of decision-class logits
// [C]; with threshold >= 0 a binary head decides class 1 when p1 >= threshold. One definition
// for every runner, so that equal logits give equal records.
HeadOutput decide(const at::Tensor& logitsRow, double threshold);

class Head {
public:
    virtual ~Head() = default;
    // Decision-class logits [B, C] (float32) for the rows of a batch.
    virtual at::Tensor logits(const TransformerModel& model, const Batch& batch,
                              const ForwardResult& out) const = 0;
    // With the spec's `vocabulary` (label_tokens): the log-probability of every vocabulary
    // token at the decision position -> [B, V] float32 (a float64 run's rounded); undefined
    // for every other head.
    virtual at::Tensor vocabularyLogProbs(const TransformerModel& model, const Batch& batch,
                                          const ForwardResult& out) const;
    // The per-layer "decision vector" of each row of hidden [B, L, H] -> [B, H] float32.
    virtual at::Tensor decisionVector(const Batch& batch, const at::Tensor& hidden) const;
    int classes() const { return static_cast<int>(m_spec.labels.size()); }
    const HeadSpec& spec() const { return m_spec; }

    HeadOutput decide(const at::Tensor& logitsRow) const;

    static std::unique_ptr<Head> create(const HeadSpec& spec, const TransformerModel& model,
                                        const tokenizer::Tokenizer& tok,
                                        const model::Checkpoint& ckpt);

protected:
    explicit Head(HeadSpec s) : m_spec(std::move(s)) {}
    HeadSpec m_spec;
};

} // namespace probaudit::engine
