// The `probaudit` CLI: --version, --help, errors, the environment fingerprint, and (model) its peak
// memory on each gemm path.
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <string>
#include <vector>

extern char** environ;

namespace {

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

Result runCli(const QStringList& args,
              const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PROBAUDIT_CLI), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The CLI's own peak resident memory in MiB (its high-water mark, model loading included), as
// bench/run_all.py measures it: spawned, then reaped by its pid with wait4. -1 if it failed.
long peakMiB(const QStringList& args) {
    std::vector<std::string> words{PROBAUDIT_CLI};
    for (const QString& a : args) {
        words.push_back(a.toStdString());
    }
    std::vector<char*> argv;
    for (std::string& w : words) {
        argv.push_back(w.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, PROBAUDIT_CLI, &quiet, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&quiet);
    if (spawned != 0) {
        return -1;
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return -1;
    }
    return usage.ru_maxrss / 1024;
}

QJsonObject envJson(const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    const Result r = runCli({QStringLiteral("env"), QStringLiteral("--json")}, env);
    if (r.exitCode != 0) {
        qWarning("env --json failed: %s", qPrintable(r.err));
        return {};
    }
    QJsonParseError e{};
    const auto doc = QJsonDocument::fromJson(r.out.toUtf8(), &e);
    if (e.error != QJsonParseError::NoError) {
        qWarning("not JSON: %s", qPrintable(e.errorString()));
    }
    return doc.object();
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void version() {
        const Result r = runCli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("probaudit " PROBAUDIT_VERSION " (commit ")),
                 qPrintable(r.out));
    }

    void help() {
        const Result r = runCli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("env")));
        QVERIFY(r.out.contains(QStringLiteral("--version")));
    }

    void unknownCommandFails() {
        const Result r = runCli({QStringLiteral("no-such-command")});
        QVERIFY(r.exitCode > 0);
        QVERIFY(!r.err.trimmed().isEmpty());
    }

    // Every field of the fingerprint (DESIGN.md glossary, issue "Foundation") is present and
    // typed, and the libtorch version is the pinned one from scripts/deps.txt.
    void fingerprintFields() {
        const QJsonObject env = envJson();
        QVERIFY(!env.isEmpty());
        QCOMPARE(env[u"schema"].toInt(), 1);

        const QJsonObject engine = env[u"engine"].toObject();
        QCOMPARE(engine[u"version"].toString(), QStringLiteral(PROBAUDIT_VERSION));
        QVERIFY(QRegularExpression(QStringLiteral("^([0-9a-f]{40}|unknown)$"))
                    .match(engine[u"commit"].toString())
                    .hasMatch());
        QVERIFY(engine[u"dirty"].isBool());

        const QJsonObject torch = env[u"torch"].toObject();
        QCOMPARE(torch[u"version"].toString(), QStringLiteral(PROBAUDIT_TORCH_PIN));
        for (QStringView key : std::initializer_list<QStringView>{
                 u"cuda_build", u"cudnn_build", u"blas", u"mkl_version", u"onednn_version",
                 u"openmp_version"}) {
            QVERIFY2(torch[key].isString(), qPrintable(key.toString()));
        }
        QVERIFY(torch[u"build_settings"].toObject().contains(u"TORCH_VERSION"));
        QCOMPARE(torch[u"build_settings"].toObject()[u"TORCH_VERSION"].toString(),
                 QStringLiteral(PROBAUDIT_TORCH_PIN));

        const QJsonObject cuda = env[u"cuda"].toObject();
        QVERIFY(cuda[u"available"].isBool());
        QVERIFY(cuda[u"gpus"].isArray());
        for (QStringView key : std::initializer_list<QStringView>{
                 u"runtime_version", u"cudnn_version", u"cublas_version", u"driver_version",
                 u"driver_api_version"}) {
            QVERIFY2(cuda[key].isString(), qPrintable(key.toString()));
        }
        // The wheel is a CUDA build: its runtime and cuDNN versions are known without a GPU.
        if (!torch[u"cuda_build"].toString().isEmpty()) {
            QCOMPARE(cuda[u"runtime_version"].toString(), torch[u"cuda_build"].toString());
            QVERIFY(!cuda[u"cudnn_version"].toString().isEmpty());
        }

        const QJsonObject cpu = env[u"cpu"].toObject();
        QVERIFY(!cpu[u"model"].toString().isEmpty());
        QVERIFY(cpu[u"logical_cores"].toInt() >= 1);
        QVERIFY(cpu[u"isa"].isArray());
        QVERIFY(!cpu[u"aten_capability"].toString().isEmpty());

        const QJsonObject threads = env[u"threads"].toObject();
        QVERIFY(threads[u"intra_op"].toInt() >= 1);
        QVERIFY(threads[u"inter_op"].toInt() >= 1);

        QVERIFY(env[u"env_vars"].isObject());
        QVERIFY(env[u"env_vars_watched"].toArray().contains(QStringLiteral("ATEN_")));

        const QJsonObject kernels = env[u"kernels"].toObject();
        QVERIFY(kernels[u"cuda_compiled"].isBool());
        QVERIFY(kernels[u"cpu_references"].toArray().contains(QStringLiteral("row_hash")));
        if (kernels[u"cuda_compiled"].toBool()) {
            QVERIFY(kernels[u"cuda_architectures"].toArray().contains(QStringLiteral("sm_90")));
            QVERIFY(kernels[u"cuda_kernels"].toArray().contains(QStringLiteral("row_hash")));
        }

        // The numerics libraries really loaded: at least libtorch_cpu and libc10.
        QStringList libs;
        for (const auto& l : env[u"libraries"].toArray()) {
            libs << l.toObject()[u"name"].toString();
        }
        QVERIFY2(libs.contains(QStringLiteral("libtorch_cpu.so")), qPrintable(libs.join(u' ')));
        QVERIFY(libs.contains(QStringLiteral("libc10.so")));
        QVERIFY(env[u"os"].toObject()[u"system"].toString() == QStringLiteral("Linux"));
    }

    // The fingerprint reports what the process really runs with, not constants: the thread
    // count and the CPU kernel capability follow the environment the engine starts in.
    void fingerprintFollowsTheEnvironment() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        env.insert(QStringLiteral("ATEN_CPU_CAPABILITY"), QStringLiteral("default"));
        const QJsonObject one = envJson(env);
        QCOMPARE(one[u"threads"].toObject()[u"intra_op"].toInt(), 1);
        QCOMPARE(one[u"cpu"].toObject()[u"aten_capability"].toString(), QStringLiteral("DEFAULT"));
        const QJsonObject vars = one[u"env_vars"].toObject();
        QCOMPARE(vars[u"OMP_NUM_THREADS"].toString(), QStringLiteral("1"));
        QCOMPARE(vars[u"ATEN_CPU_CAPABILITY"].toString(), QStringLiteral("default"));

        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("2"));
        env.remove(QStringLiteral("ATEN_CPU_CAPABILITY"));
        const QJsonObject two = envJson(env);
        QCOMPARE(two[u"threads"].toObject()[u"intra_op"].toInt(), 2);
        QVERIFY(!two[u"env_vars"].toObject().contains(u"ATEN_CPU_CAPABILITY"));
    }

    void humanReadableEnv() {
        const Result r = runCli({QStringLiteral("env")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("libtorch        " PROBAUDIT_TORCH_PIN)));
        QVERIFY(r.out.contains(QStringLiteral("ATen CPU kernels")));
    }

    // probaudit generate: JSON per prompt, bounded by --max-new-tokens; clear refusals.
    void generateCommand() {
        const QString model = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-qwen3");
        const Result r =
            runCli({QStringLiteral("generate"), model, QStringLiteral("--prompt"),
                    QStringLiteral("Review: fine food Verdict:"), QStringLiteral("--prompt"),
                    QStringLiteral("Review: a Verdict:"), QStringLiteral("--max-new-tokens"),
                    QStringLiteral("5"), QStringLiteral("--no-eos"), QStringLiteral("--config"),
                    QStringLiteral("{\"batch_size\":2}"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray items =
            QJsonDocument::fromJson(r.out.toUtf8()).object()[u"items"].toArray();
        QCOMPARE(items.size(), 2);
        for (const auto& v : items) {
            const QJsonObject it = v.toObject();
            QCOMPARE(it[u"tokens"].toArray().size(), 5);
            QCOMPARE(it[u"pieces"].toArray().size(), 5);
            QCOMPARE(it[u"finish"].toString(), QStringLiteral("length"));
            for (const auto& g : it[u"gaps"].toArray()) {
                QVERIFY(g.toDouble() >= 0);
            }
        }
        const Result none = runCli({QStringLiteral("generate"), model});
        QVERIFY(none.exitCode > 0);
        QVERIFY2(none.err.contains(QStringLiteral("nothing to generate")), qPrintable(none.err));
        const Result bert =
            runCli({QStringLiteral("generate"),
                    QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert"),
                    QStringLiteral("--prompt"), QStringLiteral("x")});
        QVERIFY(bert.exitCode > 0);
        QVERIFY2(bert.err.contains(QStringLiteral("llama-family")), qPrintable(bert.err));
    }

    // The serving probe: four runs, three comparisons; concurrency 1 run twice is byte-identical
    // with record Jaccard 1 (the serial reference reproduces); every comparison covers every
    // prompt and accounts for every step of the reference in its gap histogram.
    void generationProbeCommand() {
        QStringList args{QStringLiteral("generation-probe"),
                         QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-llama")};
        for (const char* t : {"fine food", "a", "slow and rude service, never again", "meh",
                              "the soup was cold", "great", "lovely staff"}) {
            args << QStringLiteral("--prompt")
                 << QStringLiteral("Review: %1 Verdict:").arg(QLatin1String(t));
        }
        args << QStringLiteral("--max-new-tokens") << QStringLiteral("8")
             << QStringLiteral("--no-eos") << QStringLiteral("--stop") << QStringLiteral("l")
             << QStringLiteral("--records")
             << QStringLiteral("{\"mode\":\"lines\",\"reduction\":\"count\"}")
             << QStringLiteral("--concurrency") << QStringLiteral("3") << QStringLiteral("--json");
        const Result r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject p = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(p[u"runs"].toArray().size(), 4);
        const QJsonArray cmp = p[u"comparisons"].toArray();
        QCOMPARE(cmp.size(), 3);
        QCOMPARE(cmp[0].toObject()[u"name"].toString(), QStringLiteral("concurrency 1, run twice"));
        QCOMPARE(cmp[0].toObject()[u"identical"].toInt(), 7);
        QCOMPARE(cmp[0].toObject()[u"pooled_jaccard"].toDouble(), 1.0);
        QCOMPARE(cmp[0].toObject()[u"answers_agree"].toInt(), 7);
        QCOMPARE(cmp[2].toObject()[u"name"].toString(),
                 QStringLiteral("concurrency 1 vs concurrency 3"));
        for (const auto& v : cmp) {
            const QJsonObject c = v.toObject();
            QCOMPARE(c[u"items"].toInt(), 7);
            int divergences = 0, steps = 0;
            for (const auto& b : c[u"gap_histogram"].toArray()) {
                divergences += b.toObject()[u"at_divergence"].toInt();
                steps += b.toObject()[u"all_steps"].toInt();
            }
            QCOMPARE(divergences, 7 - c[u"identical"].toInt());
            QVERIFY(steps >= 7);
        }
        for (const auto& v : p[u"runs"].toArray()) {
            const double share = v.toObject()[u"overhead_share"].toDouble();
            QVERIFY(share >= 0 && share < 1);
        }
        // Concurrency 1 is the reference the probe compares against, not a probe of its own.
        args[args.indexOf(QStringLiteral("3"))] = QStringLiteral("1");
        QVERIFY(runCli(args).exitCode > 0);
    }

    // A study with a float64 config (tiny BERT): its run records, summary and compare give
    // both sides' distance to it, and its float64 p differ from float32's.
    void distanceToExactCommands() {
        QTemporaryDir dir;
        QByteArray data;
        for (int i = 0; i < 10; ++i) {
            data += "{\"id\":\"i" + QByteArray::number(i) + "\",\"text\":\"the soup was " +
                    QByteArray(i % 2 ? "fine and warm " : "cold ") + QByteArray::number(i * 3) +
                    "\"}\n";
        }
        QFile d(dir.filePath(QStringLiteral("data.jsonl")));
        QVERIFY(d.open(QIODevice::WriteOnly) && d.write(data) > 0);
        d.close();
        QFile s(dir.filePath(QStringLiteral("s.study.json")));
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(QStringLiteral(
                    R"({"name":"x","model":{"path":"%1/tiny-bert"},)"
                    R"("heads":{"mean":{"kind":"adapter","path":"%1/adapters/)"
                    R"(tiny-bert-mean.safetensors"}},"dataset":{"path":"data.jsonl"},)"
                    R"("configs":{"ref":{"batch_size":1},"b4":{"batch_size":4,)"
                    R"("padding_side":"left"},"exact":{"dtype":"float64"}},"reference":"ref"})")
                    .arg(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures"))
                    .toUtf8());
        s.close();
        const QString ledger = dir.filePath(QStringLiteral("l.db"));
        QCOMPARE(runCli({QStringLiteral("run"), s.fileName(), QStringLiteral("--ledger"), ledger,
                         QStringLiteral("--all")})
                     .exitCode,
                 0);
        Result r = runCli({QStringLiteral("summary"), ledger, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject sum = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(sum[u"exact_config"].toString(), QStringLiteral("exact"));
        int withDistance = 0;
        for (const auto& row : sum[u"rows"].toArray()) {
            const QJsonObject e = row.toObject()[u"distance_to_exact"].toObject();
            if (!e.isEmpty()) {
                ++withDistance;
                QCOMPARE(e[u"items"].toInt(), 10);
                QCOMPARE(e[u"a_closer"].toInt() + e[u"b_closer"].toInt() + e[u"ties"].toInt(), 10);
            }
        }
        QCOMPARE(withDistance, 2); // ref and b4, not the exact run itself
        r = runCli({QStringLiteral("summary"), ledger});
        QVERIFY2(r.out.contains(QStringLiteral("Distance to exact (|p - p_exact| against the "
                                               "float64 run \"exact\")")),
                 qPrintable(r.out));
        r = runCli({QStringLiteral("compare"), ledger, QStringLiteral("1"), QStringLiteral("2"),
                    QStringLiteral("--json")});
        const QJsonObject e =
            QJsonDocument::fromJson(r.out.toUtf8()).object()[u"distance_to_exact"].toObject();
        QCOMPARE(e[u"exact_run"].toInt(), 3);
        QCOMPARE(e[u"items"].toInt(), 10);
        // float32 is not exact: the reference's largest distance is above 0.
        QVERIFY(e[u"a"].toObject()[u"max"].toDouble() > 0);
    }

    // `probaudit gate` end to end on a real study (tiny BERT): the policy sealed by `run`,
    // exit codes, the JUnit file, and a policy changed after the runs reported as such.
    void gateCommand() {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        QByteArray data;
        for (int i = 0; i < 12; ++i) {
            data += "{\"id\":\"i" + QByteArray::number(i) + "\",\"text\":\"the food was " +
                    QByteArray(i % 2 ? "fine " : "cold ") + QByteArray::number(i * 7) +
                    "\",\"label\":" + QByteArray::number(i % 2) + "}\n";
        }
        write(QStringLiteral("data.jsonl"), data);
        const auto study = [&](const char* limit) {
            return QStringLiteral(
                       R"({"name":"g","model":{"path":"%1/tiny-bert"},)"
                       R"("heads":{"mean":{"kind":"adapter","path":"%1/adapters/)"
                       R"(tiny-bert-mean.safetensors"}},"dataset":{"path":"data.jsonl"},)"
                       R"("configs":{"ref":{"batch_size":1},"b4":{"batch_size":4},)"
                       R"("t2":{"batch_size":1,"threads":2}},"reference":"ref",)"
                       R"("policy":{"rules":[{"name":"shape","configs":[{"class":"shape"}],)"
                       R"("max_dp_points":%2},{"name":"threads","configs":["t2"],)"
                       R"("min_agreement":1}]}})")
                .arg(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures"),
                     QString::fromLatin1(limit))
                .toUtf8();
        };
        write(QStringLiteral("s.study.json"), study("0"));
        const QString ledger = dir.filePath(QStringLiteral("l.db"));
        const QString junit = dir.filePath(QStringLiteral("gate.xml"));
        QCOMPARE(runCli({QStringLiteral("run"), dir.filePath(QStringLiteral("s.study.json")),
                         QStringLiteral("--ledger"), ledger, QStringLiteral("--all")})
                     .exitCode,
                 0);
        // Batch 4 pads tiny BERT's inputs: its Δp is not 0, so "max_dp_points 0" fails.
        Result r = runCli({QStringLiteral("gate"), ledger, QStringLiteral("--junit"), junit});
        QCOMPARE(r.exitCode, 5);
        QVERIFY2(r.out.contains(QStringLiteral("registered before every run judged")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("verdict: FAIL (1 passed, 1 failed")));
        QProcess lint;
        lint.start(QStringLiteral("xmllint"),
                   {QStringLiteral("--noout"), QStringLiteral("--schema"),
                    QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/junit/junit-10.xsd"),
                    junit});
        QVERIFY(lint.waitForFinished(30000));
        QCOMPARE(lint.exitCode(), 0);
        // The limit loosened after the runs: it passes, and says it was written after them.
        write(QStringLiteral("s.study.json"), study("100"));
        QCOMPARE(runCli({QStringLiteral("run"), dir.filePath(QStringLiteral("s.study.json")),
                         QStringLiteral("--ledger"), ledger, QStringLiteral("--all")})
                     .exitCode,
                 0);
        r = runCli({QStringLiteral("gate"), ledger, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j[u"registration"].toString(), QStringLiteral("registered after runs 1\u20133"));
        QCOMPARE(j[u"passed"].toInt(), 2);
        // Signed: verified by the signer's key with the ledger; refused under another key.
        const QString key = dir.filePath(QStringLiteral("k")),
                      attest = dir.filePath(QStringLiteral("a.json"));
        QCOMPARE(runCli({QStringLiteral("keygen"), key}).exitCode, 0);
        QCOMPARE(runCli({QStringLiteral("keygen"), key + QStringLiteral("2")}).exitCode, 0);
        QCOMPARE(runCli({QStringLiteral("gate"), ledger, QStringLiteral("--attest"), attest,
                         QStringLiteral("--key"), key})
                     .exitCode,
                 0);
        r = runCli({QStringLiteral("verify-attestation"), attest, QStringLiteral("--trust"),
                    key + QStringLiteral(".pub"), QStringLiteral("--ledger"), ledger});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("verified")), qPrintable(r.out + r.err));
        // Its subjects: every model file with its plain SHA-256 (what sha256sum prints).
        {
            QFile envelope(attest);
            QVERIFY(envelope.open(QIODevice::ReadOnly));
            const QJsonObject statement =
                QJsonDocument::fromJson(
                    QByteArray::fromBase64(QJsonDocument::fromJson(envelope.readAll())[u"payload"]
                                               .toString()
                                               .toUtf8()))
                    .object();
            int modelFiles = 0;
            for (const auto& v : statement[u"subject"].toArray()) {
                const QString name = v.toObject()[u"name"].toString();
                if (!name.startsWith(QStringLiteral("model/"))) {
                    continue;
                }
                QFile f(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert/") +
                        name.mid(6));
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name));
                QCOMPARE(
                    v.toObject()[u"digest"].toObject()[u"sha256"].toString(),
                    QString::fromLatin1(
                        QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()));
                ++modelFiles;
            }
            QVERIFY(modelFiles >= 2); // config and weights at least
        }
        r = runCli({QStringLiteral("verify-attestation"), attest, QStringLiteral("--trust"),
                    key + QStringLiteral("2.pub")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        // Reproduced from its bundle on this machine: every run exact, signed as reproduced.
        const QString bundle = dir.filePath(QStringLiteral("b.zip"));
        QCOMPARE(
            runCli({QStringLiteral("bundle"), ledger, QStringLiteral("--study"),
                    dir.filePath(QStringLiteral("s.study.json")), QStringLiteral("-o"), bundle})
                .exitCode,
            0);
        r = runCli({QStringLiteral("reproduce"), bundle, QStringLiteral("--study"),
                    dir.filePath(QStringLiteral("s.study.json")), QStringLiteral("--ledger"),
                    dir.filePath(QStringLiteral("r.db")), QStringLiteral("--attest"),
                    dir.filePath(QStringLiteral("r.json")), QStringLiteral("--key"), key});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count(QStringLiteral(" exact ")), 3);
        QCOMPARE(
            runCli({QStringLiteral("verify-attestation"), dir.filePath(QStringLiteral("r.json")),
                    QStringLiteral("--trust"), key + QStringLiteral(".pub")})
                .exitCode,
            0);
        // The card names the pinned runtime when given the lock.
        const QString lock = dir.filePath(QStringLiteral("pin.lock.json"));
        QCOMPARE(runCli({QStringLiteral("pin"), dir.filePath(QStringLiteral("s.study.json")),
                         QStringLiteral("--ledger"), ledger, QStringLiteral("--run"),
                         QStringLiteral("1"), QStringLiteral("-o"), lock,
                         QStringLiteral("--sample"), QStringLiteral("2")})
                     .exitCode,
                 0);
        r = runCli({QStringLiteral("card"), ledger, QStringLiteral("--lock"), lock});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("pinned in `pin.lock.json` from run 1")),
                 qPrintable(r.out));
        // A lock of another ledger (its pinned records are none of this ledger's) is refused.
        {
            QFile f(lock);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QJsonObject other = QJsonDocument::fromJson(f.readAll()).object();
            other[u"records_sha256"] = QString(64, QLatin1Char('0'));
            write(QStringLiteral("other.lock.json"), QJsonDocument(other).toJson());
        }
        r = runCli({QStringLiteral("card"), ledger, QStringLiteral("--lock"),
                    dir.filePath(QStringLiteral("other.lock.json"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("which is not in")), qPrintable(r.err));
        // A study file without a policy cannot be the gate's.
        QByteArray none = study("1");
        none.truncate(none.indexOf(R"(,"policy")"));
        write(QStringLiteral("none.study.json"), none + "}");
        r = runCli({QStringLiteral("gate"), ledger, QStringLiteral("--study"),
                    dir.filePath(QStringLiteral("none.study.json"))});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    // `model`: #28's bar on SmolLM2 at batch 8, 128 tokens, float32: peak memory must not grow.
    // gemm onednn packs every layer's weights and frees the plain ones; while the CLI kept those
    // freed pages (its malloc thresholds keep freed memory for the batch loop), its peak here was
    // 79 MiB above aten's (1,197 vs 1,118 MiB). The engine now gives one-off frees back
    // (engine/weights.h releaseFreedHeap). What onednn still holds above aten is oneDNN's
    // primitive cache (15-19 MiB here; 0 with ONEDNN_PRIMITIVE_CACHE_CAPACITY=0), hence 32 at
    // first. Since 9bc7ee4 aten's own peak is 32 MiB lower on the AVX2 host (1,104 -> 1,072 MiB,
    // this harness, three runs each) while onednn's stayed where it was (1,113-1,118 MiB), so
    // the gap is 41-46 MiB with onednn unchanged: the bar is 56, which still fails the 79 MiB
    // of freed pages this test was written for. Since 107ac6c probaudit ends without the
    // libraries' static destructors, which had paged in ~120 MiB at exit on both sides and so
    // hid the peak of the layout change itself: packing every weight before giving any hole
    // back held both layouts of most weights at once (onednn 1,053 against aten 955 MiB, AVX2
    // host). The layout change now gives the holes back every four weights: 1,010 against
    // 982 MiB.
    void onednnPeakMemoryNotAboveAten() {
        const auto args = [](const char* gemm) {
            return QStringList{
                QStringLiteral("score"),
                QStringLiteral(PROBAUDIT_SOURCE_DIR "/.cache/models/SmolLM2-135M-Instruct/"
                                                    "SmolLM2-135M-Instruct.Q4_1.gguf"),
                QStringLiteral("--head"),
                QStringLiteral(R"({"kind":"label_tokens","labels":["No","Yes"],)"
                               R"("template":"Is this review positive? {text} Answer:"})"),
                QStringLiteral("--input"),
                QStringLiteral(PROBAUDIT_SOURCE_DIR
                               "/resources/demo/sentiment-sentences/yelp.jsonl"),
                QStringLiteral("--limit"),
                QStringLiteral("32"),
                QStringLiteral("--config"),
                QStringLiteral(R"({"batch_size":8,"threads":2,"pad_to":"fixed","pad_to_n":128,)"
                               R"("max_length":128,"gemm":"%1"})")
                    .arg(QLatin1String(gemm))};
        };
        // Each side's peak is the lower of two runs: one run's peak moves by some 30 MiB with
        // the threads' timing (1,072 to 1,101 MiB for aten on one AVX2 host), as much as the bar.
        const auto lowest = [&](const char* gemm) {
            const long a = peakMiB(args(gemm)), b = peakMiB(args(gemm));
            return a > 0 && b > 0 ? std::min(a, b) : -1;
        };
        const long aten = lowest("aten");
        const long onednn = lowest("onednn");
        QVERIFY2(aten > 0 && onednn > 0, "probaudit score failed");
        qInfo("peak resident memory: gemm aten %ld MiB, gemm onednn %ld MiB", aten, onednn);
        QVERIFY2(onednn <= aten + 56,
                 qPrintable(QStringLiteral("onednn %1 MiB, aten %2 MiB").arg(onednn).arg(aten)));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
