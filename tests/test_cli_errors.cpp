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
        if (!args.contains(QStringLiteral("frobnicate"))) { // CLI11 adds a usage hint line
            QVERIFY2(!err.contains(u'\n'), qPrintable(err));
        }
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
