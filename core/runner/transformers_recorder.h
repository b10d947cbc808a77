#pragma once
// Runs computed by the transformers runner (runners/python) in the Python environment a
// config names: the runner tokenizes and computes, this process plans the batches, decides and
// records, as for the engine. One runner process per environment and CPU capability.
#include "core/pyrunner/transformers_runner.h"
#include "core/runner/recorder.h"

#include <map>
#include <memory>
#include <string>

namespace probaudit::runner {

class TransformersRecorder : public Recorder {
public:
    explicit TransformersRecorder(const RecorderContext& context);
    ~TransformersRecorder() override;

    // Before the ledger is touched: every environment the selected configs name starts its
    // runner, answers "env" and loads the model, so an environment or model it cannot use
    // leaves the ledger as it was.
    void preflight(const Selection& selection);

    void plan(ActiveRun& run) override;
    nlohmann::json environment(const RunRequest& request) override;
    Computed compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) override;
    bool resumable(const RunRequest& request) const override;

private:
    // The runner of a config's environment (and CPU capability: a process of its own each),
    // started on first use.
    TransformersRunner& runner(const RunConfig& config);
    // The items as a runner's loaded model variant tokenizes them.
    const std::vector<RunnerItem>& runnerItems(TransformersRunner& runner, const HeadSpec& head,
                                               std::int64_t maxLength, const std::string& variant);

    RecorderContext m_ctx;
    std::map<std::string, std::unique_ptr<TransformersRunner>> m_runners; // by env + capability
    std::map<std::string, std::vector<RunnerItem>> m_runnerItems; // by runner, head, max_length
    const std::vector<RunnerItem>* m_planned = nullptr;           // the planned run's items
};

} // namespace probaudit::runner
