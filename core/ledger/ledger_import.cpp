// Copying runs between ledgers (ledger.h): a finished run of another ledger imported and sealed
// again in this one's chain, and a consistent one-file copy of the whole ledger.
#include "core/ledger/ledger_internal.h"

#include <cstdint>

namespace probaudit::ledger {

bool Run::imported() const {
    return label.rfind(kImportedFrom, 0) == 0;
}

std::int64_t Ledger::importRun(const Ledger& source, std::int64_t id, bool reuse,
                               const std::string& origin) {
    std::int64_t mine = 0;
    atomically([&] { mine = importRunBody(source, id, reuse, origin); });
    return mine;
}

std::int64_t Ledger::importRunBody(const Ledger& source, std::int64_t id, bool reuse,
                                   const std::string& origin) {
    const Run src = source.run(id);
    if (src.status != RunStatus::Finished) {
        throw Error(source.path(), "run " + std::to_string(id) + " is not finished");
    }
    for (const Run& r : reuse ? runs() : std::vector<Run>()) {
        if (r.status == RunStatus::Finished && r.records_sha256 == src.records_sha256 &&
            r.config_hash == src.config_hash && r.env_hash == src.env_hash &&
            r.head_json == src.head_json && r.capture == src.capture && r.kind == src.kind) {
            return r.id; // already here
        }
    }
    putConfig(src.config_hash, src.config_name, source.config(src.config_hash));
    if (putEnvironment(source.environment(src.env_hash)) != src.env_hash) {
        throw Error(source.path(), "run " + std::to_string(id) +
                                       ": its environment does not hash to its recorded hash");
    }
    const std::int64_t mine = beginRun(
        src.head, src.head_json, src.config_name, src.config_hash, src.env_hash, src.capture,
        src.items_total, src.kind,
        src.label.empty() && !origin.empty() ? kImportedFrom + origin : src.label, src.started);
    std::vector<Record> all = source.records(id, true, true);
    std::vector<Record> batch;
    for (auto& r : all) {
        batch.push_back(std::move(r));
        if (batch.size() == 256) {
            appendBatch(mine, batch);
            batch.clear();
        }
    }
    if (!batch.empty()) {
        appendBatch(mine, batch);
    }
    if (auto outputs = source.generations(id); !outputs.empty()) {
        appendGenerations(mine, outputs);
    }
    if (auto exchanges = source.requests(id); !exchanges.empty()) {
        appendEndpointItems(mine, {}, {}, exchanges);
    }
    setKernelTrace(mine, src.kernel_trace);
    finishRun(mine, src.finished);                        // recorded then, not now
    if (run(mine).records_sha256 != src.records_sha256) { // the whole import rolls back
        throw Error(source.path(), "run " + std::to_string(id) +
                                       ": the imported records do not reproduce its seal");
    }
    return mine;
}

void Ledger::snapshotTo(const std::string& path) const {
    try {
        SQLite::Statement st(*m->db, "VACUUM INTO ?");
        st.bind(1, path);
        st.exec();
    } catch (const std::exception& e) {
        throw Error(path, std::string("cannot write a copy of the ledger: ") + e.what());
    }
}

} // namespace probaudit::ledger
