#include "core/common/run_event.h"

#include "core/common/json_read.h"

namespace probaudit {

using json = nlohmann::json;

namespace {

void get(const json& j, const char* key, std::string& out) {
    out = fieldString(j, key).value_or(out);
}

void get(const json& j, const char* key, double& out) {
    out = fieldNumber(j, key).value_or(out);
}

void get(const json& j, const char* key, std::int64_t& out) {
    out = fieldInt64(j, key).value_or(out);
}

const json* object(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_object() ? &*it : nullptr;
}

void readFinished(const json& e, RunEvent& r) {
    get(e, "status", r.status);
    get(e, "items_done", r.items_done);
    get(e, "seconds", r.seconds);
    if (const json* s = object(e, "serving")) {
        ServingSummary v;
        get(*s, "prefills", v.prefills);
        get(*s, "decode_steps", v.decode_steps);
        get(*s, "max_resident", v.max_resident);
        get(*s, "overhead_share", v.overhead_share);
        get(*s, "total_seconds", v.total_seconds);
        r.serving = v;
    }
    if (const json* s = object(e, "endpoint")) {
        EndpointSummary v;
        get(*s, "achieved_concurrency", v.achieved_concurrency);
        get(*s, "items_per_second", v.items_per_second);
        get(*s, "failed", v.failed);
        get(*s, "retries", v.retries);
        r.endpoint = v;
    }
}

} // namespace

RunEvent RunEvent::read(const json& e) {
    RunEvent r;
    if (!e.is_object()) {
        return r;
    }
    r.kind = eventKind(e);
    r.run = fieldInt64(e, "run");
    get(e, "job", r.job);
    get(e, "head", r.head);
    get(e, "config", r.config);
    get(e, "config_hash", r.config_hash);
    get(e, "label", r.label);
    get(e, "items", r.items);
    get(e, "resumed_items", r.resumed_items);
    get(e, "done", r.done);
    get(e, "total", r.total);
    get(e, "items_per_second", r.items_per_second);
    get(e, "eta_seconds", r.eta_seconds);
    readFinished(e, r);
    get(e, "reason", r.reason);
    get(e, "message", r.message);
    get(e, "ledger", r.ledger);
    get(e, "from", r.from);
    r.imported = fieldInt64(e, "imported");
    return r;
}

} // namespace probaudit
