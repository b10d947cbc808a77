// The architecture's dependency rules, checked on the built binaries and the sources:
// the GUI never loads libtorch; the engine CLI loads Qt Core (the audit bundle, core/bundle) but
// never Qt Gui or Widgets; core/ includes Qt headers only in core/bundle, kernels/ none; ui/
// includes no torch headers, and ui/models no widgets; app/ includes neither torch nor the
// engine. Folder = CMake target: every source folder is built into its own targets, their
// include graph has no cycle and follows what the targets link. Kinds are compared as enums
// (core/common/vocabulary.h), never as strings.
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <map>
#include <set>

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

// The folder (relative to the repository) a quoted include names: every product include is
// spelled from the repository's root ("core/ledger/x.h", "ui/models/x.h", "kernels/x.h",
// "app/probaudit/x.h"; app/probaudit/commands belongs to app/probaudit); "" for a header of no
// source folder (a test's, a generated one).
QString includedFolder(const QString& include) {
    const QStringList parts = include.split(u'/');
    if (parts.size() < 2) {
        return {};
    }
    if (parts[0] == QLatin1String("kernels")) {
        return parts[0];
    }
    if (parts.size() < 3) {
        return {};
    }
    return parts[0] + u'/' + parts[1];
}

// Every source folder (a folder of app/, core/, ui/, and kernels/) and the folders its sources
// include; app/probaudit/commands belongs to app/probaudit.
std::map<QString, std::set<QString>> folderIncludes() {
    std::map<QString, std::set<QString>> graph;
    const QRegularExpression include(QStringLiteral("#include\\s*\"([^\"]+)\""));
    for (const char* top : {"app", "core", "ui", "kernels"}) {
        QDirIterator it(QStringLiteral(PROBAUDIT_SOURCE_DIR "/") + QLatin1String(top),
                        {QStringLiteral("*.h"), QStringLiteral("*.cpp"), QStringLiteral("*.cu"),
                         QStringLiteral("*.cuh")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QString rel = path.mid(int(qstrlen(PROBAUDIT_SOURCE_DIR)) + 1);
            QString folder = rel.section(u'/', 0, rel.startsWith(QLatin1String("kernels")) ? 0 : 1);
            graph[folder];
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                continue;
            }
            auto m = include.globalMatch(QString::fromUtf8(f.readAll()));
            while (m.hasNext()) {
                const QString to = includedFolder(m.next().captured(1));
                if (!to.isEmpty() && to != folder &&
                    QDir(QStringLiteral(PROBAUDIT_SOURCE_DIR "/") + to).exists()) {
                    graph[folder].insert(to);
                }
            }
        }
    }
    return graph;
}

// What CMake says (tests/CMakeLists.txt writes it): each folder's targets, what each target
// links (transitively) and each target's sources.
struct Layering {
    std::map<QString, QStringList> targets;     // folder -> targets
    std::map<QString, std::set<QString>> links; // target -> linked targets
    std::map<QString, QStringList> sources;     // target -> sources
};

Layering layering() {
    Layering l;
    QFile f(QStringLiteral(PROBAUDIT_LAYERING));
    if (!f.open(QIODevice::ReadOnly)) {
        return l;
    }
    const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        const QStringList w = line.split(u' ');
        if (w.size() != 3) {
            continue;
        }
        if (w[0] == QLatin1String("T")) {
            l.targets[w[1]] << w[2];
        } else if (w[0] == QLatin1String("L")) {
            l.links[w[1]].insert(w[2]);
        } else if (w[0] == QLatin1String("S")) {
            l.sources[w[1]] << w[2];
        }
    }
    return l;
}

// A cycle of the graph reachable from `from`, as "a -> b -> a", or "".
QString cycleFrom(const std::map<QString, std::set<QString>>& graph, const QString& from,
                  QStringList& path, std::set<QString>& done) {
    if (path.contains(from)) {
        return (path.mid(int(path.indexOf(from))) << from).join(QStringLiteral(" -> "));
    }
    if (done.count(from) != 0) {
        return {};
    }
    path << from;
    const auto it = graph.find(from);
    if (it != graph.end()) {
        for (const QString& to : it->second) {
            if (const QString c = cycleFrom(graph, to, path, done); !c.isEmpty()) {
                return c;
            }
        }
    }
    path.removeLast();
    done.insert(from);
    return {};
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

    // One include root: every quoted include of a product source names a file by its path from
    // the repository's root (a header beside the includer only for generated files: moc output).
    void oneIncludeRoot() {
        const QRegularExpression include(QStringLiteral("#include\\s*\"([^\"]+)\""));
        const QDir root(QStringLiteral(PROBAUDIT_SOURCE_DIR));
        QStringList unresolved;
        for (const char* top : {"app", "core", "ui", "kernels"}) {
            QDirIterator it(root.filePath(QLatin1String(top)),
                            {QStringLiteral("*.h"), QStringLiteral("*.cpp"), QStringLiteral("*.cu"),
                             QStringLiteral("*.cuh")},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                auto m = include.globalMatch(QString::fromUtf8(f.readAll()));
                while (m.hasNext()) {
                    const QString h = m.next().captured(1);
                    if (!h.endsWith(QLatin1String(".moc")) && !h.startsWith(QLatin1String("ui_")) &&
                        !QFileInfo::exists(root.filePath(h))) {
                        unresolved << root.relativeFilePath(path) + u':' + h;
                    }
                }
            }
        }
        QCOMPARE(unresolved, QStringList());
    }

    // The CLI parses, calls core and presents: neither torch nor the engine's headers (the
    // engine's work is reached through core/tasks and core/runner).
    void appIncludesNoTorchNorEngine() {
        const QRegularExpression engine(
            QStringLiteral("#include\\s*[<\"](torch/|ATen/|c10/|core/engine/)"));
        QCOMPARE(sourcesIncluding(QStringLiteral("app"), engine), QStringList());
    }

    // Every source folder is built into targets of its own, and every source of a target lies
    // in the target's folder.
    void folderIsTarget() {
        const Layering l = layering();
        QVERIFY2(!l.targets.empty(), PROBAUDIT_LAYERING);
        for (const auto& [folder, includes] : folderIncludes()) {
            QVERIFY2(l.targets.count(folder) != 0,
                     qPrintable(folder + QStringLiteral(" has sources but no target (add it to "
                                                        "PROBAUDIT_FOLDER_TARGETS)")));
        }
        for (const auto& [folder, targets] : l.targets) {
            for (const QString& t : targets) {
                const auto it = l.sources.find(t);
                QVERIFY2(it != l.sources.end(), qPrintable(t + QStringLiteral(": no sources")));
                for (const QString& src : it->second) {
                    QVERIFY2(src.startsWith(folder + u'/'),
                             qPrintable(t + QStringLiteral(" (") + folder +
                                        QStringLiteral(") builds ") + src));
                }
            }
        }
    }

    // The folders' include graph has no cycle, and a folder includes only what one of its
    // targets links.
    void folderGraphFollowsLinks() {
        const auto graph = folderIncludes();
        std::set<QString> done;
        for (const auto& [folder, includes] : graph) {
            QStringList path;
            const QString cycle = cycleFrom(graph, folder, path, done);
            QVERIFY2(cycle.isEmpty(), qPrintable(QStringLiteral("folder cycle: ") + cycle));
        }
        const Layering l = layering();
        for (const auto& [folder, includes] : graph) {
            const auto mine = l.targets.find(folder);
            QVERIFY2(mine != l.targets.end(), qPrintable(folder));
            for (const QString& to : includes) {
                const auto theirs = l.targets.find(to);
                QVERIFY2(theirs != l.targets.end(), qPrintable(to));
                bool linked = false;
                for (const QString& a : mine->second) {
                    for (const QString& b : theirs->second) {
                        const auto links = l.links.find(a);
                        linked = linked || (links != l.links.end() && links->second.count(b));
                    }
                }
                QVERIFY2(linked, qPrintable(folder + QStringLiteral(" includes ") + to +
                                            QStringLiteral(" but links none of its targets")));
            }
        }
    }

    // Kinds (of runs, heads, events, environments...) are enums with one conversion each in
    // core/common/vocabulary.*; nothing else compares them as strings.
    void noStringComparesOfKinds() {
        const QRegularExpression compare(
            QStringLiteral("\\bkind\\s*[!=]=\\s*\"|\"\\s*[!=]=\\s*kind\\b|"
                           "value\\(\"(kind|event)\",\\s*\"\"\\)\\s*[!=]=|"
                           "\\[\"(kind|event)\"\\]\\s*[!=]=\\s*\"|"
                           "value\\(u\"(kind|event)\"\\)|"
                           "\\bkind\\s*[!=]=\\s*(QLatin1String|QStringLiteral)\\(\""));
        for (const char* dir : {"app", "ui", "core"}) {
            QStringList offenders = sourcesIncluding(QString::fromLatin1(dir), compare);
            offenders.removeIf([](const QString& p) {
                return p.contains(QLatin1String("/core/common/vocabulary."));
            });
            QCOMPARE(offenders, QStringList());
        }
    }

    // The config axes' enumerated values are enums (common/config_values.h): no code compares a
    // config field, or a config JSON's value, with a string.
    void noStringComparesOfConfigValues() {
        const QString axes = QStringLiteral(
            "(dtype|padding_side|pad_to|order|attention|kernels|gemm|prefix_cache|runner|"
            "cpu_capability)");
        const QRegularExpression compare(
            QStringLiteral("\\.%1\\s*[!=]=\\s*\"|value\\(\"%1\",[^)]*\\)\\s*[!=]=").arg(axes));
        for (const char* dir : {"app", "ui", "core"}) {
            QStringList offenders = sourcesIncluding(QString::fromLatin1(dir), compare);
            offenders.removeIf([](const QString& p) {
                return p.contains(QLatin1String("/core/common/run_config."));
            });
            QCOMPARE(offenders, QStringList());
        }
    }

    // An environment fingerprint's keys are read in one place (common/env_facts.cpp) besides
    // their writer (engine/env_fingerprint.cpp) and the fingerprint diff, which names paths.
    void fingerprintKeysReadInOnePlace() {
        const QRegularExpression key(
            QStringLiteral("\"(aten_capability|cuda_build|logical_cores|intra_op|invariant_cpu_isa|"
                           "onednn_version)\""));
        for (const char* dir : {"app", "ui", "core"}) {
            QStringList offenders = sourcesIncluding(QString::fromLatin1(dir), key);
            offenders.removeIf([](const QString& p) {
                return p.contains(QLatin1String("/core/common/env_facts.")) ||
                       p.contains(QLatin1String("/core/engine/env_fingerprint.")) ||
                       p.contains(QLatin1String("/core/analysis/fingerprint."));
            });
            QCOMPARE(offenders, QStringList());
        }
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
