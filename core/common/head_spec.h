#pragma once
// What a decision head is (DESIGN.md), as the user writes it: torch-free, so studies can be
// validated, shown and stored without the engine. engine/heads.h builds the head from it.
//   label_tokens  an LLM's next-token logits at the last real token, restricted to the label
//                 words' token ids, softmaxed (each label word must be exactly one token)
//   adapter       a linear head file (weight [C, H], bias [C]) on a pooled hidden state, of the
//                 bare text or of a prompt template (the file names the template it learned on)
//   classifier    the checkpoint's own sequence-classification head
//   generation    no decision head: greedy generation from the template, turned into records
//                 (the generation audits; a study's heads are all generation heads or none)
#include "core/common/record_spec.h"
#include "core/common/vocabulary.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace probaudit {

struct HeadSpec {
    HeadKind kind = HeadKind::None;       // label_tokens | adapter | classifier | generation
    std::string name;                     // variant name (studies compare head variants)
    std::string template_text = "{text}"; // label_tokens, generation, adapter: prompt with {text}
    std::vector<std::string> labels;      // class names (label_tokens: the label words)
    std::string adapter_path;             // adapter: safetensors file
    std::string pooling;                  // adapter: cls | mean | last ("" = the file's)
    bool normalize = false;               // adapter: L2-normalize the pooled vector
    double threshold = -1;                // binary heads: decide class 1 when p1 >= threshold
    // generation: greedy decoding up to max_new_tokens, ending at a stop string or (when
    // stop_at_eos) the model's EOS; the text becomes records.
    std::int64_t max_new_tokens = 32;
    std::vector<std::string> stop;
    bool stop_at_eos = true;
    RecordSpec records;
    // generation on the engine: per step, the K most likely tokens and their log-probabilities
    // are recorded (0: none), so that two runs compare token distributions (KL, same top token)
    // as endpoint runs with top_logprobs do. An endpoint study asks its server in $.model.
    int top_logprobs = 0;
    // label_tokens: also record the log-probability of every vocabulary token at the decision
    // position (F32 [V] per item), so that two runs compare whole next-token distributions (KL
    // over the vocabulary, same top token), as between model variants. Off by default: it
    // stores 4 bytes per vocabulary entry and item (196 KB an item for SmolLM2).
    bool vocabulary = false;

    bool generation() const { return kind == HeadKind::Generation; }

    // From JSON (a string that is JSON, or the path of a JSON file). Throws probaudit::Error.
    static HeadSpec parse(const std::string& jsonOrPath);
    // Every problem found is appended to `errors` as "PATH: problem"; returns what could be read.
    static HeadSpec fromJson(const nlohmann::json& j, const std::string& path,
                             std::vector<std::string>& errors);
    // Same, throwing probaudit::Error with the problems joined.
    static HeadSpec fromJson(const nlohmann::json& j, const std::string& where);
    nlohmann::json toJson() const;
    // The text the model reads for an item: the template with {text} filled in (a classifier
    // reads the bare text).
    std::string prompt(const std::string& text) const;
};

} // namespace probaudit
