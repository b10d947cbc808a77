#pragma once
// The engine: one model, its tokenizer and a decision head, run over items under a runtime
// configuration, producing one record per item (probabilities, decision-class logits,
// decision, margin, and per-layer capture) plus the run's kernel trace.
#include "core/common/run_config.h"
#include "core/engine/counterfactual.h"
#include "core/engine/generate.h"
#include "core/engine/heads.h"
#include "core/engine/kernel_trace.h"
#include "core/engine/transformer.h"
#include "core/model/checkpoint.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::engine {

struct Item {
    std::string id;
    std::string text;
    std::optional<int> label;
};

enum class Capture { None, Hashes, Vectors, Full };
Capture parseCapture(const std::string& s); // none | hashes | vectors | full
const char* captureName(Capture c);

struct ItemRecord {
    std::size_t item = 0;    // index into the items
    std::int64_t tokens = 0; // tokens the model read
    bool truncated = false;  // the text was cut to the maximum length
    HeadOutput head;
    std::vector<std::uint64_t> layer_hashes;       // hashes+: per hidden state, real tokens
    std::vector<std::vector<float>> layer_vectors; // vectors+: decision vector per hidden state
    std::vector<at::Tensor> layer_full;            // full: [T, H] float32 per hidden state
    std::vector<float> vocabulary;  // F32 [V]: log-probabilities at the decision position
                                    // (a head with "vocabulary"; never in counterfactual runs)
    std::int64_t batch = 0;         // batch index in the run's plan
    std::int64_t row = 0;           // row inside the batch
    std::int64_t padded_length = 0; // L of its batch
    double batch_seconds = 0;       // wall time of its batch (forward + head)
};

struct RunPlan {
    std::vector<std::vector<std::size_t>> batches; // item indices per batch, in run order
};

// progress(done, total) returns false to cancel after the current batch.
using RunProgress = std::function<bool(std::size_t done, std::size_t total)>;
// Called after every batch with its records (the ledger writes one transaction per batch).
using BatchSink = std::function<void(const std::vector<ItemRecord>& batch)>;

// Per-row hash (kernels/row_hash.h) of each row's real tokens of hidden [B, L, H]; on a CUDA
// tensor computed on the GPU, only the hashes copied back.
std::vector<std::uint64_t> rowHashes(const Batch& batch, const at::Tensor& hidden);

class Engine {
public:
    // A HeadSpec with an empty kind or kind generation: no decision head (generation only;
    // run() refuses).
    Engine(const std::string& modelPath, const HeadSpec& head);

    const model::Checkpoint& checkpoint() const { return m_ckpt; }
    const tokenizer::Tokenizer& tokenizer() const { return m_tok; }

    // Token ids the model reads for an item (head prompt, truncation to maxLength or the
    // model's maximum positions). Throws probaudit::Error naming the item for empty text.
    tokenizer::Encoding encode(const Item& item, std::int64_t maxLength) const;

    // Batches in run order (order, batch size).
    static RunPlan plan(const std::vector<std::int64_t>& lengths, const RunConfig& config);

    // Runs `items` under `config`; records come back in item order. The model is loaded (or
    // converted) for the config's dtype and device on first use. `skip` lists items already
    // recorded (a resumed run). Cancelling returns the records of the finished batches.
    std::vector<ItemRecord> run(const std::vector<Item>& items, const RunConfig& config,
                                Capture capture, const RunProgress& progress = {},
                                const BatchSink& sink = {}, const std::vector<bool>& skip = {});
    // The same over items tokenized beforehand with encode() (a study tokenizes once and runs
    // many configs); `encodings` must come from this engine's head and the config's max_length.
    std::vector<ItemRecord> run(const std::vector<tokenizer::Encoding>& encodings,
                                const RunConfig& config, Capture capture,
                                const RunProgress& progress = {}, const BatchSink& sink = {},
                                const std::vector<bool>& skip = {});

    // Loads (or converts) the model for a config's dtype and device and applies its process
    // settings; run() does this itself, callers that time run() call it first.
    void prepare(const RunConfig& config);

    // Greedy generation for prompts (full prompt text, templates applied), batched by the
    // config's batch_size in the given order with left padding (default kernels only).
    // progress is told after each batch; returning false stops there (cancelled()).
    std::vector<Generation> generate(const std::vector<std::string>& prompts,
                                     const RunConfig& config, const GenerateOptions& options,
                                     const RunProgress& progress = {});
    // The serving simulation (generate.h): continuous batching at the config's concurrency,
    // requests arriving in the order of its arrival_seed. Results in prompt order. progress is
    // told each time requests finish; when it returns false the simulation stops there,
    // cancelled() says so and the outputs are incomplete (a partial serving run cannot be
    // resumed: the rest would share other batches).
    std::vector<Generation> serve(const std::vector<std::string>& prompts, const RunConfig& config,
                                  const GenerateOptions& options, ServeStats* stats = nullptr,
                                  const RunProgress& progress = {});

    // Decision runs from now on are counterfactual passes (nullptr: ordinary runs again); the
    // caller keeps it alive while it is set.
    void setCounterfactual(const Counterfactual* cf) { m_counterfactual = cf; }
    // The model and head that compute operations as `other` does inside a pass under `pass`
    // (an operator-class counterfactual): this engine's own when their dtype, device and
    // weight layout agree, else a second copy of the checkpoint loaded for `other` and kept.
    OtherSide otherSide(const RunConfig& other, const RunConfig& pass);

    const KernelTrace& lastTrace() const { return m_trace; }
    // Whether a run on a CUDA device also records its device kernels (on by default; the
    // profiler costs some throughput, which gpu_bench measures with this off and on).
    void setDeviceKernelTrace(bool on) { m_deviceKernelTrace = on; }
    const Head& head() const { return *m_head; }
    const TransformerModel& model() const { return *m_model; }
    bool cancelled() const { return m_cancelled; }

    // Applies a config's process-wide settings (threads, deterministic algorithms, TF32,
    // cuDNN benchmark). ATEN_CPU_CAPABILITY cannot change here (see the CLI).
    static void applyProcessSettings(const RunConfig& config);

private:
    void ensureModel(const RunConfig& config);
    // Checks and prepares a generation (and clears cancelled()); returns the pad id (the
    // model's, else its first EOS).
    std::int32_t prepareGeneration(const RunConfig& config, const GenerateOptions& options);
    std::vector<std::int32_t> encodePrompt(const std::string& prompt, std::size_t index) const;

    model::Checkpoint m_ckpt;
    tokenizer::Tokenizer m_tok;
    HeadSpec m_headSpec;
    std::unique_ptr<TransformerModel> m_model;
    std::unique_ptr<Head> m_head;
    std::string m_loadedKey;                        // dtype + device of m_model
    std::unique_ptr<TransformerModel> m_otherModel; // otherSide()'s second copy
    std::unique_ptr<Head> m_otherHead;
    std::string m_otherKey;
    KernelTrace m_trace;
    bool m_deviceKernelTrace = true;
    bool m_cancelled = false;
    const Counterfactual* m_counterfactual = nullptr;
};

} // namespace probaudit::engine
