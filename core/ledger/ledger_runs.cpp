// Runs and their records (ledger.h): a run begins, takes its records batch by batch (one
// transaction each), and is sealed when it finishes; records are read back checked. Diagnoses
// are stored here too.
#include "core/ledger/ledger_internal.h"

#include "core/common/utc_now.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sys/file.h>

namespace probaudit::ledger {

const char* statusName(RunStatus s) {
    switch (s) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Interrupted:
        return "interrupted";
    case RunStatus::Finished:
        return "finished";
    case RunStatus::Failed:
        return "failed";
    }
    return "?";
}

namespace {

RunStatus parseStatus(const std::string& s) {
    if (s == "finished") {
        return RunStatus::Finished;
    }
    if (s == "interrupted") {
        return RunStatus::Interrupted;
    }
    if (s == "failed") {
        return RunStatus::Failed;
    }
    return RunStatus::Running;
}

// Before anything indexes with a record read back: its item is one of the study's, its
// decision one of its classes, its layers as many as the run's other records have and its
// vectors the size those layers and its hidden size make.
void checkRecord(const Record& r, std::int64_t items, bool withLayers, std::size_t layersOfRun) {
    if (r.item < 0 || r.item >= items) {
        throw RowProblem("item index " + std::to_string(r.item) + " is outside the study's " +
                         std::to_string(items) + " items");
    }
    if (r.probs.empty() || r.logits.empty()) {
        throw RowProblem("no class probabilities or logits");
    }
    if (r.decision >= static_cast<int>(r.probs.size()) || r.decision < (r.nonfinite ? -1 : 0)) {
        throw RowProblem("decision " + std::to_string(r.decision) + " of " +
                         std::to_string(r.probs.size()) + " classes");
    }
    if (!withLayers) {
        return;
    }
    const std::size_t layers = r.layer_hashes.size();
    if (layers != layersOfRun) {
        throw RowProblem(std::to_string(layers) +
                         " layer hashes where the run's first record has " +
                         std::to_string(layersOfRun) + " (a layers row is missing or cut)");
    }
    const auto hidden = static_cast<std::size_t>(std::max<std::int64_t>(r.hidden, 0));
    const auto tokens = static_cast<std::size_t>(std::max<std::int64_t>(r.full_tokens, 0));
    if (r.hidden < 0 || r.full_tokens < 0 ||
        (!r.layer_vectors.empty() && r.layer_vectors.size() != layers * hidden) ||
        (!r.layer_full.empty() && r.layer_full.size() != layers * tokens * hidden)) {
        throw RowProblem("layer vectors of " + std::to_string(r.layer_vectors.size()) + " and " +
                         std::to_string(r.layer_full.size()) + " values do not fit " +
                         std::to_string(layers) + " layers of hidden size " +
                         std::to_string(r.hidden));
    }
}

// A run records the vocabulary for every item or for none (a head records it or does not), over
// one vocabulary.
void checkVocabulary(const Record& r, const Record* firstOfRun) {
    if (firstOfRun != nullptr && r.vocabulary.size() != firstOfRun->vocabulary.size()) {
        throw RowProblem("a vocabulary of " + std::to_string(r.vocabulary.size()) +
                         " log-probabilities where the run's first record has " +
                         std::to_string(firstOfRun->vocabulary.size()) +
                         " (a vocabulary row is missing or cut)");
    }
}

// The columns of records(), in its SELECT order (the item in column 0).
void readRecordRow(SQLite::Statement& st, Record& r) {
    r.tokens = storedInt(st.getColumn(1));
    r.truncated = storedFlag(st.getColumn(2));
    const std::int64_t decision = storedInt(st.getColumn(3));
    if (decision < -1 || decision > INT32_MAX) {
        throw RowProblem("decision " + std::to_string(decision) + " is not a class index");
    }
    r.decision = static_cast<int>(decision);
    r.margin = storedFloat(st.getColumn(4));
    r.nonfinite = storedFlag(st.getColumn(5));
    if (r.nonfinite) { // it has no margin: stored as 0 (SQLite has no NaN), read back as NaN
        if (r.margin != 0) {
            throw RowProblem("a record without finite logits has a margin");
        }
        r.margin = std::numeric_limits<float>::quiet_NaN();
    }
    r.probs = storedBlob<float>(st.getColumn(6), false);
    r.logits = storedBlob<float>(st.getColumn(7), false);
    r.batch = storedInt(st.getColumn(8));
    r.row = storedInt(st.getColumn(9));
    r.padded_length = storedInt(st.getColumn(10));
    r.batch_seconds = storedReal(st.getColumn(11));
}

// The columns of a layers row (item, hashes, hidden, vectors, full_tokens, full).
void readLayerRow(SQLite::Statement& st, Record& r) {
    r.layer_hashes = storedBlob<std::uint64_t>(st.getColumn(1), true);
    r.hidden = storedInt(st.getColumn(2));
    r.layer_vectors = storedBlob<float>(st.getColumn(3), true);
    r.full_tokens = storedInt(st.getColumn(4));
    r.layer_full = storedBlob<float>(st.getColumn(5), true);
}

const char* const kRunColumns =
    "id, head, head_json, config_name, config_hash, env_hash, capture, status, items_total, "
    "items_done, started, "
    "finished, message, kernel_trace, chain_seq, records_sha256, prev_sha256, chain_sha256, kind, "
    "label, numerics_sha256, seal_version";

Run readRun(SQLite::Statement& st, const std::string& ledgerPath) {
    Run r;
    r.id = st.getColumn(0).getInt64();
    r.head = st.getColumn(1).getString();
    const std::string row = "run " + std::to_string(r.id);
    r.head_json = storedJson(st.getColumn(2).getString(), ledgerPath, row + " head");
    r.config_name = st.getColumn(3).getString();
    r.config_hash = st.getColumn(4).getString();
    r.env_hash = st.getColumn(5).getString();
    r.capture = st.getColumn(6).getString();
    r.status = parseStatus(st.getColumn(7).getString());
    r.items_total = st.getColumn(8).getInt64();
    r.items_done = st.getColumn(9).getInt64();
    r.started = st.getColumn(10).getString();
    r.finished = st.getColumn(11).getString();
    r.message = st.getColumn(12).getString();
    const std::string trace = st.getColumn(13).getString();
    r.kernel_trace = trace.empty() ? json() : storedJson(trace, ledgerPath, row + " kernel trace");
    if (!st.getColumn(14).isNull()) {
        r.chain_seq = st.getColumn(14).getInt64();
    }
    r.records_sha256 = st.getColumn(15).getString();
    r.prev_sha256 = st.getColumn(16).getString();
    r.chain_sha256 = st.getColumn(17).getString();
    const std::string kind = st.getColumn(18).getString();
    const auto parsed = fromName<RunKind>(kind);
    if (!parsed) {
        throw Error(ledgerPath, row + ": unknown run kind \"" + kind + "\" (one of: " +
                                    allowedNames<RunKind>() + "); its row was edited");
    }
    r.kind = *parsed;
    r.label = st.getColumn(19).getString();
    r.numerics_sha256 = st.getColumn(20).getString();
    r.seal_version = st.getColumn(21).getInt();
    return r;
}

// The latest run of a head, config, environment and capture whose status is in `statuses`.
std::optional<Run> latestRun(SQLite::Database& db, const std::string& ledgerPath,
                             const json& headJson, const std::string& configHash,
                             const std::string& envHash, const std::string& capture,
                             const char* statuses) {
    SQLite::Statement st(
        db,
        std::string("SELECT ") + kRunColumns +
            " FROM runs WHERE head_json = ? AND config_hash = ? AND env_hash = ? AND capture = ? "
            "AND kind = 'study' AND status IN (" +
            statuses + ") ORDER BY id DESC LIMIT 1");
    st.bind(1, headJson.dump());
    st.bind(2, configHash);
    st.bind(3, envHash);
    st.bind(4, capture);
    if (st.executeStep()) {
        return readRun(st, ledgerPath);
    }
    return std::nullopt;
}

} // namespace

std::int64_t Ledger::beginRun(const std::string& head, const json& headJson,
                              const std::string& configName, const std::string& configHash,
                              const std::string& envHash, const std::string& capture,
                              std::int64_t itemsTotal, RunKind kind, const std::string& label,
                              const std::string& started) {
    try {
        SQLite::Statement st(
            *m->db,
            "INSERT INTO runs(head, head_json, config_name, config_hash, env_hash, capture, "
            "status, items_total, started, kind, label) "
            "VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)");
        st.bind(1, head);
        st.bind(2, headJson.dump());
        st.bind(3, configName);
        st.bind(4, configHash);
        st.bind(5, envHash);
        st.bind(6, capture);
        st.bind(7, itemsTotal);
        st.bind(8, started.empty() ? utcNow() : started);
        st.bind(9, nameString(kind));
        st.bind(10, label);
        st.exec();
        return m->db->getLastInsertRowid();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::optional<Run> Ledger::findResumable(const json& headJson, const std::string& configHash,
                                         const std::string& envHash,
                                         const std::string& capture) const {
    return guard([&] {
        return latestRun(*m->db, m_path, headJson, configHash, envHash, capture,
                         "'running', 'interrupted'");
    });
}

std::optional<Run> Ledger::findFinished(const json& headJson, const std::string& configHash,
                                        const std::string& envHash,
                                        const std::string& capture) const {
    return guard([&] {
        return latestRun(*m->db, m_path, headJson, configHash, envHash, capture, "'finished'");
    });
}

void Ledger::resumeRun(std::int64_t run) {
    try {
        SQLite::Statement st(*m->db,
                             "UPDATE runs SET status = 'running', message = NULL WHERE id = ?");
        st.bind(1, run);
        st.exec();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::appendBatch(std::int64_t run, const std::vector<Record>& records) {
    try {
        Unit t(*m->db);
        if (!m->insRecord) {
            m->insRecord = std::make_unique<SQLite::Statement>(
                *m->db, "INSERT INTO records(run, item, tokens, truncated, decision, margin, "
                        "nonfinite, probs, logits, "
                        "batch, row, padded_length, batch_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                        "?, ?, ?, ?, ?)");
            m->insLayer = std::make_unique<SQLite::Statement>(
                *m->db, "INSERT INTO layers(run, item, hashes, hidden, vectors, full_tokens, full) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)");
            m->insVocabulary = std::make_unique<SQLite::Statement>(
                *m->db, "INSERT INTO vocabulary(run, item, logprobs) VALUES (?, ?, ?)");
            m->addDone = std::make_unique<SQLite::Statement>(
                *m->db, "UPDATE runs SET items_done = items_done + ? WHERE id = ?");
        }
        SQLite::Statement& rec = *m->insRecord;
        SQLite::Statement& lay = *m->insLayer;
        SQLite::Statement& voc = *m->insVocabulary;
        SQLite::Statement& upd = *m->addDone;
        // A failed batch leaves a statement mid-step: start each batch from a clean state.
        rec.reset();
        lay.reset();
        voc.reset();
        upd.reset();
        for (const Record& r : records) {
            rec.bind(1, run);
            rec.bind(2, r.item);
            rec.bind(3, r.tokens);
            rec.bind(4, static_cast<int>(r.truncated));
            rec.bind(5, r.decision);
            if (std::isnan(r.margin) && !r.nonfinite) {
                throw Error(m_path, "run " + std::to_string(run) + ", item " +
                                        std::to_string(r.item) +
                                        ": a margin that is not a number in a record with finite "
                                        "logits cannot be stored");
            }
            rec.bind(6, r.nonfinite ? 0.0 : static_cast<double>(r.margin));
            rec.bind(7, static_cast<int>(r.nonfinite));
            rec.bindNoCopy(8, r.probs.data(), static_cast<int>(r.probs.size() * sizeof(float)));
            rec.bindNoCopy(9, r.logits.data(), static_cast<int>(r.logits.size() * sizeof(float)));
            rec.bind(10, r.batch);
            rec.bind(11, r.row);
            rec.bind(12, r.padded_length);
            rec.bind(13, r.batch_seconds);
            rec.exec();
            rec.reset();
            if (!r.layer_hashes.empty()) {
                lay.bind(1, run);
                lay.bind(2, r.item);
                bindVector(lay, 3, r.layer_hashes);
                lay.bind(4, r.hidden);
                bindVector(lay, 5, r.layer_vectors);
                lay.bind(6, r.full_tokens);
                bindVector(lay, 7, r.layer_full);
                lay.exec();
                lay.reset();
            }
            if (!r.vocabulary.empty()) {
                voc.bind(1, run);
                voc.bind(2, r.item);
                bindVector(voc, 3, r.vocabulary);
                voc.exec();
                voc.reset();
            }
        }
        upd.bind(1, static_cast<std::int64_t>(records.size()));
        upd.bind(2, run);
        upd.exec();
        upd.reset();
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::setKernelTrace(std::int64_t run, const json& trace) {
    try {
        // Several attempts of a resumed run add up their operator counts.
        json merged = this->run(run).kernel_trace;
        if (!merged.is_object()) {
            merged = trace;
        } else {
            for (const char* part : {"ops", "device_kernels"}) {
                if (trace.contains(part)) {
                    for (const auto& [name, n] : trace[part].items()) {
                        merged[part][name] =
                            merged[part].value(name, std::int64_t(0)) + n.get<std::int64_t>();
                    }
                }
            }
        }
        SQLite::Statement st(*m->db, "UPDATE runs SET kernel_trace = ? WHERE id = ?");
        st.bind(1, merged.dump());
        st.bind(2, run);
        st.exec();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::finishRun(std::int64_t id, const std::string& finished) {
    try {
        Unit t(*m->db);
        Run r = run(id);
        const auto records = this->records(id, true, true);
        const auto outputs = generations(id);
        const auto exchanges = requests(id);
        if (static_cast<std::int64_t>(records.size() + outputs.size()) != r.items_total) {
            throw Error(m_path, "run " + std::to_string(id) + " has " +
                                    std::to_string(records.size() + outputs.size()) + " of " +
                                    std::to_string(r.items_total) +
                                    " records; it cannot be finished");
        }
        const auto last = lastLink(*m->db);
        const std::int64_t seq = last ? last->seq + 1 : 1;
        const std::string prev = last ? last->sha256 : std::string(64, '0');
        SQLite::Statement st(*m->db,
                             "UPDATE runs SET status = 'finished', finished = ?, chain_seq = ?, "
                             "records_sha256 = ?, prev_sha256 = ?, numerics_sha256 = ?, "
                             "message = NULL, seal_version = 2 WHERE id = ?");
        st.bind(1, finished.empty() ? utcNow() : finished);
        st.bind(2, seq);
        st.bind(3, recordsHash(records, outputs, exchanges));
        st.bind(4, prev);
        st.bind(5, recordsHash(records, outputs, exchanges, false));
        st.bind(6, id);
        st.exec();
        // The chain hash covers the row as it now stands (every other column sealed with it).
        SQLite::Statement seal(*m->db, "UPDATE runs SET chain_sha256 = ? WHERE id = ?");
        seal.bind(1, runChainHashV2(*m->db, id, r.config_hash, r.env_hash, prev));
        seal.bind(2, id);
        seal.exec();
        t.commit();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::markRun(std::int64_t run, RunStatus status, const std::string& message) {
    try {
        SQLite::Statement st(
            *m->db,
            "UPDATE runs SET status = ?, message = ? WHERE id = ? AND status != 'finished'");
        st.bind(1, statusName(status));
        st.bind(2, message);
        st.bind(3, run);
        st.exec();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::vector<Run> Ledger::runs() const {
    return guard([&] {
        // A "running" run whose writer is gone (the lock is free) was cut off: it is resumable.
        bool writerAlive = false;
        if (!m->writer && m->lockFd >= 0) {
            writerAlive = ::flock(m->lockFd, LOCK_SH | LOCK_NB) != 0;
            if (!writerAlive) {
                ::flock(m->lockFd, LOCK_UN);
            }
        }
        std::vector<Run> out;
        SQLite::Statement st(*m->db,
                             std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id");
        while (st.executeStep()) {
            out.push_back(readRun(st, m_path));
            out.back().writer_alive = out.back().status == RunStatus::Running && writerAlive;
        }
        return out;
    });
}

Run Ledger::run(std::int64_t id) const {
    return guard([&] {
        SQLite::Statement st(*m->db,
                             std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?");
        st.bind(1, id);
        if (!st.executeStep()) {
            throw Error(m_path, "no run " + std::to_string(id));
        }
        return readRun(st, m_path);
    });
}

std::vector<Record> readRecords(SQLite::Database& db, const std::string& path, std::int64_t run,
                                bool withLayers, bool withVocabulary) {
    std::vector<Record> out;
    SQLite::Statement st(db, "SELECT item, tokens, truncated, decision, margin, nonfinite, probs, "
                             "logits, batch, row, padded_length, batch_seconds FROM records WHERE "
                             "run = ? ORDER BY item");
    st.bind(1, run);
    // Both tables are ordered by (run, item): their rows are merged in one pass each, not
    // looked up item by item (a B-tree search per record).
    std::optional<SQLite::Statement> layers;
    bool layersLeft = false;
    if (withLayers) {
        layers.emplace(db, "SELECT item, hashes, hidden, vectors, full_tokens, full FROM "
                           "layers WHERE run = ? ORDER BY item");
        layers->bind(1, run);
        layersLeft = layers->executeStep();
    }
    std::optional<SQLite::Statement> vocabulary;
    bool vocabularyLeft = false;
    if (withVocabulary) {
        vocabulary.emplace(db, "SELECT item, logprobs FROM vocabulary WHERE run = ? ORDER BY item");
        vocabulary->bind(1, run);
        vocabularyLeft = vocabulary->executeStep();
    }
    const std::int64_t items = itemsIn(db);
    while (st.executeStep()) {
        Record r;
        r.item = st.getColumn(0).getInt64();
        try {
            storedInt(st.getColumn(0));
            readRecordRow(st, r);
            while (layersLeft && layers->getColumn(0).getInt64() < r.item) {
                layersLeft = layers->executeStep();
            }
            if (layersLeft && layers->getColumn(0).getInt64() == r.item) {
                readLayerRow(*layers, r);
            }
            while (vocabularyLeft && vocabulary->getColumn(0).getInt64() < r.item) {
                vocabularyLeft = vocabulary->executeStep();
            }
            if (vocabularyLeft && vocabulary->getColumn(0).getInt64() == r.item) {
                r.vocabulary = storedBlob<float>(vocabulary->getColumn(1), false);
            }
            checkRecord(r, items, withLayers,
                        out.empty() ? r.layer_hashes.size() : out.front().layer_hashes.size());
            checkVocabulary(r, out.empty() ? nullptr : &out.front());
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, r.item, e);
        }
        out.push_back(std::move(r));
    }
    return out;
}
std::vector<Record> Ledger::records(std::int64_t run, bool withLayers, bool withVocabulary) const {
    return guard([&] { return readRecords(*m->db, m_path, run, withLayers, withVocabulary); });
}

void Ledger::putDiagnosis(const std::string& head, const json& diagnosis) {
    try {
        Unit t(*m->db);
        SQLite::Statement st(*m->db, "INSERT INTO diagnoses(head, created, json) VALUES (?, ?, ?)");
        st.bind(1, head);
        st.bind(2, utcNow());
        st.bind(3, diagnosis.dump());
        st.exec();
        sealState(*m->db);
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::optional<json> Ledger::latestDiagnosis(const std::string& head) const {
    return guard([&]() -> std::optional<json> {
        SQLite::Statement st(*m->db,
                             "SELECT json FROM diagnoses WHERE head = ? ORDER BY id DESC LIMIT 1");
        st.bind(1, head);
        if (!st.executeStep()) {
            return std::nullopt;
        }
        return storedJson(st.getColumn(0).getString(), m_path, "the diagnosis of head " + head);
    });
}

namespace {
std::string localizationKey(const std::string& head, const std::string& a, const std::string& b) {
    return json::array({"localize", head, a, b}).dump();
}
} // namespace

void Ledger::putLocalization(const std::string& head, const std::string& a, const std::string& b,
                             const json& localization) {
    putDiagnosis(localizationKey(head, a, b), localization);
}

std::optional<json> Ledger::latestLocalization(const std::string& head, const std::string& a,
                                               const std::string& b) const {
    return latestDiagnosis(localizationKey(head, a, b));
}

std::vector<std::int64_t> Ledger::recordedItems(std::int64_t run) const {
    return guard([&] {
        std::vector<std::int64_t> out;
        SQLite::Statement st(*m->db, "SELECT item FROM records WHERE run = ? UNION "
                                     "SELECT item FROM generations WHERE run = ? ORDER BY item");
        st.bind(1, run);
        st.bind(2, run);
        while (st.executeStep()) {
            out.push_back(st.getColumn(0).getInt64());
        }
        return out;
    });
}

void Ledger::atomically(const std::function<void()>& work) {
    Unit unit(*m->db);
    work();
    try {
        unit.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

} // namespace probaudit::ledger
