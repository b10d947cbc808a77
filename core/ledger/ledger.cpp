#include "ledger/ledger.h"

#include "common/build_info.h"
#include "common/error.h"
#include "common/json_read.h"
#include "common/sha256.h"
#include "common/utc_now.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace probaudit::ledger {

using nlohmann::json;
namespace fs = std::filesystem;

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

// Schema steps: kMigrations[v] takes a ledger from version v to v + 1. Never edit a step that
// has shipped; add the next one and raise kSchemaVersion.
const char* const kMigrations[] = {
    // 0 -> 1
    R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE study(id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, json TEXT NOT NULL,
                   dataset_sha256 TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE items(idx INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, label INTEGER,
                   line INTEGER NOT NULL);
CREATE TABLE configs(hash TEXT PRIMARY KEY, name TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE environments(hash TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE runs(id INTEGER PRIMARY KEY, head TEXT NOT NULL, head_json TEXT NOT NULL,
                  config_name TEXT NOT NULL, config_hash TEXT NOT NULL REFERENCES configs(hash),
                  env_hash TEXT NOT NULL REFERENCES environments(hash), capture TEXT NOT NULL,
                  status TEXT NOT NULL, items_total INTEGER NOT NULL, items_done INTEGER NOT NULL DEFAULT 0,
                  started TEXT NOT NULL, finished TEXT, message TEXT, kernel_trace TEXT,
                  chain_seq INTEGER UNIQUE, records_sha256 TEXT, prev_sha256 TEXT, chain_sha256 TEXT);
CREATE TABLE records(run INTEGER NOT NULL REFERENCES runs(id), item INTEGER NOT NULL REFERENCES items(idx),
                     tokens INTEGER NOT NULL, truncated INTEGER NOT NULL, decision INTEGER NOT NULL,
                     margin REAL NOT NULL, nonfinite INTEGER NOT NULL, probs BLOB NOT NULL, logits BLOB NOT NULL,
                     batch INTEGER NOT NULL, row INTEGER NOT NULL, padded_length INTEGER NOT NULL,
                     batch_seconds REAL NOT NULL, PRIMARY KEY (run, item)) WITHOUT ROWID;
CREATE TABLE layers(run INTEGER NOT NULL, item INTEGER NOT NULL, hashes BLOB, hidden INTEGER NOT NULL,
                    vectors BLOB, full_tokens INTEGER NOT NULL, full BLOB,
                    PRIMARY KEY (run, item)) WITHOUT ROWID;
)sql",
    // 1 -> 2: probe runs (diagnosis) beside study runs
    R"sql(
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'study';
ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN numerics_sha256 TEXT;
)sql",
    // 2 -> 3: stored diagnoses (the ladder's result; its probe runs are sealed runs)
    R"sql(
CREATE TABLE diagnoses(id INTEGER PRIMARY KEY, head TEXT NOT NULL, created TEXT NOT NULL,
                       json TEXT NOT NULL);
)sql",
    // 3 -> 4: generation outputs (generation heads)
    R"sql(
CREATE TABLE generations(run INTEGER NOT NULL REFERENCES runs(id), item INTEGER NOT NULL REFERENCES items(idx),
                         prompt_tokens INTEGER NOT NULL, text TEXT NOT NULL, finish TEXT NOT NULL,
                         arrival INTEGER NOT NULL, tokens BLOB, logits BLOB, gaps BLOB, batch BLOB,
                         PRIMARY KEY (run, item)) WITHOUT ROWID;
)sql",
    // 4 -> 5: the chain seals the study, items, settings, configs, environments and diagnoses
    // too ("state" links beside the runs' links); runs sealed from now on hash their stored
    // bytes exactly (seal version 2); signatures over chain heads.
    R"sql(
CREATE TABLE seals(seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL,
                   prev_sha256 TEXT NOT NULL, chain_sha256 TEXT NOT NULL);
ALTER TABLE runs ADD COLUMN seal_version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE signatures(id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, chain_sha256 TEXT NOT NULL,
                        public_key TEXT NOT NULL, signature TEXT NOT NULL, signed TEXT NOT NULL);
)sql",
    // 5 -> 6: endpoint runs keep every item's exchange with the server (attempts and their
    // times, top_logprobs, why an item failed)
    R"sql(
CREATE TABLE requests(run INTEGER NOT NULL REFERENCES runs(id), item INTEGER NOT NULL REFERENCES items(idx),
                      json TEXT NOT NULL, PRIMARY KEY (run, item)) WITHOUT ROWID;
)sql",
    // 6 -> 7: engine generation runs keep each step's top-K tokens and log-probabilities
    R"sql(
ALTER TABLE generations ADD COLUMN top_tokens BLOB;
ALTER TABLE generations ADD COLUMN top_logprobs BLOB;
)sql",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kSchemaVersion);

// Before anything is written: an SQLite file that is not a ledger (another program's database)
// is refused, never migrated into. Version 0 is a ledger only while the file holds nothing yet;
// any later version must have the first schema's tables.
void refuseForeignDatabase(SQLite::Database& db, const std::string& path, int version) {
    SQLite::Statement st(db, "SELECT count(*), coalesce(sum(name IN ('meta', 'study', 'items', "
                             "'runs', 'records')), 0) FROM sqlite_master WHERE type = 'table'");
    st.executeStep();
    const int tables = st.getColumn(0).getInt(), ours = st.getColumn(1).getInt();
    if ((version == 0 && tables > 0) || (version > 0 && ours < 5)) {
        throw Error(path, "not a ProbAudit ledger (an SQLite database with other tables); "
                          "nothing was changed in it");
    }
}

// The process holding an flock on this descriptor's file, from /proc/locks (Linux); 0 when
// it cannot be told.
long flockHolder(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        return 0;
    }
    std::ifstream locks("/proc/locks");
    std::string line;
    while (std::getline(locks, line)) {
        std::istringstream in(line);
        std::string id, kind, mode, access, dev;
        long pid = 0;
        if (!(in >> id >> kind) || kind != "FLOCK" || !(in >> mode >> access >> pid >> dev)) {
            continue;
        }
        const auto colon = dev.rfind(':');
        if (colon != std::string::npos && dev.substr(colon + 1) == std::to_string(st.st_ino)) {
            return pid;
        }
    }
    return 0;
}

template <typename T> void bindVector(SQLite::Statement& st, int index, const std::vector<T>& v) {
    if (v.empty()) {
        st.bind(index); // NULL
    } else {
        st.bindNoCopy(index, v.data(), static_cast<int>(v.size() * sizeof(T)));
    }
}

// A stored row that cannot be what this ledger wrote (an edit, damage): what is wrong with it,
// without the run and item, which the reader adds.
class RowProblem : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

template <typename T> std::vector<T> blobVector(const SQLite::Column& c) {
    if (static_cast<std::size_t>(c.getBytes()) % sizeof(T) != 0) {
        throw RowProblem(std::string(c.getName()) + " holds " + std::to_string(c.getBytes()) +
                         " bytes, not a whole number of " + std::to_string(sizeof(T)) +
                         "-byte values");
    }
    std::vector<T> v(static_cast<std::size_t>(c.getBytes()) / sizeof(T));
    if (!v.empty()) {
        std::memcpy(v.data(), c.getBlob(), v.size() * sizeof(T));
    }
    return v;
}

// Strict readers of stored values: a value of another SQLite type than this ledger writes, or
// one that does not survive the trip into the record's field unchanged (a margin that is not a
// float32 value, a flag that is neither 0 nor 1), is a row problem, so that the record hash
// covers what is stored exactly.
std::int64_t storedInt(const SQLite::Column& c) {
    if (c.getType() != SQLITE_INTEGER) {
        throw RowProblem(std::string(c.getName()) + " is not an integer");
    }
    return c.getInt64();
}

bool storedFlag(const SQLite::Column& c) {
    const std::int64_t v = storedInt(c);
    if (v != 0 && v != 1) {
        throw RowProblem(std::string(c.getName()) + " is " + std::to_string(v) + ", not 0 or 1");
    }
    return v == 1;
}

double storedReal(const SQLite::Column& c) {
    if (c.getType() != SQLITE_FLOAT) {
        throw RowProblem(std::string(c.getName()) + " is not a real number");
    }
    return c.getDouble();
}

float storedFloat(const SQLite::Column& c) {
    const double d = storedReal(c);
    const auto f = static_cast<float>(d);
    if (static_cast<double>(f) != d) {
        throw RowProblem(std::string(c.getName()) + " is not a float32 value");
    }
    return f;
}

std::string storedText(const SQLite::Column& c) {
    if (c.getType() != SQLITE_TEXT) {
        throw RowProblem(std::string(c.getName()) + " is not text");
    }
    return c.getString();
}

// A blob column (NULL allowed where the schema allows it: an empty vector).
template <typename T> std::vector<T> storedBlob(const SQLite::Column& c, bool nullable) {
    if (c.getType() != SQLITE_BLOB && !(nullable && c.isNull())) {
        throw RowProblem(std::string(c.getName()) + " is not a blob");
    }
    return blobVector<T>(c);
}

// Hashes the statement's current row exactly as stored: per column its SQLite type and its
// bytes (integers and reals as their 8 bytes, text and blobs length-prefixed).
void hashStoredRow(Sha256& h, SQLite::Statement& st) {
    for (int i = 0; i < st.getColumnCount(); ++i) {
        const SQLite::Column c = st.getColumn(i);
        const std::int64_t type = c.getType();
        h.update(&type, sizeof type);
        if (type == SQLITE_INTEGER) {
            const std::int64_t v = c.getInt64();
            h.update(&v, sizeof v);
        } else if (type == SQLITE_FLOAT) {
            const double v = c.getDouble();
            h.update(&v, sizeof v);
        } else if (type != SQLITE_NULL) {
            const void* data = c.getBlob(); // before getBytes (SQLite's rule for conversions)
            const std::int64_t n = c.getBytes();
            h.update(&n, sizeof n);
            h.update(data, static_cast<std::size_t>(n));
        }
    }
}

// The SHA-256 of every row a query returns, as stored.
std::string storedRowsHash(SQLite::Database& db, const std::string& sql,
                           std::optional<std::string> key = std::nullopt) {
    Sha256 h;
    SQLite::Statement st(db, sql);
    if (key) {
        st.bind(1, *key);
    }
    while (st.executeStep()) {
        hashStoredRow(h, st);
    }
    return h.hex();
}

// What a "state" link of the chain seals: each table that is neither a run nor a record,
// row by row as stored. A state link is added whenever one of them changes.
const std::pair<const char*, const char*> kStateTables[] = {
    {"study", "SELECT id, name, json, dataset_sha256, created FROM study ORDER BY id"},
    {"items", "SELECT idx, id, text, label, line FROM items ORDER BY idx"},
    {"meta", "SELECT key, value FROM meta ORDER BY key"},
    {"configs", "SELECT hash, name, json FROM configs ORDER BY hash"},
    {"environments", "SELECT hash, json FROM environments ORDER BY hash"},
    {"diagnoses", "SELECT id, head, created, json FROM diagnoses ORDER BY id"},
};

json stateDigests(SQLite::Database& db) {
    json j = json::object();
    for (const auto& [table, sql] : kStateTables) {
        j[table] = storedRowsHash(db, sql);
    }
    return j;
}

// A run sealed at version 2: its stored row (every column but its own chain hash), its config
// row and its environment row, exactly as stored, after the previous link's hash.
const char* const kSealedRunColumns =
    "id, head, head_json, config_name, config_hash, env_hash, capture, status, items_total, "
    "items_done, started, finished, message, kernel_trace, chain_seq, records_sha256, "
    "prev_sha256, kind, label, numerics_sha256, seal_version";

std::string runChainHashV2(SQLite::Database& db, std::int64_t id, const std::string& configHash,
                           const std::string& envHash, const std::string& prev) {
    const std::string row =
        storedRowsHash(db, std::string("SELECT ") + kSealedRunColumns + " FROM runs WHERE id = ?",
                       std::to_string(id));
    const std::string config =
        storedRowsHash(db, "SELECT hash, name, json FROM configs WHERE hash = ?", configHash);
    const std::string env =
        storedRowsHash(db, "SELECT hash, json FROM environments WHERE hash = ?", envHash);
    const std::string text = "run/2\n" + prev + "\n" + row + "\n" + config + "\n" + env;
    return sha256Hex(text.data(), text.size());
}

std::string linkHash(const std::string& prev, const std::string& kind, const std::string& body) {
    const std::string text = prev + "\n" + kind + "\n" + body;
    return sha256Hex(text.data(), text.size());
}

// The chain's last link (a sealed run or a seal row), if any.
std::optional<ChainHead> lastLink(SQLite::Database& db) {
    SQLite::Statement st(db, "SELECT seq, chain FROM (SELECT chain_seq AS seq, chain_sha256 AS "
                             "chain FROM runs WHERE chain_seq IS NOT NULL UNION ALL SELECT seq, "
                             "chain_sha256 FROM seals) ORDER BY seq DESC LIMIT 1");
    if (!st.executeStep()) {
        return std::nullopt;
    }
    return ChainHead{st.getColumn(0).getInt64(), st.getColumn(1).getString()};
}

// Adds a state link when the sealed tables differ from what the last state link sealed. Called
// inside the transaction of every write to them, so that no change to them is ever unsealed.
void sealState(SQLite::Database& db) {
    const std::string body = stateDigests(db).dump();
    {
        SQLite::Statement st(
            db, "SELECT body FROM seals WHERE kind = 'state' ORDER BY seq DESC LIMIT 1");
        if (st.executeStep() && st.getColumn(0).getString() == body) {
            return;
        }
    }
    const auto last = lastLink(db);
    const std::string prev = last ? last->sha256 : std::string(64, '0');
    SQLite::Statement ins(db, "INSERT INTO seals(seq, kind, body, prev_sha256, chain_sha256) "
                              "VALUES (?, 'state', ?, ?, ?)");
    ins.bind(1, last ? last->seq + 1 : std::int64_t(1));
    ins.bind(2, body);
    ins.bind(3, prev);
    ins.bind(4, linkHash(prev, "state", body));
    ins.exec();
}

// The bytes a record is sealed with: every field in a fixed order, blobs length-prefixed.
// withTiming false: the numbers only (no batch wall time), what two runs of the same config
// must agree on bit for bit.
// Sealed bytes: integers as 64 bits, blobs prefixed with their length.
struct Seal {
    Sha256& h;
    void i64(std::int64_t v) const { h.update(&v, sizeof v); }
    void blob(const void* p, std::size_t n) const {
        i64(static_cast<std::int64_t>(n));
        h.update(p, n);
    }
};

void hashRecord(Sha256& h, const Record& r, bool withTiming = true) {
    const Seal seal{h};
    const auto i64 = [&](std::int64_t v) { seal.i64(v); };
    const auto blob = [&](const void* p, std::size_t n) { seal.blob(p, n); };
    i64(r.item);
    i64(r.tokens);
    i64(r.truncated);
    i64(r.decision);
    h.update(&r.margin, sizeof r.margin);
    i64(r.nonfinite);
    blob(r.probs.data(), r.probs.size() * sizeof(float));
    blob(r.logits.data(), r.logits.size() * sizeof(float));
    i64(r.batch);
    i64(r.row);
    i64(r.padded_length);
    if (withTiming) {
        h.update(&r.batch_seconds, sizeof r.batch_seconds);
    }
    blob(r.layer_hashes.data(), r.layer_hashes.size() * sizeof(std::uint64_t));
    i64(r.hidden);
    blob(r.layer_vectors.data(), r.layer_vectors.size() * sizeof(float));
    i64(r.full_tokens);
    blob(r.layer_full.data(), r.layer_full.size() * sizeof(float));
}

// The bytes a generation output is sealed with, in the same manner (no wall times in it).
void hashGeneration(Sha256& h, const GenerationRecord& g) {
    const Seal seal{h};
    const auto i64 = [&](std::int64_t v) { seal.i64(v); };
    const auto blob = [&](const void* p, std::size_t n) { seal.blob(p, n); };
    i64(g.item);
    i64(g.prompt_tokens);
    blob(g.text.data(), g.text.size());
    blob(g.finish.data(), g.finish.size());
    i64(g.arrival);
    blob(g.tokens.data(), g.tokens.size() * sizeof(std::int32_t));
    blob(g.logits.data(), g.logits.size() * sizeof(float));
    blob(g.gaps.data(), g.gaps.size() * sizeof(float));
    blob(g.batch.data(), g.batch.size() * sizeof(std::int32_t));
    if (!g.top_tokens.empty() || !g.top_logprobs.empty()) { // schema 7; before, as it was
        blob(g.top_tokens.data(), g.top_tokens.size() * sizeof(std::int32_t));
        blob(g.top_logprobs.data(), g.top_logprobs.size() * sizeof(float));
    }
}

} // namespace

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

Error malformedRow(const std::string& path, std::int64_t run, std::int64_t item,
                   const std::exception& e) {
    return Error(path, "run " + std::to_string(run) + ", item " + std::to_string(item) + ": " +
                           e.what() + " (the ledger was edited or damaged)");
}

void checkGeneration(const GenerationRecord& g, std::int64_t items) {
    if (g.item < 0 || g.item >= items) {
        throw RowProblem("item index " + std::to_string(g.item) + " is outside the study's " +
                         std::to_string(items) + " items");
    }
    const std::size_t steps = g.tokens.size();
    if (g.logits.size() != steps || g.gaps.size() != steps || g.batch.size() != steps) {
        throw RowProblem("its per-step values disagree on the number of steps (" +
                         std::to_string(steps) + " tokens, " + std::to_string(g.logits.size()) +
                         " logits, " + std::to_string(g.gaps.size()) + " gaps, " +
                         std::to_string(g.batch.size()) + " batch sizes)");
    }
    if (g.top_tokens.size() != g.top_logprobs.size() ||
        (!g.top_tokens.empty() &&
         (steps == 0 || g.top_tokens.size() % steps != 0 || g.top_tokens.size() / steps > 20))) {
        throw RowProblem("its top-K lists (" + std::to_string(g.top_tokens.size()) + " tokens, " +
                         std::to_string(g.top_logprobs.size()) +
                         " log-probabilities) are not up to 20 per step for " +
                         std::to_string(steps) + " steps");
    }
}

// One unit of work: a transaction of its own, or a savepoint inside an enclosing one (see
// Ledger::atomically), so that every write method is all-or-nothing and several of them can be
// made all-or-nothing together. Rolled back unless committed.
class Unit {
public:
    explicit Unit(SQLite::Database& db)
        : m_db(db), m_outermost(sqlite3_get_autocommit(db.getHandle()) != 0) {
        m_db.exec("SAVEPOINT probaudit_unit");
    }
    Unit(const Unit&) = delete;
    Unit& operator=(const Unit&) = delete;
    ~Unit() {
        if (!m_done) {
            try { // fails harmlessly when SQLite already rolled back the whole transaction
                if (m_outermost) { // ends the transaction even when its RELEASE failed (busy)
                    m_db.exec("ROLLBACK");
                } else {
                    m_db.exec("ROLLBACK TO probaudit_unit");
                    m_db.exec("RELEASE probaudit_unit");
                }
            } catch (...) {
            }
        }
    }
    void commit() {
        m_db.exec("RELEASE probaudit_unit");
        m_done = true;
    }

private:
    SQLite::Database& m_db;
    bool m_outermost; // no transaction was open: this unit is the transaction
    bool m_done = false;
};

struct Ledger::Impl {
    std::unique_ptr<SQLite::Database> db;
    int lockFd = -1;
    bool writer = false;
    bool created = false; // this object created the file (it did not exist, and we hold it)
    // Prepared once: appendBatch runs once per batch, tens of thousands of times a run.
    std::unique_ptr<SQLite::Statement> insRecord, insLayer, addDone;

    [[noreturn]] void fail(const std::string& path, const std::exception& e) const {
        const auto* se = dynamic_cast<const SQLite::Exception*>(&e);
        if (se != nullptr && (se->getErrorCode() == SQLITE_FULL)) {
            throw Error(path, "the disk is full (or the ledger reached its size limit); free "
                              "space and try again (a run resumes from its last finished batch)");
        }
        if (se != nullptr && (se->getErrorCode() == SQLITE_READONLY)) {
            throw Error(path, "the ledger is read-only");
        }
        if (se != nullptr &&
            (se->getErrorCode() == SQLITE_CORRUPT || se->getErrorCode() == SQLITE_NOTADB)) {
            throw Error(path, "not a ledger or a damaged one (" + std::string(e.what()) + ")");
        }
        throw Error(path, std::string("ledger error: ") + e.what());
    }
};

template <class F> auto Ledger::guard(F&& read) const -> decltype(read()) {
    try {
        return read();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

Ledger::Ledger(const std::string& path, Mode mode) : m(std::make_unique<Impl>()), m_path(path) {
    const bool exists = fs::exists(path);
    if (mode == Mode::Read && !exists) {
        throw Error(path, "no such ledger");
    }
    if (mode == Mode::Write) {
        // Read-only: not writable for us, or marked read-only for everyone (an archived,
        // signed-off ledger stays as it is even for root).
        struct stat st {};
        if (exists && (::access(path.c_str(), W_OK) != 0 ||
                       (::stat(path.c_str(), &st) == 0 && (st.st_mode & 0222) == 0))) {
            throw Error(path, "the ledger is read-only; nothing was written");
        }
        const fs::path dir = fs::absolute(path).parent_path();
        if (!exists && ::access(dir.c_str(), W_OK) != 0) {
            throw Error(path, "cannot create the ledger: the folder is not writable");
        }
    }
    try {
        const int flags = mode == Mode::Write ? SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE
                                              : SQLite::OPEN_READONLY;
        m->db = std::make_unique<SQLite::Database>(path, flags, 5000);
        // Our own descriptor of the file, kept until SQLite has closed it (closing any
        // descriptor of a file drops the process's POSIX locks on it, SQLite's included).
        // The writer lock is flock on it: independent of SQLite's locks, and released when the
        // process ends however it ends (kill -9 included).
        m->lockFd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (m->lockFd < 0) {
            throw Error(path, std::string("cannot open: ") + std::strerror(errno));
        }
        if (mode == Mode::Write) {
            if (::flock(m->lockFd, LOCK_EX | LOCK_NB) != 0) {
                const long pid = flockHolder(m->lockFd);
                throw Error(
                    path, "the ledger is being written by another run" +
                              (pid > 0 ? " (process " + std::to_string(pid) + ")" : std::string()) +
                              "; wait for it to finish or stop it");
            }
            m->writer = true;
            m->created = !exists;
        }
        const int version = m->db->execAndGet("PRAGMA user_version").getInt();
        refuseForeignDatabase(*m->db, path, version);
        if (version > kSchemaVersion) {
            throw Error(path, "the ledger has schema version " + std::to_string(version) +
                                  ", newer than this ProbAudit's (" +
                                  std::to_string(kSchemaVersion) +
                                  "); open it with a newer ProbAudit");
        }
        if (mode == Mode::Read) {
            if (version < kSchemaVersion) {
                throw Error(path, version == 0
                                      ? "not a ProbAudit ledger"
                                      : "the ledger has schema version " + std::to_string(version) +
                                            ", older than this ProbAudit's; `probaudit migrate " +
                                            path +
                                            "` brings it forward (records and seals are kept)");
            }
            return;
        }
        m->db->exec("PRAGMA journal_mode = WAL");
        m->db->exec("PRAGMA synchronous = NORMAL");
        m->db->exec("PRAGMA foreign_keys = ON");
        if (const char* pages = std::getenv("PROBAUDIT_LEDGER_MAX_PAGES")) {
            // Simulates a full disk in tests: SQLite refuses to grow the file past this.
            m->db->exec("PRAGMA max_page_count = " + std::to_string(std::atoll(pages)));
        }
        if (version < kSchemaVersion) {
            Unit t(*m->db);
            for (int v = version; v < kSchemaVersion; ++v) {
                m->db->exec(kMigrations[v]);
            }
            m->db->exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
            SQLite::Statement st(*m->db,
                                 "INSERT OR IGNORE INTO meta(key, value) VALUES ('created_by', ?)");
            st.bind(1,
                    std::string("probaudit ") + engineVersion() + " (commit " + gitCommit() + ")");
            st.exec();
            sealState(*m->db); // what a ledger of an older schema holds is sealed as it is now
            t.commit();
        }
    } catch (const Error&) {
        m->db.reset();
        if (m->lockFd >= 0) {
            ::close(m->lockFd);
        }
        throw;
    } catch (const std::exception& e) {
        m->db.reset();
        if (m->lockFd >= 0) {
            ::close(m->lockFd);
        }
        m->fail(path, e);
    }
}

Ledger::~Ledger() {
    m->insRecord.reset();
    m->insLayer.reset();
    m->addDone.reset();
    m->db.reset(); // close SQLite first: closing any descriptor of the file drops its POSIX locks
    if (m->lockFd >= 0) {
        ::close(m->lockFd);
    }
}

void Ledger::discardCreated() {
    if (!m->created || !m->db) {
        return;
    }
    m->insRecord.reset();
    m->insLayer.reset();
    m->addDone.reset();
    m->db.reset(); // the last connection: SQLite folds the WAL in and removes -wal and -shm
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        ::unlink((m_path + suffix).c_str()); // still holding the writer lock: nobody else wrote
    }
    m->created = false;
}

int Ledger::schemaVersion() const {
    return guard([&] { return m->db->execAndGet("PRAGMA user_version").getInt(); });
}

bool Ledger::hasStudy() const {
    return guard([&] {
        SQLite::Statement st(*m->db, "SELECT COUNT(*) FROM study");
        st.executeStep();
        return st.getColumn(0).getInt() > 0;
    });
}

namespace {

// A JSON column as stored (a ledger may come from anyone): a row that does not parse, or nests
// too deeply, is an error naming the ledger and the row.
json storedJson(const std::string& text, const std::string& ledgerPath, const std::string& what) {
    try {
        return parseJson(text);
    } catch (const JsonError& e) {
        throw Error(ledgerPath, what + ": " + e.what());
    }
}

} // namespace

json Ledger::study() const {
    return guard([&] {
        SQLite::Statement st(*m->db, "SELECT json FROM study WHERE id = 1");
        if (!st.executeStep()) {
            throw Error(m_path, "the ledger has no study yet");
        }
        return storedJson(st.getColumn(0).getString(), m_path, "the study row");
    });
}

std::string Ledger::datasetSha256() const {
    return guard([&] {
        SQLite::Statement st(*m->db, "SELECT dataset_sha256 FROM study WHERE id = 1");
        return st.executeStep() ? st.getColumn(0).getString() : std::string();
    });
}

void Ledger::initStudy(const json& study, const std::string& datasetSha256,
                       const std::vector<Item>& items) {
    try {
        Unit t(*m->db);
        SQLite::Statement s(
            *m->db,
            "INSERT INTO study(id, name, json, dataset_sha256, created) VALUES (1, ?, ?, ?, ?)");
        s.bind(1, study.value("name", std::string()));
        s.bind(2, study.dump());
        s.bind(3, datasetSha256);
        s.bind(4, utcNow());
        s.exec();
        SQLite::Statement ins(
            *m->db, "INSERT INTO items(idx, id, text, label, line) VALUES (?, ?, ?, ?, ?)");
        for (const auto& it : items) {
            ins.bind(1, it.idx);
            ins.bind(2, it.id);
            ins.bind(3, it.text);
            if (it.label) {
                ins.bind(4, *it.label);
            } else {
                ins.bind(4);
            }
            ins.bind(5, it.line);
            ins.exec();
            ins.reset();
        }
        sealState(*m->db);
        t.commit();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::vector<Item> Ledger::items() const {
    return guard([&] {
        std::vector<Item> out;
        SQLite::Statement st(*m->db, "SELECT idx, id, text, label, line FROM items ORDER BY idx");
        while (st.executeStep()) {
            Item it;
            try {
                it.idx = storedInt(st.getColumn(0));
                it.id = storedText(st.getColumn(1));
                it.text = storedText(st.getColumn(2));
                if (!st.getColumn(3).isNull()) {
                    const std::int64_t label = storedInt(st.getColumn(3));
                    if (label < 0 || label > INT32_MAX) {
                        throw RowProblem("label " + std::to_string(label) +
                                         " is not a class index");
                    }
                    it.label = static_cast<int>(label);
                }
                it.line = storedInt(st.getColumn(4));
            } catch (const RowProblem& e) {
                throw Error(m_path, "item " + std::to_string(out.size()) + ": " + e.what() +
                                        " (the ledger was edited or damaged)");
            }
            if (it.idx != static_cast<std::int64_t>(out.size())) {
                throw Error(m_path, "item " + std::to_string(out.size()) +
                                        " is missing (the ledger was edited or damaged)");
            }
            out.push_back(std::move(it));
        }
        return out;
    });
}

void Ledger::updateStudy(const json& study) {
    try {
        Unit t(*m->db);
        SQLite::Statement st(*m->db, "UPDATE study SET name = ?, json = ? WHERE id = 1");
        st.bind(1, study.value("name", ""));
        st.bind(2, study.dump());
        st.exec();
        sealState(*m->db);
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::setMeta(const std::string& key, const std::string& value) {
    try {
        Unit t(*m->db);
        SQLite::Statement st(*m->db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
        st.bind(1, key);
        st.bind(2, value);
        st.exec();
        sealState(*m->db);
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::string Ledger::meta(const std::string& key) const {
    return guard([&] {
        SQLite::Statement st(*m->db, "SELECT value FROM meta WHERE key = ?");
        st.bind(1, key);
        return st.executeStep() ? st.getColumn(0).getString() : std::string();
    });
}

void Ledger::putConfig(const std::string& hash, const std::string& name, const json& config) {
    try {
        Unit t(*m->db);
        SQLite::Statement st(*m->db,
                             "INSERT OR IGNORE INTO configs(hash, name, json) VALUES (?, ?, ?)");
        st.bind(1, hash);
        st.bind(2, name);
        st.bind(3, config.dump());
        if (st.exec() > 0) {
            sealState(*m->db);
        }
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

json Ledger::config(const std::string& hash) const {
    return guard([&]() -> json {
        SQLite::Statement st(*m->db, "SELECT json FROM configs WHERE hash = ?");
        st.bind(1, hash);
        return st.executeStep() ? storedJson(st.getColumn(0).getString(), m_path, "config " + hash)
                                : json();
    });
}

std::string Ledger::environmentHash(const json& fingerprint) {
    const std::string text = fingerprint.dump();
    return sha256Hex(text.data(), text.size()).substr(0, 16);
}

std::string Ledger::putEnvironment(const json& fingerprint) {
    const std::string text = fingerprint.dump();
    const std::string hash = environmentHash(fingerprint);
    try {
        Unit t(*m->db);
        SQLite::Statement st(*m->db,
                             "INSERT OR IGNORE INTO environments(hash, json) VALUES (?, ?)");
        st.bind(1, hash);
        st.bind(2, text);
        if (st.exec() > 0) {
            sealState(*m->db);
        }
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
    return hash;
}

json Ledger::environment(const std::string& hash) const {
    return guard([&]() -> json {
        SQLite::Statement st(*m->db, "SELECT json FROM environments WHERE hash = ?");
        st.bind(1, hash);
        return st.executeStep()
                   ? storedJson(st.getColumn(0).getString(), m_path, "environment " + hash)
                   : json();
    });
}

std::int64_t Ledger::beginRun(const std::string& head, const json& headJson,
                              const std::string& configName, const std::string& configHash,
                              const std::string& envHash, const std::string& capture,
                              std::int64_t itemsTotal, const std::string& kind,
                              const std::string& label, const std::string& started) {
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
        st.bind(9, kind);
        st.bind(10, label);
        st.exec();
        return m->db->getLastInsertRowid();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

namespace {

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
    r.kind = st.getColumn(18).getString();
    r.label = st.getColumn(19).getString();
    r.numerics_sha256 = st.getColumn(20).getString();
    r.seal_version = st.getColumn(21).getInt();
    return r;
}

} // namespace

namespace {

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
            m->addDone = std::make_unique<SQLite::Statement>(
                *m->db, "UPDATE runs SET items_done = items_done + ? WHERE id = ?");
        }
        SQLite::Statement& rec = *m->insRecord;
        SQLite::Statement& lay = *m->insLayer;
        SQLite::Statement& upd = *m->addDone;
        // A failed batch leaves a statement mid-step: start each batch from a clean state.
        rec.reset();
        lay.reset();
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

void Ledger::appendGenerations(std::int64_t run, const std::vector<GenerationRecord>& outputs) {
    try {
        Unit t(*m->db);
        SQLite::Statement ins(
            *m->db, "INSERT INTO generations(run, item, prompt_tokens, text, finish, arrival, "
                    "tokens, logits, gaps, batch, top_tokens, top_logprobs) VALUES (?, ?, ?, ?, "
                    "?, ?, ?, ?, ?, ?, ?, ?)");
        for (const GenerationRecord& g : outputs) {
            ins.bind(1, run);
            ins.bind(2, g.item);
            ins.bind(3, g.prompt_tokens);
            ins.bind(4, g.text);
            ins.bind(5, g.finish);
            ins.bind(6, g.arrival);
            bindVector(ins, 7, g.tokens);
            bindVector(ins, 8, g.logits);
            bindVector(ins, 9, g.gaps);
            bindVector(ins, 10, g.batch);
            bindVector(ins, 11, g.top_tokens);
            bindVector(ins, 12, g.top_logprobs);
            ins.exec();
            ins.reset();
        }
        SQLite::Statement upd(*m->db, "UPDATE runs SET items_done = items_done + ? WHERE id = ?");
        upd.bind(1, static_cast<std::int64_t>(outputs.size()));
        upd.bind(2, run);
        upd.exec();
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::appendEndpointItems(std::int64_t run, const std::vector<Record>& records,
                                 const std::vector<GenerationRecord>& outputs,
                                 const std::vector<RequestRecord>& requests) {
    atomically([&] {
        if (!records.empty()) {
            appendBatch(run, records);
        }
        if (!outputs.empty()) {
            appendGenerations(run, outputs);
        }
        try {
            SQLite::Statement ins(*m->db, "INSERT INTO requests(run, item, json) VALUES (?, ?, ?)");
            for (const RequestRecord& r : requests) {
                ins.bind(1, run);
                ins.bind(2, r.item);
                ins.bind(3, r.json);
                ins.exec();
                ins.reset();
            }
        } catch (const std::exception& e) {
            m->fail(m_path, e);
        }
    });
}

namespace {

std::int64_t itemsIn(SQLite::Database& db) {
    return db.execAndGet("SELECT count(*) FROM items").getInt64();
}

std::vector<GenerationRecord> readGenerations(SQLite::Database& db, const std::string& path,
                                              std::int64_t run) {
    std::vector<GenerationRecord> out;
    SQLite::Statement st(db, "SELECT item, prompt_tokens, text, finish, arrival, tokens, "
                             "logits, gaps, batch, top_tokens, top_logprobs FROM generations "
                             "WHERE run = ? ORDER BY item");
    st.bind(1, run);
    const std::int64_t items = itemsIn(db);
    while (st.executeStep()) {
        GenerationRecord g;
        g.item = st.getColumn(0).getInt64();
        try {
            storedInt(st.getColumn(0));
            g.prompt_tokens = storedInt(st.getColumn(1));
            g.text = storedText(st.getColumn(2));
            g.finish = storedText(st.getColumn(3));
            g.arrival = storedInt(st.getColumn(4));
            g.tokens = storedBlob<std::int32_t>(st.getColumn(5), true);
            g.logits = storedBlob<float>(st.getColumn(6), true);
            g.gaps = storedBlob<float>(st.getColumn(7), true);
            g.batch = storedBlob<std::int32_t>(st.getColumn(8), true);
            g.top_tokens = storedBlob<std::int32_t>(st.getColumn(9), true);
            g.top_logprobs = storedBlob<float>(st.getColumn(10), true);
            checkGeneration(g, items);
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, g.item, e);
        }
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace

std::vector<GenerationRecord> Ledger::generations(std::int64_t run) const {
    return guard([&] { return readGenerations(*m->db, m_path, run); });
}

namespace {

std::vector<RequestRecord> readRequests(SQLite::Database& db, const std::string& path,
                                        std::int64_t run) {
    std::vector<RequestRecord> out;
    SQLite::Statement st(db, "SELECT item, json FROM requests WHERE run = ? ORDER BY item");
    st.bind(1, run);
    const std::int64_t items = itemsIn(db);
    while (st.executeStep()) {
        RequestRecord r;
        r.item = st.getColumn(0).getInt64();
        try {
            storedInt(st.getColumn(0));
            if (r.item < 0 || r.item >= items) {
                throw RowProblem("item index " + std::to_string(r.item) +
                                 " is outside the study's " + std::to_string(items) + " items");
            }
            r.json = storedText(st.getColumn(1));
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, r.item, e);
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

std::vector<RequestRecord> Ledger::requests(std::int64_t run) const {
    return guard([&] { return readRequests(*m->db, m_path, run); });
}

std::int64_t Ledger::itemCount() const {
    return guard([&] { return m->db->execAndGet("SELECT count(*) FROM items").getInt64(); });
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

namespace {

// A run's seal covers its records, then its generation outputs (a run has one kind or the other;
// a run without generation outputs hashes as it did before schema 4), then an endpoint run's
// exchanges with the server (their times are wall times: the numerics digest leaves them out).
std::string recordsHash(const std::vector<Record>& records,
                        const std::vector<GenerationRecord>& generations,
                        const std::vector<RequestRecord>& requests, bool withTiming = true) {
    Sha256 h;
    for (const Record& r : records) {
        hashRecord(h, r, withTiming);
    }
    for (const GenerationRecord& g : generations) {
        hashGeneration(h, g);
    }
    if (withTiming) {
        const Seal seal{h};
        for (const RequestRecord& r : requests) {
            seal.i64(r.item);
            seal.blob(r.json.data(), r.json.size());
        }
    }
    return h.hex();
}

// What a sealed run's chain hash covers besides its records: its row as written at sealing,
// its configuration and environment as stored, and the previous run's chain hash.
std::string chainHash(const Run& r, const json& config, const json& env,
                      const std::string& recordsSha, const std::string& prev) {
    json header{{"id", r.id},
                {"head", r.head},
                {"head_json", r.head_json},
                {"config_name", r.config_name},
                {"config_hash", r.config_hash},
                {"config", config},
                {"env_hash", r.env_hash},
                {"environment", env},
                {"capture", r.capture},
                {"items_total", r.items_total},
                {"items_done", r.items_done},
                {"started", r.started},
                {"finished", r.finished},
                {"kernel_trace", r.kernel_trace},
                {"chain_seq", r.chain_seq ? json(*r.chain_seq) : json()}};
    if (r.kind != "study" ||
        !r.label.empty()) { // schema 2; study runs seal as they did in schema 1
        header["kind"] = r.kind;
        header["label"] = r.label;
    }
    const std::string text = prev + "\n" + header.dump() + "\n" + recordsSha;
    return sha256Hex(text.data(), text.size());
}

} // namespace

void Ledger::finishRun(std::int64_t id, const std::string& finished) {
    try {
        Unit t(*m->db);
        Run r = run(id);
        const auto records = this->records(id, true);
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

namespace {

std::vector<Record> readRecords(SQLite::Database& db, const std::string& path, std::int64_t run,
                                bool withLayers) {
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
            checkRecord(r, items, withLayers,
                        out.empty() ? r.layer_hashes.size() : out.front().layer_hashes.size());
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, r.item, e);
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

std::vector<Record> Ledger::records(std::int64_t run, bool withLayers) const {
    return guard([&] { return readRecords(*m->db, m_path, run, withLayers); });
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
    std::vector<Record> all = source.records(id, true);
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

// One link of the chain: a sealed run, or a seal row (a state link).
struct Ledger::Link {
    std::int64_t seq = 0;
    std::optional<Run> run;
    std::string kind, body, prev, chain;
    const std::string& prevHash() const { return run ? run->prev_sha256 : prev; }
    const std::string& chainHash() const { return run ? run->chain_sha256 : chain; }
    std::string name() const {
        return run ? "run " + std::to_string(run->id) + " (" + run->head + ", " + run->config_name +
                         ")"
                   : "chain link " + std::to_string(seq) + " (the " + kind + " seal)";
    }
};

namespace {

// Which sealed tables differ from a state link's digests, as words ("items, configs").
std::string changedTables(const json& sealed, const json& now) {
    std::string out;
    for (const auto& [table, sql] : kStateTables) {
        if (!sealed.is_object() || sealed.value(table, std::string()) != now.value(table, "")) {
            out += (out.empty() ? "" : ", ") + std::string(table);
        }
    }
    return out;
}

} // namespace

std::vector<Ledger::Link> Ledger::chainLinks(VerifyResult& v) const {
    std::vector<Link> links;
    for (Run& r : runs()) {
        if (r.chain_seq) {
            const std::int64_t seq = *r.chain_seq;
            links.push_back({seq, std::move(r), "", "", "", ""});
        } else if (r.status == RunStatus::Finished) {
            v.ok = false;
            v.first_bad = r.id;
            v.problem = "run " + std::to_string(r.id) +
                        " says finished but carries no seal (its row was edited)";
            return {};
        } else {
            v.unsealed.push_back(r.id);
        }
    }
    SQLite::Statement st(*m->db, "SELECT seq, kind, body, prev_sha256, chain_sha256 FROM seals");
    while (st.executeStep()) {
        links.push_back({st.getColumn(0).getInt64(), std::nullopt, st.getColumn(1).getString(),
                         st.getColumn(2).getString(), st.getColumn(3).getString(),
                         st.getColumn(4).getString()});
    }
    std::sort(links.begin(), links.end(),
              [](const Link& a, const Link& b) { return a.seq < b.seq; });
    return links;
}

namespace {

// A sealed run's records as they are now: their digest with and without wall times, or why
// they cannot be read back.
struct RunDigests {
    std::string records, numerics, error;
    bool pending = true;
};

void digestRun(SQLite::Database& db, const std::string& path, std::int64_t run, RunDigests& d) {
    try {
        const auto recs = readRecords(db, path, run, true);
        const auto outputs = readGenerations(db, path, run);
        const auto exchanges = readRequests(db, path, run);
        d = {recordsHash(recs, outputs, exchanges), recordsHash(recs, outputs, exchanges, false),
             "", false};
    } catch (const Error& e) { // a row that cannot be read back was edited too
        d = {"", "", e.what(), false};
    }
}

// Every sealed run's digests. Reading records is most of verify's time and runs are
// independent: up to four threads read them, each over a read-only connection of its own
// (never inside an open transaction, whose changes other connections cannot see). What a
// helper could not read for another reason than the data (it could not open the file) is
// read again on `own`.
std::vector<RunDigests> digestRuns(SQLite::Database& own, const std::string& path,
                                   const std::vector<std::int64_t>& ids) {
    std::vector<RunDigests> out(ids.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&](SQLite::Database& db) {
        for (std::size_t i = next++; i < ids.size(); i = next++) {
            try {
                digestRun(db, path, ids[i], out[i]);
            } catch (const std::exception&) { // SQLite itself: left for `own`
            }
        }
    };
    const bool inTransaction = sqlite3_get_autocommit(own.getHandle()) == 0;
    const std::size_t helpers =
        inTransaction ? 0
                      : std::min<std::size_t>(
                            {ids.size(), std::max(1u, std::thread::hardware_concurrency()), 4}) -
                            std::min<std::size_t>(ids.size(), 1);
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < helpers; ++t) {
        pool.emplace_back([&] {
            try {
                SQLite::Database db(path, SQLite::OPEN_READONLY);
                work(db);
            } catch (const std::exception&) { // no connection: `own` reads its share
            }
        });
    }
    work(own);
    for (auto& t : pool) {
        t.join();
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (out[i].pending) {
            try {
                digestRun(own, path, ids[i], out[i]);
            } catch (const std::exception& e) { // SQLite again: the run's pages are damaged
                out[i] = {"", "", std::string("the ledger file is damaged (") + e.what() + ")",
                          false};
            }
        }
    }
    return out;
}

} // namespace

std::string Ledger::checkSealedRun(const Run& r, const std::string& recordsSha,
                                   const std::string& numericsSha,
                                   const std::string& readError) const {
    const RunDigests d{recordsSha, numericsSha, readError, false};
    if (r.status != RunStatus::Finished) {
        return "its status was changed after it was sealed";
    }
    if (!d.error.empty()) {
        return "a record cannot be read back: " + d.error;
    }
    if (d.records != r.records_sha256) {
        return "its records changed after it was sealed";
    }
    if (r.seal_version >= 2) {
        if (d.numerics != r.numerics_sha256) {
            return "its numerics digest was changed after it was sealed";
        }
        if (runChainHashV2(*m->db, r.id, r.config_hash, r.env_hash, r.prev_sha256) !=
            r.chain_sha256) {
            return "its run row, configuration or environment changed after it was sealed";
        }
        return "";
    }
    try {
        if (chainHash(r, config(r.config_hash), environment(r.env_hash), d.records,
                      r.prev_sha256) == r.chain_sha256) {
            return "";
        }
    } catch (const Error&) { // its configuration or environment no longer parses
    }
    return "its run row, configuration or environment changed after it was sealed";
}

VerifyResult Ledger::verify(const std::optional<ChainHead>& expected) const {
    try {
        return verifyChain(expected);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) { // SQLite: pages of the file itself were changed
        VerifyResult v;
        v.ok = false;
        v.problem = std::string("the ledger file is damaged (") + e.what() + ")";
        return v;
    }
}

VerifyResult Ledger::verifyChain(const std::optional<ChainHead>& expected) const {
    VerifyResult v;
    std::vector<Link> links;
    try {
        links = chainLinks(v);
    } catch (const Error& e) { // a run row that does not parse was edited
        v.ok = false;
        v.problem = std::string("a run row cannot be read: ") + e.what();
        return v;
    }
    if (!v.ok) {
        return v;
    }
    std::vector<std::int64_t> sealedIds;
    for (const Link& l : links) {
        if (l.run) {
            sealedIds.push_back(l.run->id);
        }
    }
    const std::vector<RunDigests> digests = digestRuns(*m->db, m_path, sealedIds);
    std::string prev(64, '0');
    std::optional<json> lastState;
    std::size_t runIndex = 0;
    for (const Link& l : links) {
        std::string problem;
        if (l.seq != static_cast<std::int64_t>(v.chain.size()) + 1 || l.prevHash() != prev) {
            problem = "the chain is broken before it (a link was removed or its seal edited)";
        } else if (l.run) {
            const RunDigests& d = digests[runIndex];
            problem = checkSealedRun(*l.run, d.records, d.numerics, d.error);
        } else if (l.kind != "state" || linkHash(l.prev, l.kind, l.body) != l.chain) {
            problem = "its seal row was edited";
        } else {
            lastState = tryParseJson(l.body);
        }
        if (!problem.empty()) {
            v.ok = false;
            v.first_bad = l.run ? std::optional<std::int64_t>(l.run->id) : std::nullopt;
            v.problem = l.name() + ": " + problem;
            return v;
        }
        runIndex += l.run ? 1 : 0;
        prev = l.chainHash();
        v.chain.push_back({l.seq, prev});
        ++(l.run ? v.sealed : v.state_links);
    }
    const json now = stateDigests(*m->db);
    if (!lastState || *lastState != now) {
        v.ok = false;
        v.problem = lastState ? "the " + changedTables(*lastState, now) +
                                    " table changed after the chain last sealed it"
                              : "the study, items and settings carry no seal";
        return v;
    }
    if (!links.empty()) {
        v.head = ChainHead{links.back().seq, links.back().chainHash()};
    }
    if (expected && !v.contains(*expected)) {
        const bool absent = expected->seq < 1 || expected->seq > std::int64_t(v.chain.size());
        v.ok = false;
        v.problem = absent ? "the chain has no link " + std::to_string(expected->seq) +
                                 " of the recorded head " + expected->text() +
                                 " (sealed runs were removed or unsealed)"
                           : "chain link " + std::to_string(expected->seq) +
                                 " is not the recorded head " + expected->text() +
                                 " (the ledger was rewritten and sealed again)";
    }
    return v;
}

bool VerifyResult::contains(const ChainHead& h) const {
    return h.seq >= 1 && h.seq <= static_cast<std::int64_t>(chain.size()) &&
           chain[static_cast<std::size_t>(h.seq - 1)].sha256 == h.sha256;
}

std::optional<ChainHead> Ledger::head() const {
    return guard([&] { return lastLink(*m->db); });
}

void Ledger::addSignature(const ChainHead& head, const std::string& publicPem,
                          const std::string& signatureHex) {
    try {
        SQLite::Statement st(*m->db, "INSERT INTO signatures(seq, chain_sha256, public_key, "
                                     "signature, signed) VALUES (?, ?, ?, ?, ?)");
        st.bind(1, head.seq);
        st.bind(2, head.sha256);
        st.bind(3, publicPem);
        st.bind(4, signatureHex);
        st.bind(5, utcNow());
        st.exec();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

std::vector<Signature> Ledger::signatures() const {
    return guard([&] {
        std::vector<Signature> out;
        SQLite::Statement st(*m->db, "SELECT id, seq, chain_sha256, public_key, signature, signed "
                                     "FROM signatures ORDER BY id");
        while (st.executeStep()) {
            out.push_back({st.getColumn(0).getInt64(),
                           {st.getColumn(1).getInt64(), st.getColumn(2).getString()},
                           st.getColumn(3).getString(),
                           st.getColumn(4).getString(),
                           st.getColumn(5).getString()});
        }
        return out;
    });
}

} // namespace probaudit::ledger
