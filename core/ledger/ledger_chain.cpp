// The hash chain and its seals (ledger.h): each finished run is a link sealing its records, row,
// config and environment; "state" links seal the other tables whenever they change. verify()
// walks the whole chain; head() is its last link; signatures cover a head.
#include "core/ledger/ledger_internal.h"

#include "core/common/sha256.h"
#include "core/common/utc_now.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>

namespace probaudit::ledger {

namespace {

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

std::string linkHash(const std::string& prev, const std::string& kind, const std::string& body) {
    const std::string text = prev + "\n" + kind + "\n" + body;
    return sha256Hex(text.data(), text.size());
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
    if (!r.vocabulary.empty()) { // absent before schema 8: the runs sealed before keep their seal
        blob(r.vocabulary.data(), r.vocabulary.size() * sizeof(float));
    }
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
    if (r.kind != RunKind::Study ||
        !r.label.empty()) { // schema 2; study runs seal as they did in schema 1
        header["kind"] = r.kind;
        header["label"] = r.label;
    }
    const std::string text = prev + "\n" + header.dump() + "\n" + recordsSha;
    return sha256Hex(text.data(), text.size());
}

} // namespace

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
    ins.bind(4, linkHash(prev, nameString(SealKind::State), body));
    ins.exec();
}

// A run's seal covers its records, then its generation outputs (a run has one kind or the other;
// a run without generation outputs hashes as it did before schema 4), then an endpoint run's
// exchanges with the server (their times are wall times: the numerics digest leaves them out).
std::string recordsHash(const std::vector<Record>& records,
                        const std::vector<GenerationRecord>& generations,
                        const std::vector<RequestRecord>& requests, bool withTiming) {
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
        const auto recs = readRecords(db, path, run, true, true);
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
        } else if (fromName<SealKind>(l.kind) != SealKind::State ||
                   linkHash(l.prev, l.kind, l.body) != l.chain) {
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
