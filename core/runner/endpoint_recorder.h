#pragma once
// Runs of an endpoint study: an OpenAI-compatible server computes, this process sends the
// requests (concurrency, arrival order, prefix cache: the config's endpoint axes) and commits
// every item as its reply comes, with its exchange with the server, in one transaction.
#include "core/runner/recorder.h"

namespace probaudit::runner {

class EndpointRecorder : public Recorder {
public:
    // `server`: the endpoint its requests go to; `environment`: the server as the session's
    // preflight found it (its fingerprint).
    EndpointRecorder(const RecorderContext& context, const EndpointSpec& server,
                     nlohmann::json environment);

    void plan(ActiveRun& run) override;
    nlohmann::json environment(const RunRequest& request) override;
    Computed compute(ActiveRun& run, ledger::Ledger& ledger, ProgressEvents& progress) override;
    bool resumable(const RunRequest& request) const override;

private:
    RecorderContext m_ctx;
    const EndpointSpec& m_server;
    nlohmann::json m_environment;
};

} // namespace probaudit::runner
