#pragma once
// Private to core/ledger (never included outside it): what the ledger's source files share.
// ledger_schema.cpp opens, creates, locks and migrates the file and keeps the study, items,
// settings, configs and environments; ledger_chain.cpp is the hash chain and its seals;
// ledger_runs.cpp runs and their records; ledger_generations.cpp generation outputs and an
// endpoint run's exchanges; ledger_import.cpp imports and snapshots.
#include "core/ledger/ledger.h"

#include "core/common/error.h"
#include "core/common/json_read.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace probaudit::ledger {

using nlohmann::json;

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
inline std::int64_t storedInt(const SQLite::Column& c) {
    if (c.getType() != SQLITE_INTEGER) {
        throw RowProblem(std::string(c.getName()) + " is not an integer");
    }
    return c.getInt64();
}

inline bool storedFlag(const SQLite::Column& c) {
    const std::int64_t v = storedInt(c);
    if (v != 0 && v != 1) {
        throw RowProblem(std::string(c.getName()) + " is " + std::to_string(v) + ", not 0 or 1");
    }
    return v == 1;
}

inline double storedReal(const SQLite::Column& c) {
    if (c.getType() != SQLITE_FLOAT) {
        throw RowProblem(std::string(c.getName()) + " is not a real number");
    }
    return c.getDouble();
}

inline float storedFloat(const SQLite::Column& c) {
    const double d = storedReal(c);
    const auto f = static_cast<float>(d);
    if (static_cast<double>(f) != d) {
        throw RowProblem(std::string(c.getName()) + " is not a float32 value");
    }
    return f;
}

inline std::string storedText(const SQLite::Column& c) {
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

// A JSON column as stored (a ledger may come from anyone): a row that does not parse, or nests
// too deeply, is an error naming the ledger and the row.
inline json storedJson(const std::string& text, const std::string& ledgerPath,
                       const std::string& what) {
    try {
        return parseJson(text);
    } catch (const JsonError& e) {
        throw Error(ledgerPath, what + ": " + e.what());
    }
}

inline std::int64_t itemsIn(SQLite::Database& db) {
    return db.execAndGet("SELECT count(*) FROM items").getInt64();
}

inline Error malformedRow(const std::string& path, std::int64_t run, std::int64_t item,
                          const std::exception& e) {
    return Error(path, "run " + std::to_string(run) + ", item " + std::to_string(item) + ": " +
                           e.what() + " (the ledger was edited or damaged)");
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
    std::unique_ptr<SQLite::Statement> insRecord, insLayer, insVocabulary, addDone;

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

// --- the chain (ledger_chain.cpp)

// The last link of the chain, if any.
std::optional<ChainHead> lastLink(SQLite::Database& db);
// Adds a state link when the sealed tables differ from what the last state link sealed.
void sealState(SQLite::Database& db);
// A run's chain hash at seal version 2, after the previous link's hash `prev`.
std::string runChainHashV2(SQLite::Database& db, std::int64_t id, const std::string& configHash,
                           const std::string& envHash, const std::string& prev);
// The digest a run's seal covers (withTiming false: the numerics digest).
std::string recordsHash(const std::vector<Record>& records,
                        const std::vector<GenerationRecord>& generations,
                        const std::vector<RequestRecord>& requests, bool withTiming = true);

// --- stored rows, checked (ledger_runs.cpp, ledger_generations.cpp): a row this ledger cannot
// have written throws an Error naming the ledger, the run and the item.
std::vector<Record> readRecords(SQLite::Database& db, const std::string& path, std::int64_t run,
                                bool withLayers, bool withVocabulary);
std::vector<GenerationRecord> readGenerations(SQLite::Database& db, const std::string& path,
                                              std::int64_t run);
std::vector<RequestRecord> readRequests(SQLite::Database& db, const std::string& path,
                                        std::int64_t run);

} // namespace probaudit::ledger
