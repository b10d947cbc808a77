// The architecture's dependency rules, checked on the built binaries and the sources:
// the GUI never loads libtorch; the engine CLI loads Qt Core (the audit bundle, core/bundle) but
// never Qt Gui or Widgets; core/ includes Qt headers only in core/bundle, kernels/ none; ui/
// includes no torch headers, and ui/models no widgets.
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

// The sources under dir (but not under `except`, a subfolder) that match include; a folder
// with no sources at all is reported too (a renamed folder would otherwise pass with nothing
// checked).
QStringList sourcesIncluding(const QString& dir, const QRegularExpression& include,
                             const QString& except = QString()) {
    QStringList offenders;
    int scanned = 0;
    const QString root = QStringLiteral(PROBAUDIT_SOURCE_DIR "/") + dir;
    QDirIterator it(root,
                    {QStringLiteral("*.h"), QStringLiteral("*.cpp"), QStringLiteral("*.cu"),
                     QStringLiteral("*.cuh")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!except.isEmpty() && path.startsWith(root + u'/' + except + u'/')) {
            continue;
        }
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
    // The CLI packs and imports audit bundles itself: Qt Core (and Core5Compat, which QuaZip
    // needs for file-name codecs; it is Core-only too), never Qt Gui, Widgets or anything else.
    void engineLoadsTorchAndOnlyQtCore() {
        const QStringList libs = loadedLibraries(QStringLiteral(PROBAUDIT_CLI));
        QVERIFY2(libs.contains(QStringLiteral("libtorch_cpu.so")), qPrintable(libs.join(u' ')));
        QVERIFY2(libs.contains(QStringLiteral("libQt6Core.so.6")), qPrintable(libs.join(u' ')));
        const QStringList allowed{QStringLiteral("libQt6Core.so.6"),
                                  QStringLiteral("libQt6Core5Compat.so.6")};
        for (const QString& l : libs) {
            QVERIFY2(!l.startsWith(QStringLiteral("libQt")) || allowed.contains(l), qPrintable(l));
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
                         // CUDA's libraries (libcudart, libcublas, ...); libcurl is the
                         // endpoint client's HTTP (the New Study form's "Test connection")
                         !(l.startsWith(QStringLiteral("libcu")) &&
                           !l.startsWith(QStringLiteral("libcurl"))),
                     qPrintable(l));
        }
    }
#endif

    // What the CLI links, as the build links it (a library that nothing uses would not show in
    // the binary: the linker drops it).
    void engineLinksOnlyQtCore() {
        const QStringList links =
            QStringLiteral(PROBAUDIT_CLI_QT_LINKS).split(u' ', Qt::SkipEmptyParts);
        QVERIFY2(links.contains(QStringLiteral("Qt6::Core")), PROBAUDIT_CLI_QT_LINKS);
        for (const QString& l : links) {
            QVERIFY2(l == QLatin1String("Qt6::Core") || l == QLatin1String("Qt6::Core5Compat"),
                     qPrintable(l));
        }
    }

    void coreAndKernelsIncludeNoQt() {
        const QRegularExpression qt(QStringLiteral("#include\\s*[<\"](Q[A-Za-z]|qt|quazip)"));
        QCOMPARE(sourcesIncluding(QStringLiteral("core"), qt, QStringLiteral("bundle")),
                 QStringList());
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

    // The bundle library is Qt Core only: none of Gui's or Widgets' headers.
    void bundleIncludesOnlyQtCore() {
        const QRegularExpression gui(QStringLiteral(
            "#include\\s*[<\"](QtGui|QtWidgets|QGuiApplication|QApplication|QColor|QImage|"
            "QPainter|QPixmap|QFont|QPalette|QWidget|QPdfWriter|QTextDocument)\\b"));
        QCOMPARE(sourcesIncluding(QStringLiteral("core/bundle"), gui), QStringList());
    }

    // The workbench's models are Qt Core and Gui only: they are tested without a widget.
    void uiModelsIncludeNoWidgets() {
        const QRegularExpression widgets(QStringLiteral(
            "#include\\s*[<\"](QtWidgets|QWidget|QApplication|QAbstractItemView|QTableView|"
            "QTableWidget|QLabel|QDialog|QMainWindow|QStyle|QChart)\\b"));
        QCOMPARE(sourcesIncluding(QStringLiteral("ui/models"), widgets), QStringList());
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
