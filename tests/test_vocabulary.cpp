// The typed vocabulary (core/common): every enum's wire names round-trip, the config axes list
// exactly the enums' names, a typed RunConfig writes the same canonical JSON (and so the same
// config hash) as the strings did, and the typed readings of outside JSON (environment
// fingerprints, run events, runtime locks) never crash on hostile input and say what is wrong.
#include "core/common/axes.h"
#include "core/common/config_values.h"
#include "core/common/env_facts.h"
#include "core/common/error.h"
#include "core/common/run_config.h"
#include "core/common/run_event.h"
#include "core/common/runtime_lock.h"
#include "core/common/sha256.h"

#include <QTest>

using namespace probaudit;
using nlohmann::json;

namespace {

template <class E> void checkRoundTrip() {
    for (const auto& [value, name] : Vocabulary<E>::names) {
        QCOMPARE(toName(value), name);
        QVERIFY(fromName<E>(name) == value);
        json j = value;
        QCOMPARE(j.get<std::string>(), std::string(name));
        QVERIFY(j.get<E>() == value);
    }
    QVERIFY(!fromName<E>("no-such-name").has_value());
    bool threw = false;
    try {
        json("no-such-name").get<E>();
    } catch (const Error& e) {
        threw = std::string(e.what()).find("\"no-such-name\"") != std::string::npos;
    }
    QVERIFY(threw);
}

template <class E> void checkAxis(const char* axis) {
    const Axis* a = findAxis(axis);
    QVERIFY(a != nullptr);
    QCOMPARE(a->values, namesOf<E>());
}

std::string canonicalHash(const std::string& canonical) {
    return sha256Hex(canonical.data(), canonical.size()).substr(0, 16);
}

} // namespace

class TestVocabulary : public QObject {
    Q_OBJECT

private slots:
    void everyVocabularyRoundTrips() {
        checkRoundTrip<Dtype>();
        checkRoundTrip<PaddingSide>();
        checkRoundTrip<PadTo>();
        checkRoundTrip<ItemOrder>();
        checkRoundTrip<Attention>();
        checkRoundTrip<Kernels>();
        checkRoundTrip<CpuCapability>();
        checkRoundTrip<Gemm>();
        checkRoundTrip<PrefixCache>();
        checkRoundTrip<Runner>();
        checkRoundTrip<RunKind>();
        checkRoundTrip<HeadKind>();
    }

    // The axes table offers exactly the enums' names, in their order (the config editor's
    // lists and the report's "not tried" values come from it).
    void axesListTheEnumsNames() {
        checkAxis<Dtype>("dtype");
        checkAxis<PaddingSide>("padding_side");
        checkAxis<PadTo>("pad_to");
        checkAxis<ItemOrder>("order");
        checkAxis<Attention>("attention");
        checkAxis<Kernels>("kernels");
        checkAxis<CpuCapability>("cpu_capability");
        checkAxis<Gemm>("gemm");
        checkAxis<PrefixCache>("prefix_cache");
        checkAxis<Runner>("runner");
    }

    // The canonical form is the one the string-valued config wrote (DESIGN.md: sorted keys, the
    // later axes only when not at their default), so every ledger's config hashes still match.
    void canonicalFormIsUnchanged() {
        const RunConfig defaults;
        const std::string d =
            R"({"attention":"math","batch_size":1,"cpu_capability":"","cudnn_benchmark":false,)"
            R"("deterministic":false,"device":"cpu","dtype":"float32","kernels":"default",)"
            R"("max_length":0,"order":"as_given","order_seed":0,"pad_to":"longest","pad_to_n":0,)"
            R"("padding_side":"right","tf32":false,"threads":1})";
        QCOMPARE(defaults.canonical(), d);
        QCOMPARE(defaults.hash(), canonicalHash(d));

        const RunConfig c = RunConfig::fromJson(json::parse(
            R"({"dtype":"bfloat16","padding_side":"left","pad_to":"multiple","pad_to_n":8,)"
            R"("order":"neighbours_shuffled","attention":"sdpa","cpu_capability":"avx2",)"
            R"("gemm":"onednn","batch_size":4})"));
        QVERIFY(c.dtype == Dtype::BFloat16);
        QVERIFY(c.padding_side == PaddingSide::Left);
        QVERIFY(c.pad_to == PadTo::Multiple);
        QVERIFY(c.order == ItemOrder::NeighboursShuffled);
        QVERIFY(c.attention == Attention::Sdpa);
        QVERIFY(c.cpu_capability == CpuCapability::Avx2);
        QVERIFY(c.gemm == Gemm::Onednn);
        const std::string e =
            R"({"attention":"sdpa","batch_size":4,"cpu_capability":"avx2","cudnn_benchmark":false,)"
            R"("deterministic":false,"device":"cpu","dtype":"bfloat16","gemm":"onednn",)"
            R"("kernels":"default","max_length":0,"order":"neighbours_shuffled","order_seed":0,)"
            R"("pad_to":"multiple","pad_to_n":8,"padding_side":"left","tf32":false,"threads":1})";
        QCOMPARE(c.canonical(), e);
        QCOMPARE(c.hash(), canonicalHash(e));
        QCOMPARE(RunConfig::fromJson(c.toJson()).canonical(), e);

        // An environment makes the transformers runner the default runner.
        const RunConfig t = RunConfig::fromJson(json{{"env", "py"}});
        QVERIFY(t.runner == Runner::Transformers);
        QVERIFY(t.toJson().at("runner") == json("transformers"));
    }

    void unknownConfigValuesAreNamed() {
        std::vector<std::string> errors;
        RunConfig::fromJson(json{{"dtype", "float8"}, {"order", 3}}, "$.c", errors);
        QCOMPARE(errors.size(), std::size_t(2));
        QVERIFY(errors[0].find("$.c.dtype: unknown value \"float8\"") == 0);
        QCOMPARE(errors[1], std::string("$.c.order: must be a string"));
    }

    void engineFingerprintReadsTyped() {
        const json fp = json::parse(R"({
            "engine": {"version": "0.9", "commit": "0123456789abcdef", "dirty": true},
            "torch": {"version": "2.11.0", "cuda_build": "13.0", "cudnn_build": "91900"},
            "cuda": {"available": true, "gpus": [{"index": 0, "name": "NVIDIA H200",
                     "compute_capability": "9.0"}], "driver_version": "580"},
            "cpu": {"model": "AMD EPYC", "logical_cores": 2, "isa": ["avx2", "fma"],
                    "aten_capability": "AVX2"},
            "threads": {"intra_op": 2, "inter_op": 1},
            "env_vars": {"OMP_NUM_THREADS": "2"},
            "kernels": {"cuda_compiled": true, "cuda_kernels": ["rowhash"],
                        "cuda_architectures": ["90"], "invariant_cpu_isa": "avx2"},
            "libraries": [{"name": "libtorch", "path": "/x/libtorch.so"}, 3]})");
        const EnvFingerprint f = EnvFingerprint::read(fp);
        QVERIFY(f.kind == EnvKind::Engine);
        QCOMPARE(*f.engine.commit, std::string("0123456789abcdef"));
        QCOMPARE(*f.engine.dirty, true);
        QCOMPARE(*f.torch.cuda_build, std::string("13.0"));
        QCOMPARE(f.cuda.gpus.size(), std::size_t(1));
        QCOMPARE(*f.cuda.gpus[0].name, std::string("NVIDIA H200"));
        QCOMPARE(*f.cpu.aten_capability, std::string("AVX2"));
        QCOMPARE(*f.cpu.logical_cores, std::int64_t(2));
        QCOMPARE(f.cpu.isa, (std::vector<std::string>{"avx2", "fma"}));
        QCOMPARE(*f.threads.intra_op, std::int64_t(2));
        QCOMPARE(f.env_vars, (std::vector<NamedText>{{"OMP_NUM_THREADS", "2"}}));
        QCOMPARE(*f.kernels.invariant_cpu_isa, std::string("avx2"));
        QCOMPARE(f.library_paths, std::vector<std::string>{"/x/libtorch.so"});
        QVERIFY(!f.torch.blas.has_value()); // absent: unknown, not ""
    }

    void runnerAndServerFingerprintsReadTyped() {
        const EnvFingerprint t = EnvFingerprint::read(json::parse(
            R"({"kind": "transformers", "python": "3.11.7", "torch": "2.11.0",
                "torch_cuda": "", "transformers": "5.24.0", "gpus": ["NVIDIA H100"],
                "cpu": {"machine": "x86_64", "capability": "AVX512"},
                "threads": {"intra_op": 4}, "env": {"CUBLAS_WORKSPACE_CONFIG": ":4096:8"}})"));
        QVERIFY(t.kind == EnvKind::Transformers);
        QCOMPARE(*t.torch.version, std::string("2.11.0"));
        QCOMPARE(*t.transformers, std::string("5.24.0"));
        QCOMPARE(*t.cpu.aten_capability, std::string("AVX512"));
        QCOMPARE(*t.cuda.gpus.at(0).name, std::string("NVIDIA H100"));
        QCOMPARE(*t.threads.intra_op, std::int64_t(4));
        QCOMPARE(t.env_vars.at(0).first, std::string("CUBLAS_WORKSPACE_CONFIG"));

        const EnvFingerprint s = EnvFingerprint::read(json::parse(
            R"({"kind": "endpoint", "endpoint": {"url": "127.0.0.1:8080/v1",
                "api": "completions", "model": "m"}, "server": {"header": "llama.cpp"},
                "labels": {"dtype": "q4_1", "batch": 4}, "client": {"probaudit": "0.9"}})"));
        QVERIFY(s.kind == EnvKind::Endpoint);
        QCOMPARE(*s.endpoint.url, std::string("127.0.0.1:8080/v1"));
        QCOMPARE(*s.server.header, std::string("llama.cpp"));
        QVERIFY(!s.server.system_fingerprint.has_value());
        QCOMPARE(s.labels, (std::vector<NamedText>{{"batch", "4"}, {"dtype", "q4_1"}}));
        QCOMPARE(*s.client_probaudit, std::string("0.9"));
    }

    // A fingerprint from a ledger or a server is outside input: wrong types are unknown facts.
    void hostileFingerprintNeverThrows() {
        for (const char* text :
             {R"([])", R"("x")", R"({"kind": 7, "torch": 5, "cpu": [], "cuda": {"gpus": "no"}})",
              R"({"engine": {"version": 1, "dirty": "yes"}, "threads": {"intra_op": 1e308},
                  "libraries": {"a": 1}, "env_vars": [1, 2]})",
              R"({"kind": "endpoint", "endpoint": "x", "labels": [], "client": 3})",
              R"({"cpu": {"logical_cores": 18446744073709551615}})"}) {
            const EnvFingerprint f = EnvFingerprint::read(json::parse(text));
            QVERIFY(!f.torch.version.has_value());
            QVERIFY(!f.cpu.logical_cores.has_value());
            QVERIFY(!f.engine.version.has_value());
        }
    }

    void runEventsReadTyped() {
        const RunEvent s = RunEvent::read(json::parse(
            R"({"event": "started", "run": 3, "head": "h", "config": "bs8",
                "config_hash": "abc", "items": 64, "resumed_items": 8})"));
        QVERIFY(s.kind == EventKind::Started);
        QCOMPARE(*s.run, std::int64_t(3));
        QCOMPARE(s.items, std::int64_t(64));
        QCOMPARE(s.labelOrConfig(), std::string("bs8"));
        const RunEvent f = RunEvent::read(json::parse(
            R"({"event": "run-finished", "run": 3, "status": "finished", "items_done": 64,
                "seconds": 2.5, "endpoint": {"achieved_concurrency": 3.5, "failed": 1}})"));
        QVERIFY(f.kind == EventKind::RunFinished);
        QVERIFY(!f.serving.has_value());
        QCOMPARE(f.endpoint->achieved_concurrency, 3.5);
        QCOMPARE(f.endpoint->failed, std::int64_t(1));
        // A job's events carry no run id.
        QVERIFY(!RunEvent::read(json{{"event", "progress"}, {"job", "1/2"}}).run.has_value());
    }

    // Events come from child processes and remote hosts: a field of another type keeps its
    // default instead of throwing (json::type_error ended the CLI before).
    void hostileEventsNeverThrow() {
        const RunEvent e = RunEvent::read(json::parse(
            R"({"event": "run-finished", "run": "7", "status": 5, "seconds": "x",
                "items_done": -1e300, "serving": [], "endpoint": {"failed": "many"}})"));
        QVERIFY(e.kind == EventKind::RunFinished);
        QVERIFY(!e.run.has_value());
        QCOMPARE(e.status, std::string());
        QCOMPARE(e.seconds, 0.0);
        QVERIFY(!e.serving.has_value());
        QCOMPARE(e.endpoint->failed, std::int64_t(0));
        QVERIFY(RunEvent::read(json::parse("[1]")).kind == EventKind::Unknown);
        QVERIFY(RunEvent::read(json{{"event", 3}}).kind == EventKind::Unknown);
    }

    void runtimeLockRoundTrips() {
        RuntimeLock lock;
        lock.created = "2026-12-06T13:00:00Z";
        lock.study = "s";
        lock.ledger = "s.ledger";
        lock.run = 4;
        lock.head = HeadSpec::fromJson(json{{"kind", "classifier"}}, "head");
        lock.config_name = "ref";
        lock.config = RunConfig::fromJson(json{{"batch_size", 8}});
        lock.config_hash = lock.config.hash();
        lock.environment = {{"torch", {{"version", "2.11.0"}}}};
        lock.environment_hash = "e";
        lock.records_sha256 = "r";
        lock.items = 10;
        lock.sample_items = {{"a", "good"}};
        lock.sample_results = {
            {"a", {0.25f, 0.75f}, {"3e800000", "3f400000"}, {"bf800000"}, 1, {"0000000000000001"}}};
        const json j = lock.toJson();
        QVERIFY(j.at("probaudit_lock") == json(1));
        QVERIFY(j.at("sample").at("results").at(0).at("probs_bits").at(1) == json("3f400000"));
        QVERIFY(!j.contains("runner_environment"));
        const RuntimeLock back = RuntimeLock::fromJson(j, "x.lock.json");
        QVERIFY(back.toJson() == j);
        QVERIFY(back.sample_results[0].sameBits(lock.sample_results[0]));
        auto other = lock.sample_results[0];
        other.layer_hashes = {"0000000000000002"};
        QVERIFY(!back.sample_results[0].sameBits(other));

        lock.runner_environment = LockedRunnerEnvironment{"py", "/venv/bin/python", {"A=1"}};
        lock.model = "/models/m";
        const RuntimeLock withRunner = RuntimeLock::fromJson(lock.toJson(), "x.lock.json");
        QCOMPARE(withRunner.runner_environment->python, std::string("/venv/bin/python"));
        QCOMPARE(withRunner.model, std::string("/models/m"));
    }

    // A lock is a file someone hands over: each defect gets one sentence naming the file and
    // the field, never a JSON library's exception.
    void brokenLocksAreNamed_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("says");
        QTest::newRow("not a lock") << R"({"probaudit_lock": null})"
                                    << "not a ProbAudit runtime lock";
        QTest::newRow("no run") << R"({"run": null})"
                                << "\"run\"";
        QTest::newRow("run a string") << R"({"run": "4"})"
                                      << "field \"run\" has the wrong type";
        QTest::newRow("other schema") << R"({"probaudit_lock": 2})"
                                      << "another schema";
        QTest::newRow("config value") << R"({"config": {"dtype": "float8"}})"
                                      << "float8";
        QTest::newRow("results short") << R"({"sample": {"items": []}})"
                                       << "has 0 sample items but 1 results";
        QTest::newRow("result bits") << R"({"sample": {"items": [{"id": "a", "text": "t"}],
                                           "results": [{"id": "a"}]}})"
                                     << "\"sample.results[].probs\"";
    }
    void brokenLocksAreNamed() {
        QFETCH(QString, edit);
        QFETCH(QString, says);
        RuntimeLock lock;
        lock.head = HeadSpec::fromJson(json{{"kind", "classifier"}}, "head");
        lock.environment = json::object();
        lock.sample_items = {{"a", "t"}};
        lock.sample_results = {{"a", {1.0f}, {"3f800000"}, {"3f800000"}, 0, {}}};
        json j = lock.toJson();
        j.merge_patch(json::parse(edit.toStdString()));
        try {
            RuntimeLock::fromJson(j, "given.lock.json");
            QFAIL("a broken lock was read");
        } catch (const Error& e) {
            const std::string what = e.what();
            QVERIFY2(what.rfind("given.lock.json: ", 0) == 0, e.what());
            QVERIFY2(what.find(says.toStdString()) != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestVocabulary)
#include "test_vocabulary.moc"
