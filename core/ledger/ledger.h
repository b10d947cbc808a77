#pragma once
// The ledger (DESIGN.md): one SQLite file per study holding its items, configurations,
// environment fingerprints, runs, per-item records and per-layer records (compact BLOBs), and
// each run's kernel trace. WAL mode; one transaction per batch; a schema version with forward
// migrations. A finished run is sealed: its row carries the SHA-256 of its records and of the
// chain's previous link (a hash chain), so verify() finds any later edit. Every other table
// that decides a result (study, items, settings, configs, environments, diagnoses) is sealed by
// "state" links in the same chain whenever it changes. The chain's last link is its head: a
// head recorded elsewhere, or signed (signing.h), also finds a ledger edited and sealed again.
// One writer at a time.
#include "core/common/vocabulary.h"
#include "core/ledger/signing.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::ledger {

inline constexpr int kSchemaVersion = 8;

struct Item {
    std::int64_t idx = 0; // position in the study's item list
    std::string id;
    std::string text;
    std::optional<int> label;
    std::int64_t line = 0; // line in the dataset file
};

// One item's record in one run. Exact floats: stored as their float32 bytes.
struct Record {
    std::int64_t item = 0;
    std::int64_t tokens = 0;
    bool truncated = false;
    std::vector<float> probs;  // F32 [C]
    std::vector<float> logits; // F32 [C], decision-class logits
    int decision = -1;
    float margin = 0;       // NaN when nonfinite (no margin)
    bool nonfinite = false; // the logits are not all finite, or (endpoints) no label came back
    std::int64_t batch = 0, row = 0, padded_length = 0;
    double batch_seconds = 0;
    std::vector<std::uint64_t> layer_hashes; // [layers + 1], empty at capture none
    std::int64_t hidden = 0;                 // H of layer_vectors / layer_full
    std::vector<float> layer_vectors;        // F32 [layers + 1, H], vectors and full only
    std::int64_t full_tokens = 0;            // T of layer_full
    std::vector<float> layer_full;           // F32 [layers + 1, T, H], full only
    // F32 [V]: every vocabulary token's log-probability at the decision position (a
    // label_tokens head with "vocabulary"); read only when asked for (records(), vocabulary()).
    std::vector<float> vocabulary;
};

// One item's output in a generation run (a generation head): the text and, per step, what
// greedy decoding chose and how near a tie it was.
struct GenerationRecord {
    std::int64_t item = 0;
    std::int64_t prompt_tokens = 0;
    std::string text;                 // the new text (cut before a stop string, no EOS)
    std::string finish;               // eos | stop | length
    std::int64_t arrival = 0;         // position in the arrival order (serving simulation)
    std::vector<std::int32_t> tokens; // I32 [steps], the chosen tokens
    std::vector<float> logits;        // F32 [steps], the chosen token's logit
    std::vector<float> gaps;          // F32 [steps], largest minus second-largest logit
    std::vector<std::int32_t> batch;  // I32 [steps], rows in the pass that produced the token
    // Engine runs of a head with top_logprobs K: I32 [steps * K] the K most likely tokens per
    // step, most likely first, and F32 [steps * K] their log-probabilities; empty otherwise.
    std::vector<std::int32_t> top_tokens;
    std::vector<float> top_logprobs;
};

// One item's exchange with a server in an endpoint run, as JSON: every attempt's send,
// first-byte and done times (seconds since the run's requests started), HTTP status and
// transport error, the warm-up's attempts (prefix_cache warm), the tokens' top_logprobs as the
// server returned them, and for an item that failed, why with a snippet of the reply. Never a
// credential.
struct RequestRecord {
    std::int64_t item = 0;
    std::string json; // the stored text, sealed byte for byte
};

enum class RunStatus { Running, Interrupted, Finished, Failed };
const char* statusName(RunStatus s);

struct Run {
    std::int64_t id = 0;
    RunKind kind =
        RunKind::Study; // a study config over all items, or a diagnosis probe on a sample
    // probes: what the run is for ("neighbours: shuffle 2"); runs imported from an audit
    // bundle: where they came from ("imported from audit.zip")
    std::string label;
    std::string head; // head variant name
    nlohmann::json head_json;
    std::string config_name;
    std::string config_hash;
    std::string env_hash;
    std::string capture;
    RunStatus status = RunStatus::Running;
    bool writer_alive = false; // Running and another process holds the ledger
    std::int64_t items_total = 0, items_done = 0;
    std::string started, finished, message;
    nlohmann::json kernel_trace;
    std::optional<std::int64_t> chain_seq;
    std::string records_sha256, prev_sha256, chain_sha256;
    std::string numerics_sha256; // records without wall times: equal for two bit-identical runs
    int seal_version = 1; // 1: sealed before schema 5 (parsed fields); 2: stored bytes exactly

    bool imported() const; // recorded elsewhere and imported from an audit bundle
};

// The label prefix of a run imported from an audit bundle (Ledger::importRun's `origin`).
inline constexpr const char* kImportedFrom = "imported from ";

// A signature over one chain head, as stored (signing.h checks it).
struct Signature {
    std::int64_t id = 0;
    ChainHead head;
    std::string public_pem, signature, signed_at;
};

struct VerifyResult {
    bool ok = true;
    std::int64_t sealed = 0;                 // finished runs checked
    std::int64_t state_links = 0;            // seals of the other tables checked
    std::optional<std::int64_t> first_bad;   // the first changed run, when a run changed
    std::string problem;                     // one sentence: what changed, where
    std::vector<std::int64_t> unsealed;      // runs not finished (nothing to check yet)
    std::optional<ChainHead> head;           // the last link, when the chain is intact
    std::vector<ChainHead> chain;            // every link checked, in order (seq 1, 2, ...)
    bool contains(const ChainHead& h) const; // one of the links checked
};

class Ledger {
public:
    enum class Mode { Read, Write };
    // Write creates the file when missing, takes the writer lock (a second writer gets a clear
    // refusal naming the process that holds it) and migrates an older schema. Read never
    // changes the file. Throws probaudit::Error naming the file.
    Ledger(const std::string& path, Mode mode);
    ~Ledger();
    Ledger(const Ledger&) = delete;
    Ledger& operator=(const Ledger&) = delete;

    const std::string& path() const { return m_path; }
    int schemaVersion() const;
    // When this object created the file (a writer opened a path where none was), removes it
    // and its -wal/-shm while still holding the writer lock, so that a refused import leaves
    // no file behind and never removes one another process made. Nothing else may be called
    // afterwards.
    void discardCreated();

    // --- study and items (written once; a later run must bring the same study items)
    bool hasStudy() const;
    nlohmann::json study() const;
    std::string datasetSha256() const;
    void initStudy(const nlohmann::json& study, const std::string& datasetSha256,
                   const std::vector<Item>& items);
    std::vector<Item> items() const;
    // The study's current definition (configs, heads, reference may grow between runs; the
    // model and the items may not, which the runner checks first).
    void updateStudy(const nlohmann::json& study);
    // Free-form facts about the ledger ("created_by", "study_path"); "" when unset.
    void setMeta(const std::string& key, const std::string& value);
    std::string meta(const std::string& key) const;

    // --- configs and environments (content-addressed)
    void putConfig(const std::string& hash, const std::string& name, const nlohmann::json& config);
    nlohmann::json config(const std::string& hash) const;
    std::string putEnvironment(const nlohmann::json& fingerprint); // returns its hash
    // The hash an environment fingerprint is stored under: 16 hex digits of SHA-256 of its JSON.
    static std::string environmentHash(const nlohmann::json& fingerprint);
    nlohmann::json environment(const std::string& hash) const;

    // --- runs
    std::int64_t beginRun(const std::string& head, const nlohmann::json& headJson,
                          const std::string& configName, const std::string& configHash,
                          const std::string& envHash, const std::string& capture,
                          std::int64_t itemsTotal, RunKind kind = RunKind::Study,
                          const std::string& label = std::string(),
                          const std::string& started = std::string()); // "" = now
    // An unfinished study run (running but abandoned, or interrupted) with the same key.
    std::optional<Run> findResumable(const nlohmann::json& headJson, const std::string& configHash,
                                     const std::string& envHash, const std::string& capture) const;
    std::optional<Run> findFinished(const nlohmann::json& headJson, const std::string& configHash,
                                    const std::string& envHash, const std::string& capture) const;
    void resumeRun(std::int64_t run);
    // One transaction: the batch's records and the run's progress.
    void appendBatch(std::int64_t run, const std::vector<Record>& records);
    // One transaction: a generation run's outputs and the run's progress.
    void appendGenerations(std::int64_t run, const std::vector<GenerationRecord>& outputs);
    // One transaction: an endpoint run's items (their records or generation outputs) with
    // their exchanges with the server.
    void appendEndpointItems(std::int64_t run, const std::vector<Record>& records,
                             const std::vector<GenerationRecord>& outputs,
                             const std::vector<RequestRecord>& requests);
    // An endpoint run's exchanges, by item (empty for other runs).
    std::vector<RequestRecord> requests(std::int64_t run) const;
    void setKernelTrace(std::int64_t run, const nlohmann::json& trace);
    // Seals the run: records hash (its records, then its generation outputs, then its
    // exchanges with a server), chain hash,
    // status finished at `finished` ("" = now; an imported run keeps its own times).
    void finishRun(std::int64_t run, const std::string& finished = std::string());
    void markRun(std::int64_t run, RunStatus status, const std::string& message);

    std::vector<Run> runs() const;
    Run run(std::int64_t id) const;
    // A run's records in item order, or its generation outputs. Every row is checked before it
    // is returned (its item one of the study's, its decision one of its classes, blobs whole
    // values, as many layers as the run's other records): a row this ledger cannot have written
    // throws probaudit::Error naming the ledger, the run and the item.
    // withVocabulary adds each record's vocabulary log-probabilities (F32 [V] an item, where
    // the head records them: 196 KB an item for SmolLM2, so only where they are used).
    std::vector<Record> records(std::int64_t run, bool withLayers = true,
                                bool withVocabulary = false) const;
    std::vector<GenerationRecord> generations(std::int64_t run) const;
    std::int64_t itemCount() const; // the study's items
    // Items with a record or a generation output in the run.
    std::vector<std::int64_t> recordedItems(std::int64_t run) const;

    // --- diagnoses: the ladder's result as `probaudit diagnose --json` prints it (sealed by a
    // state link, like the study).
    void putDiagnosis(const std::string& head, const nlohmann::json& diagnosis);
    std::optional<nlohmann::json> latestDiagnosis(const std::string& head) const;
    // Localisations (`probaudit localize`) of a head's configs A and B, stored beside the
    // diagnoses (the same sealed table, keyed by ["localize", head, A, B]).
    void putLocalization(const std::string& head, const std::string& a, const std::string& b,
                         const nlohmann::json& localization);
    std::optional<nlohmann::json> latestLocalization(const std::string& head, const std::string& a,
                                                     const std::string& b) const;

    // Walks the whole chain: every sealed run's records, row, config and environment, every
    // state link, and the tables as they are now against the last state link. With `expected`
    // (a head recorded earlier) the chain must still contain it: a ledger rewritten and sealed
    // again with the public algorithm, or cut back, fails. Rows that cannot be parsed fail too
    // (never an exception for a damaged ledger).
    VerifyResult verify(const std::optional<ChainHead>& expected = std::nullopt) const;
    // The chain's last link (none for a ledger that has never been written).
    std::optional<ChainHead> head() const;
    // Signatures are not part of the chain: they cover a head of it.
    void addSignature(const ChainHead& head, const std::string& publicPem,
                      const std::string& signatureHex);
    std::vector<Signature> signatures() const;
    // Copies a finished run of another ledger (one with the same study items) into this one:
    // its config, its environment (same fingerprint, same hash), its records and kernel trace,
    // then seals it in this ledger's chain. The records' SHA-256 must come out equal to the
    // source's. Returns the new run's id, or (with `reuse`) the id of an identical run already
    // here. One transaction: a refused or interrupted import leaves no trace. A non-empty
    // `origin` ("audit.zip") labels a run that has no label yet "imported from ORIGIN", so the
    // views tell it from the runs recorded here.
    std::int64_t importRun(const Ledger& source, std::int64_t run, bool reuse = true,
                           const std::string& origin = std::string());
    // Runs `work` (calls of this ledger's methods) as one transaction: every change it makes
    // lands, or none does (it throws, or the process dies, and nothing of it is in the file).
    // Nests: an inner call is a savepoint of the outer one.
    void atomically(const std::function<void()>& work);
    // A consistent copy of the whole ledger (committed WAL content included) in one file, as
    // an audit bundle packs it. Throws probaudit::Error naming the file.
    void snapshotTo(const std::string& path) const;

private:
    struct Link;
    // Runs a read of the file: an SQLite error (a damaged or foreign file) becomes an Error
    // naming the ledger; Errors pass as they are.
    template <class F> auto guard(F&& read) const -> decltype(read());
    std::int64_t importRunBody(const Ledger& source, std::int64_t run, bool reuse,
                               const std::string& origin);
    std::vector<Link> chainLinks(VerifyResult& v) const;
    VerifyResult verifyChain(const std::optional<ChainHead>& expected) const;
    // What is wrong with a sealed run whose records now hash to `recordsSha` and `numericsSha`
    // (or cannot be read back: `readError`), or "".
    std::string checkSealedRun(const Run& r, const std::string& recordsSha,
                               const std::string& numericsSha, const std::string& readError) const;

    struct Impl;
    std::unique_ptr<Impl> m;
    std::string m_path;
};

} // namespace probaudit::ledger
