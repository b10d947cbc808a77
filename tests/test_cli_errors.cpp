// Bad input at the command line: one line on stderr that names the file and the problem, a
// non-zero exit, never a crash (DESIGN.md quality bars).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(path));
    }
    f.write(bytes);
}

void copyFixture(const QString& name, const QString& to) {
    QDir().mkpath(to);
    const QDir from(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/") + name);
    for (const QString& f : from.entryList(QDir::Files)) {
        QFile::copy(from.filePath(f), to + u'/' + f);
    }
}

// 100,000 levels: `[[[...]]]`, or tokenizer normalizers nested as sequences.
QByteArray deepArray() {
    const int n = 100000;
    return QByteArray(n, '[') + QByteArray(n, ']');
}

QByteArray deepNormalizer() {
    QByteArray open, close;
    for (int i = 0; i < 100000; ++i) {
        open += "{\"type\":\"Sequence\",\"normalizers\":[";
        close += "]}";
    }
    return open + "{\"type\":\"Lowercase\"}" + close;
}

// The files of the deep-nesting and duplicate-key rows, in the temporary folder `d` (tiny-bert
// copied to d/m).
void writeDeep(const QString& d, const QString& setup) {
    const QString m = d + QStringLiteral("/m");
    if (setup == QStringLiteral("deeptok")) {
        QFile f(m + QStringLiteral("/tokenizer.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray t = f.readAll();
        f.close();
        // The normalizer becomes 100,000 nested sequences; the old one is kept under another key.
        const QByteArray key = "\"normalizer\":";
        const qsizetype at = t.indexOf(key);
        QVERIFY(at > 0);
        t.insert(at + key.size(), deepNormalizer() + ", \"old_normalizer\":");
        writeFile(m + QStringLiteral("/tokenizer.json"), t);
    } else if (setup == QStringLiteral("deepcfg")) {
        writeFile(m + QStringLiteral("/config.json"),
                  "{\"model_type\":\"bert\",\"unused\":" + deepArray() + "}");
    } else if (setup == QStringLiteral("deepstudy")) {
        writeFile(d + QStringLiteral("/s.study.json"),
                  "{\"name\":\"x\",\"model\":{\"path\":\"m\"},\"heads\":{\"h\":{\"kind\":"
                  "\"adapter\",\"path\":\"a\","
                  "\"unused\":" +
                      deepArray() +
                      "}},\"dataset\":{\"path\":\"d.jsonl\"},\"configs\":{\"r\":{}},"
                      "\"reference\":\"r\"}");
    } else if (setup == QStringLiteral("dupstudy")) {
        writeFile(d + QStringLiteral("/s.study.json"),
                  "{\"name\":\"x\",\"model\":{\"path\":\"m\"},\"heads\":{\"h\":{\"kind\":"
                  "\"adapter\",\"path\":\"a\"}},\"dataset\":{\"path\":\"d.jsonl\"},"
                  "\"configs\":{\"r\":{},\"r\":{\"batch_size\":8}},\"reference\":\"r\"}");
    } else if (setup == QStringLiteral("deepdata") || setup == QStringLiteral("dupdata")) {
        const QByteArray second =
            setup == QStringLiteral("dupdata")
                ? QByteArray("{\"id\":\"b\",\"text\":\"one\",\"text\":\"two\"}\n")
                : "{\"id\":\"b\",\"text\":\"deep\",\"x\":" + deepArray() + "}\n";
        writeFile(d + QStringLiteral("/d.jsonl"),
                  "{\"id\":\"a\",\"text\":\"fine\",\"label\":0}\n" + second);
        writeFile(
            d + QStringLiteral("/d.study.json"),
            QStringLiteral("{\"name\":\"x\",\"model\":{\"path\":\"m\"},\"heads\":{\"h\":{\"kind\":"
                           "\"adapter\",\"path\":\"%1/adapters/tiny-bert-mean.safetensors\"}},"
                           "\"dataset\":{\"path\":\"d.jsonl\"},\"configs\":{\"r\":{}},"
                           "\"reference\":\"r\"}")
                .arg(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures"))
                .toUtf8());
    } else if (setup == QStringLiteral("deeplock")) {
        writeFile(d + QStringLiteral("/l.json"), "{\"x\":" + deepArray() + "}");
    } else if (setup == QStringLiteral("deepinput")) {
        writeFile(d + QStringLiteral("/in.jsonl"), "{\"text\":\"a\",\"x\":" + deepArray() + "}\n");
    }
}

} // namespace

class TestCliErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneLineErrors_data() {
        QTest::addColumn<QStringList>("args"); // %D stands for the temporary folder
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("expected"); // must appear in the message
        QTest::newRow("missing path") << QStringList{"inspect", "%D/nope"} << ""
                                      << "%D/nope: no such file";
        QTest::newRow("unknown model type") << QStringList{"inspect", "%D/m"} << "gpt_neox"
                                            << "%D/m/config.json: unknown model type \"gpt_neox\"";
        QTest::newRow("malformed tokenizer.json") << QStringList{"inspect", "%D/m"} << "badtok"
                                                  << "%D/m/tokenizer.json: invalid JSON";
        QTest::newRow("corrupt GGUF") << QStringList{"inspect", "%D/x.gguf"} << "badgguf"
                                      << "%D/x.gguf: not a GGUF file";
        QTest::newRow("truncated safetensors") << QStringList{"inspect", "%D/m"} << "truncst"
                                               << "%D/m/model.safetensors: truncated";
        QTest::newRow("non-UTF-8 text file")
            << QStringList{"tokenize", "%D/m", "--text-file", "%D/t.txt"} << "latin1"
            << "%D/t.txt: not valid UTF-8 at byte 3";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << ""
                                         << "frobnicate";
        // Nesting deeper than any real document: refused while parsing, never a stack
        // overflow in whatever copies, dumps or recursively reads the tree afterwards.
        const QString deep = QStringLiteral("JSON nested deeper than 128 levels");
        QTest::newRow("deep tokenizer.json") << QStringList{"inspect", "%D/m"} << "deeptok"
                                             << "%D/m/tokenizer.json: " + deep;
        QTest::newRow("deep config.json") << QStringList{"inspect", "%D/m"} << "deepcfg"
                                          << "%D/m/config.json: " + deep;
        QTest::newRow("deep study file")
            << QStringList{"run", "%D/s.study.json", "--all"} << "deepstudy"
            << "%D/s.study.json: " + deep;
        QTest::newRow("deep dataset line")
            << QStringList{"run", "%D/d.study.json", "--all"} << "deepdata"
            << "line 2: " + deep;
        // An object naming a key twice: which one counts would be a guess.
        QTest::newRow("duplicate key in a study file")
            << QStringList{"run", "%D/s.study.json", "--all"} << "dupstudy"
            << "%D/s.study.json: duplicate key \"r\"";
        QTest::newRow("duplicate key in a dataset line")
            << QStringList{"run", "%D/d.study.json", "--all"} << "dupdata"
            << "line 2: duplicate key \"text\"";
        QTest::newRow("deep runtime lock") << QStringList{"check", "%D/l.json"} << "deeplock"
                                           << "%D/l.json: " + deep;
        QTest::newRow("deep score input")
            << QStringList{"score",
                           "%D/m",
                           "--head",
                           "{\"kind\":\"adapter\",\"path\":\"" PROBAUDIT_SOURCE_DIR
                           "/tests/fixtures/adapters/tiny-bert-mean.safetensors\"}",
                           "--input",
                           "%D/in.jsonl"}
            << "deepinput"
            << "%D/in.jsonl: line 1: " + deep;
    }
    void oneLineErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, setup);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString d = dir.path();
        if (!setup.isEmpty()) {
            copyFixture(QStringLiteral("tiny-bert"), d + QStringLiteral("/m"));
        }
        if (setup == QStringLiteral("gpt_neox")) {
            writeFile(d + QStringLiteral("/m/config.json"), R"({"model_type":"gpt_neox"})");
        } else if (setup == QStringLiteral("badtok")) {
            writeFile(d + QStringLiteral("/m/tokenizer.json"), "{\"model\": {");
        } else if (setup == QStringLiteral("badgguf")) {
            writeFile(d + QStringLiteral("/x.gguf"), "GGML and then some bytes");
        } else if (setup == QStringLiteral("latin1")) {
            writeFile(d + QStringLiteral("/t.txt"), "caf\xe9 au lait"); // Latin-1, not UTF-8
        } else if (setup == QStringLiteral("truncst")) {
            writeFile(d + QStringLiteral("/m/model.safetensors"), "\x10\x00");
        } else {
            writeDeep(d, setup);
        }
        for (QString& a : args) {
            a.replace(QStringLiteral("%D"), d);
        }
        expected.replace(QStringLiteral("%D"), d);
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI), args);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // no crash
        QVERIFY(p.exitCode() != 0);
        const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        QVERIFY2(err.contains(expected), qPrintable(err));
        // CLI11 adds a usage hint line; a refused dataset lists its bad lines under one heading.
        if (!args.contains(QStringLiteral("frobnicate")) && setup != QStringLiteral("deepdata") &&
            setup != QStringLiteral("dupdata")) {
            QVERIFY2(!err.contains(u'\n'), qPrintable(err));
        }
    }

    // The one error line quotes outside text (here a file name) with its control characters
    // escaped: a name cannot clear the terminal or start a line of its own.
    void errorLineEscapesControls() {
        QTemporaryDir dir;
        const QString name = dir.filePath(QStringLiteral("x\x1b[2J\rledger verified.ledger"));
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI), {QStringLiteral("verify"), name});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(!err.contains('\x1b') && !err.contains('\r'), err.constData());
        QVERIFY2(err.contains("x\\x1b[2J\\x0dledger verified.ledger: no such ledger"),
                 err.constData());
    }

    // Truncation is never silent: the CLI warns on stderr and still prints the tokens.
    void truncationWarns() {
        QProcess full;
        full.start(QStringLiteral(PROBAUDIT_CLI),
                   {QStringLiteral("tokenize"),
                    QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert"),
                    QStringLiteral("--text"), QStringLiteral("one two three four five six seven")});
        QVERIFY(full.waitForFinished(60000));
        const int n = QString::fromUtf8(full.readAllStandardOutput()).section(u' ', 0, 0).toInt();
        QVERIFY(n > 5);
        QProcess p;
        p.start(QStringLiteral(PROBAUDIT_CLI),
                {QStringLiteral("tokenize"),
                 QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures/tiny-bert"),
                 QStringLiteral("--text"), QStringLiteral("one two three four five six seven"),
                 QStringLiteral("--max-length"), QStringLiteral("5")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(
            QString::fromUtf8(p.readAllStandardOutput()).startsWith(QStringLiteral("5 tokens")));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("truncated from %1 to 5 tokens").arg(n)),
                 qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
