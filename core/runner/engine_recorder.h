#pragma once
// Runs computed by the built-in libtorch engine in this process: one engine per head, the
// items tokenized once per head and max_length, every batch committed as it comes; generation
// heads recorded whole (static batches, or the serving simulation at batch size 1).
// This header is torch-free (the engine is only forward-declared).
#include "core/runner/recorder.h"
#include "core/tokenizer/tokenizer.h"

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace probaudit::engine {
class Engine;
} // namespace probaudit::engine

namespace probaudit::runner {

class EngineRecorder : public Recorder {
public:
    explicit EngineRecorder(const RecorderContext& context);
    ~EngineRecorder() override;

    // The engine of a head, loaded on first use.
    engine::Engine& engine(const HeadSpec& head);
    // Every item of the study as the head's engine tokenizes it, truncated to maxLength.
    const std::vector<tokenizer::Encoding>& encodings(const HeadSpec& head, std::int64_t maxLength);

    void plan(ActiveRun& run) override;
    nlohmann::json environment(const RunRequest& request) override;
    Computed compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) override;
    bool resumable(const RunRequest& request) const override;

private:
    // A shard records its range of the config's batches over all items, as a one-node run
    // makes them.
    void markOutsideShard(ActiveRun& run) const;

    RecorderContext m_ctx;
    std::map<std::string, std::unique_ptr<engine::Engine>> m_engines;
    std::map<std::pair<std::string, std::int64_t>, std::vector<tokenizer::Encoding>> m_encodings;
    std::vector<tokenizer::Encoding> m_subset; // the planned run's encodings (a subset of items)
    const std::vector<tokenizer::Encoding>* m_enc = nullptr; // the planned run's encodings
};

} // namespace probaudit::runner
