// The architecture's dependency rules, checked on the built binaries and the sources:
// the GUI never loads libtorch, the engine CLI never loads Qt, core/ and kernels/ include no
// Qt headers, ui/ includes no torch headers.
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

namespace {

QStringList loadedLibraries(const QString& binary) {
    QProcess p;
    p.start(QStringLiteral("ldd"), {binary});
    p.waitForFinished(60000);
    QStringList names;
    const auto lines = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
    for (const QString& line : lines) {
        const QString name = line.trimmed().section(u' ', 0, 0);
        if (!name.isEmpty()) {
            names << name;
        }
    }
    return names;
}

// The sources under dir that match include; a folder with no sources at all is reported too
// (a renamed folder would otherwise pass with nothing checked).
QStringList sourcesIncluding(const QString& dir, const QRegularExpression& include) {
    QStringList offenders;
    int scanned = 0;
    QDirIterator it(QStringLiteral(PROBAUDIT_SOURCE_DIR "/") + dir,
                    {QStringLiteral("*.h"), QStringLiteral("*.cpp"), QStringLiteral("*.cu"),
                     QStringLiteral("*.cuh")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        ++scanned;
        QFile f(path);
        if (f.open(QIODevice::ReadOnly) &&
            include.match(QString::fromUtf8(f.readAll())).hasMatch()) {
            offenders << path;
        }
    }
    if (scanned == 0) {
        offenders << QStringLiteral("no sources under ") + dir;
    }
    return offenders;
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void engineLoadsTorchButNotQt() {
        const QStringList libs = loadedLibraries(QStringLiteral(PROBAUDIT_CLI));
        QVERIFY2(libs.contains(QStringLiteral("libtorch_cpu.so")), qPrintable(libs.join(u' ')));
        for (const QString& l : libs) {
            QVERIFY2(!l.startsWith(QStringLiteral("libQt")), qPrintable(l));
        }
    }

#ifdef PROBAUDIT_WORKBENCH
    void workbenchNeverLoadsTorch_data() {
        QTest::addColumn<QString>("binary");
        QTest::newRow("probaudit-workbench") << QStringLiteral(PROBAUDIT_WORKBENCH);
        QTest::newRow("probaudit-report") << QStringLiteral(PROBAUDIT_REPORT);
    }
    void workbenchNeverLoadsTorch() {
        QFETCH(QString, binary);
        const QStringList libs = loadedLibraries(binary);
        QVERIFY2(libs.contains(QStringLiteral("libQt6Widgets.so.6")), qPrintable(libs.join(u' ')));
        for (const QString& l : libs) {
            QVERIFY2(!l.contains(QStringLiteral("torch")) &&
                         !l.startsWith(QStringLiteral("libc10")) &&
                         !l.startsWith(QStringLiteral("libcu")),
                     qPrintable(l));
        }
    }
#endif

    void coreAndKernelsIncludeNoQt() {
        const QRegularExpression qt(QStringLiteral("#include\\s*[<\"](Q[A-Za-z]|qt)"));
        QCOMPARE(sourcesIncluding(QStringLiteral("core"), qt), QStringList());
        QCOMPARE(sourcesIncluding(QStringLiteral("kernels"), qt), QStringList());
    }

    // Only the engine (and the runner that drives it) may include torch: the rest of core/ is
    // what the workbench links.
    void torchFreeCoreIncludesNoTorch_data() {
        QTest::addColumn<QString>("dir");
        for (const char* d : {"core/common", "core/model", "core/tokenizer", "core/study",
                              "core/ledger", "core/analysis"}) {
            QTest::newRow(d) << QString::fromLatin1(d);
        }
    }
    void torchFreeCoreIncludesNoTorch() {
        QFETCH(QString, dir);
        const QRegularExpression torch(QStringLiteral("#include\\s*[<\"](torch|ATen|c10)/"));
        QCOMPARE(sourcesIncluding(dir, torch), QStringList());
    }

    // The runner reports through events; the CLI and the workbench present them.
    void runnerNeverPrints() {
        const QRegularExpression prints(
            QStringLiteral("std::(cout|cerr|printf|puts)|\\bf?printf\\(|\\bputs\\("));
        QCOMPARE(sourcesIncluding(QStringLiteral("core/runner"), prints), QStringList());
    }

    void uiIncludesNoTorch() {
        const QRegularExpression torch(QStringLiteral("#include\\s*[<\"](torch|ATen|c10)/"));
        QCOMPARE(sourcesIncluding(QStringLiteral("ui"), torch), QStringList());
        QCOMPARE(sourcesIncluding(QStringLiteral("app/workbench"), torch), QStringList());
        QCOMPARE(sourcesIncluding(QStringLiteral("app/report"), torch), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
