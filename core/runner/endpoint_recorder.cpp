#include "core/runner/endpoint_recorder.h"

#include "core/analysis/request_stats.h"
#include "core/common/seeded_order.h"
#include "core/endpoint/endpoint_run.h"
#include "core/engine/engine.h" // engine::Item

#include <utility>

namespace probaudit::runner {

using nlohmann::json;

namespace {

// An endpoint run's requests: the prompts of the items it covers, their places in the run's
// arrival order (seeded by arrival_seed) and, in that order, the ones not recorded yet.
endpoint::EndpointRun endpointRun(const EndpointSpec& server, const ActiveRun& run,
                                  const std::vector<engine::Item>& items) {
    const RunRequest& r = run.req;
    endpoint::EndpointRun er;
    er.endpoint = &server;
    er.head = r.head;
    er.config = r.config;
    for (std::size_t k = 0; k < run.items; ++k) {
        er.items.push_back(run.ledgerItem(k));
        er.prompts.push_back(r.head->prompt(items.at(std::size_t(er.items.back())).text));
    }
    const std::vector<std::size_t> arrivals = seededOrder(run.items, r.config.arrival_seed);
    er.arrival.resize(run.items);
    for (std::size_t a = 0; a < arrivals.size(); ++a) {
        er.arrival[arrivals[a]] = static_cast<std::int64_t>(a);
        if (run.skip.empty() || !run.skip[arrivals[a]]) {
            er.order.push_back(arrivals[a]);
        }
    }
    return er;
}

} // namespace

EndpointRecorder::EndpointRecorder(const RecorderContext& context, const EndpointSpec& server,
                                   json environment)
    : m_ctx(context), m_server(server), m_environment(std::move(environment)) {}

// A shard of a study with a server variant: the server's runs are recorded whole by shard 1
// (their requests share one server; split, each shard's would meet other concurrency), and
// the other shards hold them with no item.
void EndpointRecorder::plan(ActiveRun& run) {
    run.items = run.req.items.empty() ? m_ctx.items.size() : run.req.items.size();
    const Shard& shard = m_ctx.options.shard;
    if (shard.active() && run.req.kind == RunKind::Study) {
        run.outside.assign(run.items, shard.index != 1);
    }
}

json EndpointRecorder::environment(const RunRequest&) {
    return m_environment;
}

// Every item is committed as its reply comes (its record or output and its exchange with the
// server in one transaction), so a run stopped by a signal, a server fault or kill -9 resumes
// with nothing recorded twice and nothing lost.
Computed EndpointRecorder::compute(ActiveRun& run, ledger::Ledger& ledger,
                                   ProgressEvents& progress) {
    const bool generation = run.req.head->generation();
    const endpoint::EndpointStats stats = endpoint::runEndpoint(
        endpointRun(m_server, run, m_ctx.items),
        [&](endpoint::ItemOutcome&& o) {
            ledger.appendEndpointItems(
                run.id, generation ? std::vector<ledger::Record>{} : std::vector{o.record},
                generation ? std::vector{o.output} : std::vector<ledger::GenerationRecord>{},
                {o.request});
            ++run.doneHere;
            batchCommitted();
            return progress(run.doneHere, run.items);
        },
        &m_ctx.stop);
    Computed out;
    out.finished["endpoint"] = analysis::toJson(analysis::requestStats(ledger.requests(run.id)));
    out.finished["endpoint"]["failed_here"] = stats.failed;
    out.stopped = run.already + std::int64_t(run.doneHere) < std::int64_t(run.total());
    return out;
}

// Generation outputs too are committed one item at a time: a stopped run resumes.
bool EndpointRecorder::resumable(const RunRequest&) const {
    return true;
}

} // namespace probaudit::runner
