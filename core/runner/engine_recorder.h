#pragma once
// Runs computed by the built-in libtorch engine in this process: one engine per model variant
// and head, the items tokenized once per variant, head and max_length, every batch committed as it
// comes; generation heads recorded whole (static batches, or the serving simulation at batch size
// 1). This header is torch-free (the engine is only forward-declared).
#include "core/runner/recorder.h"
#include "core/tokenizer/tokenizer.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

namespace probaudit::engine {
class Engine;
} // namespace probaudit::engine

namespace probaudit::runner {

class EngineRecorder : public Recorder {
public:
    explicit EngineRecorder(const RecorderContext& context);
    ~EngineRecorder() override;

    // The engine of a head on a model variant (a config's "model"; "": the study's first),
    // loaded on first use.
    engine::Engine& engine(const HeadSpec& head, const std::string& variant = "");
    // Every item of the study as that engine tokenizes it, truncated to maxLength. A variant
    // whose token ids differ from the reference config's variant's is refused: its decisions would
    // not be about the same inputs.
    const std::vector<tokenizer::Encoding>& encodings(const HeadSpec& head, std::int64_t maxLength,
                                                      const std::string& variant = "");

    void plan(ActiveRun& run) override;
    nlohmann::json environment(const RunRequest& request) override;
    Computed compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) override;
    bool resumable(const RunRequest& request) const override;

private:
    // A shard records its range of the config's batches over all items, as a one-node run
    // makes them.
    void markOutsideShard(ActiveRun& run) const;

    // The study's variant a config names, its name resolved ("" -> the first variant's).
    const study::ModelVariant& variantOf(const std::string& variant) const;
    void checkSameTokens(const HeadSpec& head, std::int64_t maxLength, const study::ModelVariant& v,
                         const std::vector<tokenizer::Encoding>& e);

    RecorderContext m_ctx;
    // Keyed by (variant, head).
    std::map<std::pair<std::string, std::string>, std::unique_ptr<engine::Engine>> m_engines;
    // Keyed by (variant, head, max_length).
    std::map<std::tuple<std::string, std::string, std::int64_t>, std::vector<tokenizer::Encoding>>
        m_encodings;
    std::vector<tokenizer::Encoding> m_subset; // the planned run's encodings (a subset of items)
    const std::vector<tokenizer::Encoding>* m_enc = nullptr; // the planned run's encodings
};

} // namespace probaudit::runner
