// The ledger file (ledger.h): opening, creating, locking and migrating it, and the tables a
// study writes once or rarely: the study and its items, settings, configs and environments.
#include "core/ledger/ledger_internal.h"

#include "core/common/build_info.h"
#include "core/common/sha256.h"
#include "core/common/utc_now.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace probaudit::ledger {

namespace fs = std::filesystem;

namespace {

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
    // 7 -> 8: label_tokens heads with "vocabulary" keep every vocabulary token's
    // log-probability at the decision position (KL and same top token between model variants)
    R"sql(
CREATE TABLE vocabulary(run INTEGER NOT NULL REFERENCES runs(id), item INTEGER NOT NULL REFERENCES items(idx),
                        logprobs BLOB NOT NULL, PRIMARY KEY (run, item));
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
        std::string id, lockType, mode, access, dev; // /proc/locks: "1: FLOCK ADVISORY WRITE ..."
        long pid = 0;
        if (!(in >> id >> lockType) || lockType != "FLOCK" ||
            !(in >> mode >> access >> pid >> dev)) {
            continue;
        }
        const auto colon = dev.rfind(':');
        if (colon != std::string::npos && dev.substr(colon + 1) == std::to_string(st.st_ino)) {
            return pid;
        }
    }
    return 0;
}

// A writer refuses a ledger it may not change, or a folder where it cannot create one, before it
// opens anything.
void refuseUnwritable(const std::string& path, bool exists) {
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

// The writer lock: flock on our own descriptor of the file; a second writer is refused with the
// process that holds it.
void takeWriterLock(int fd, const std::string& path) {
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const long pid = flockHolder(fd);
        throw Error(path, "the ledger is being written by another run" +
                              (pid > 0 ? " (process " + std::to_string(pid) + ")" : std::string()) +
                              "; wait for it to finish or stop it");
    }
}

// A schema this ProbAudit can open: never a newer one; a reader only the current one.
void checkSchemaVersion(const std::string& path, int version, Ledger::Mode mode) {
    if (version > kSchemaVersion) {
        throw Error(path, "the ledger has schema version " + std::to_string(version) +
                              ", newer than this ProbAudit's (" + std::to_string(kSchemaVersion) +
                              "); open it with a newer ProbAudit");
    }
    if (mode == Ledger::Mode::Read && version < kSchemaVersion) {
        throw Error(path, version == 0
                              ? "not a ProbAudit ledger"
                              : "the ledger has schema version " + std::to_string(version) +
                                    ", older than this ProbAudit's; `probaudit migrate " + path +
                                    "` brings it forward (records and seals are kept)");
    }
}

// A writer's connection settings.
void configureWriter(SQLite::Database& db) {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    if (const char* pages = std::getenv("PROBAUDIT_LEDGER_MAX_PAGES")) {
        // Simulates a full disk in tests: SQLite refuses to grow the file past this.
        db.exec("PRAGMA max_page_count = " + std::to_string(std::atoll(pages)));
    }
}

// Brings a ledger of schema `version` (0: a new file) to kSchemaVersion in one transaction.
void migrate(SQLite::Database& db, int version) {
    Unit t(db);
    for (int v = version; v < kSchemaVersion; ++v) {
        db.exec(kMigrations[v]);
    }
    db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    SQLite::Statement st(db, "INSERT OR IGNORE INTO meta(key, value) VALUES ('created_by', ?)");
    st.bind(1, std::string("probaudit ") + engineVersion() + " (commit " + gitCommit() + ")");
    st.exec();
    sealState(db); // what a ledger of an older schema holds is sealed as it is now
    t.commit();
}

} // namespace

Ledger::Ledger(const std::string& path, Mode mode) : m(std::make_unique<Impl>()), m_path(path) {
    const bool exists = fs::exists(path);
    if (mode == Mode::Read && !exists) {
        throw Error(path, "no such ledger");
    }
    // A FIFO would block the open below, a directory or device is no ledger: refused before.
    if (exists && !fs::is_regular_file(path)) {
        throw Error(path, "is not a regular file; a ledger is an SQLite file");
    }
    if (mode == Mode::Write) {
        refuseUnwritable(path, exists);
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
            takeWriterLock(m->lockFd, path);
            m->writer = true;
            m->created = !exists;
        }
        const int version = m->db->execAndGet("PRAGMA user_version").getInt();
        refuseForeignDatabase(*m->db, path, version);
        checkSchemaVersion(path, version, mode);
        if (mode == Mode::Read) {
            return;
        }
        configureWriter(*m->db);
        if (version < kSchemaVersion) {
            migrate(*m->db, version);
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
    m->insVocabulary.reset();
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
    m->insVocabulary.reset();
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

std::int64_t Ledger::itemCount() const {
    return guard([&] { return m->db->execAndGet("SELECT count(*) FROM items").getInt64(); });
}

} // namespace probaudit::ledger
