#include "ui/pages/selfcheck.h"

#include "core/common/error.h"
#include "core/study/study.h"
#include "ui/pages/aboutdialog.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/mainwindow.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QJsonObject>
#include <QLineSeries>
#include <QLocale>
#include <QSet>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <sstream>

namespace probaudit::ui {

namespace {

class Checks {
public:
    explicit Checks(QTextStream& out) : m_out(out) {}
    void ok(const QString& what, const QString& detail) {
        line(QStringLiteral("ok  "), what, detail);
    }
    void fail(const QString& what, const QString& detail) {
        ++m_failures;
        line(QStringLiteral("FAIL"), what, detail);
    }
    void note(const QString& what, const QString& detail) {
        line(QStringLiteral("note"), what, detail);
    }
    void check(bool good, const QString& what, const QString& detail) {
        good ? ok(what, detail) : fail(what, detail);
    }
    int failures() const { return m_failures; }

private:
    void line(const QString& tag, const QString& what, const QString& detail) {
        m_out << tag << QStringLiteral("  ") << what << QStringLiteral(": ") << detail << Qt::endl;
    }
    QTextStream& m_out;
    int m_failures = 0;
};

// Distinct colours in an image, sampled on a grid: a blank render has one.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    const int step = qMax(1, qMin(image.width(), image.height()) / 64);
    for (int y = 0; y < image.height(); y += step) {
        for (int x = 0; x < image.width(); x += step) {
            colours.insert(image.pixel(x, y));
        }
    }
    return int(colours.size());
}

void checkIcon(Checks& c) {
    const QImage icon = QIcon(QStringLiteral(":/icons/probaudit.svg")).pixmap(64, 64).toImage();
    int opaque = 0;
    for (int y = 0; y < icon.height(); ++y) {
        for (int x = 0; x < icon.width(); ++x) {
            opaque += qAlpha(icon.pixel(x, y)) > 0 ? 1 : 0;
        }
    }
    c.check(!icon.isNull() && opaque > 64 * 64 / 8, QStringLiteral("icon"),
            icon.isNull() ? QStringLiteral("the SVG icon does not render (no SVG image plugin?)")
                          : QStringLiteral("%1 of 4096 pixels drawn at 64x64").arg(opaque));
}

void checkTranslations(Checks& c) {
    for (const QString& lang : {QStringLiteral("de"), QStringLiteral("ko")}) {
        QTranslator t;
        const bool loaded = t.load(QLocale(lang), QStringLiteral("probaudit"), QStringLiteral("_"),
                                   QStringLiteral(":/i18n"));
        const QString file = t.translate("probaudit::ui::MainWindow", "&File");
        c.check(loaded && !file.isEmpty() && file != QStringLiteral("&File"),
                QStringLiteral("translation %1").arg(lang),
                loaded ? QStringLiteral("\"&File\" -> \"%1\"").arg(file)
                       : QStringLiteral("not embedded"));
    }
}

void checkChart(Checks& c) {
    auto* series = new QLineSeries;
    for (int i = 0; i < 10; ++i) {
        series->append(i, (i * 7) % 5);
    }
    auto* chart = new QChart;
    chart->addSeries(series);
    chart->createDefaultAxes();
    QChartView view(chart);
    view.resize(320, 200);
    const QImage image = view.grab().toImage();
    const int colours = distinctColours(image);
    c.check(colours > 2, QStringLiteral("charts"),
            QStringLiteral("a line chart renders with %1 colours").arg(colours));
}

void checkMainWindow(Checks& c) {
    MainWindow window;
    window.resize(1100, 700);
    window.show();
    QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    const int colours = distinctColours(image);
    c.check(
        image.width() >= 1100 && colours > 2, QStringLiteral("main window"),
        QStringLiteral("%1x%2, %3 colours").arg(image.width()).arg(image.height()).arg(colours));
}

void checkEngine(Checks& c) {
    const QString path = EngineClient::enginePath();
    EngineClient engine;
    QEventLoop loop;
    QJsonObject fingerprint;
    QString error;
    QObject::connect(&engine, &EngineClient::fingerprintReady, &loop, [&](const QJsonObject& f) {
        fingerprint = f;
        loop.quit();
    });
    QObject::connect(&engine, &EngineClient::failed, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    QTimer::singleShot(180000, &loop, [&] {
        error = QStringLiteral("no answer in 180 s");
        loop.quit();
    });
    engine.requestFingerprint();
    if (error.isEmpty()) {
        loop.exec();
    }
    const EnvFingerprint f = readFingerprint(fingerprint);
    const QString torchVersion = QString::fromStdString(f.torch.version.value_or(""));
    c.check(error.isEmpty() && !torchVersion.isEmpty(), QStringLiteral("engine"),
            error.isEmpty() ? QStringLiteral("%1 answers env --json: torch %2, %3 logical cores")
                                  .arg(QDir::toNativeSeparators(path), torchVersion)
                                  .arg(f.cpu.logical_cores.value_or(0))
                            : error);
    const QString report = QFileInfo(path).dir().filePath(QStringLiteral("probaudit-report"));
    c.check(QFileInfo(report).isExecutable(), QStringLiteral("report writer"),
            QDir::toNativeSeparators(report));
}

void checkDemoStudies(Checks& c) {
    const QString dir = demoStudiesDir();
    const QStringList files = dir.isEmpty() ? QStringList()
                                            : QDir(dir).entryList({QStringLiteral("*.study.json")},
                                                                  QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        c.fail(QStringLiteral("demo studies"), QStringLiteral("no *.study.json found"));
        return;
    }
    for (const QString& name : files) {
        const QString path = QDir(dir).filePath(name);
        QStringList problems;
        QStringList missing;
        try {
            study::Study::load(path.toStdString());
        } catch (const Error& e) {
            std::istringstream lines(e.what());
            for (std::string l; std::getline(lines, l);) {
                const QString line = QString::fromStdString(l).trimmed();
                if (!line.startsWith(QStringLiteral("$."))) {
                    continue; // the header: "FILE: N problems in the study:"
                }
                // Models, model variants (demo E writes them) and the demo adapter are fetched
                // or made after installing.
                const bool notFetched =
                    line.contains(QStringLiteral(": no such file or folder: ")) &&
                    (line.startsWith(QStringLiteral("$.model.path")) ||
                     line.startsWith(QStringLiteral("$.models.")) ||
                     line.startsWith(QStringLiteral("$.heads.")));
                (notFetched ? missing : problems) << line;
            }
        }
        c.check(problems.isEmpty(), QStringLiteral("demo study %1").arg(name),
                problems.isEmpty() ? QDir::toNativeSeparators(path)
                                   : problems.join(QStringLiteral("; ")));
        for (const QString& m : missing) {
            c.note(QStringLiteral("demo study %1").arg(name),
                   QStringLiteral("not fetched or made yet: %1")
                       .arg(m.section(QStringLiteral(": "), -1)));
        }
    }
}

} // namespace

QString demoStudiesDir() {
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& rel : {QStringLiteral("../share/probaudit/demo/studies"),
                               QStringLiteral("../../../resources/demo/studies")}) {
        if (QFileInfo(bin.filePath(rel)).isDir()) {
            return QDir::cleanPath(bin.filePath(rel));
        }
    }
    return {};
}

int runSelfCheck(QTextStream& out) {
    Checks c(out);
    c.check(!QGuiApplication::platformName().isEmpty(), QStringLiteral("Qt"),
            QStringLiteral("%1, platform %2")
                .arg(QString::fromLatin1(qVersion()), QGuiApplication::platformName()));
    checkIcon(c);
    checkTranslations(c);
    checkChart(c);
    checkMainWindow(c);
    checkEngine(c);
    checkDemoStudies(c);
    out << (c.failures() == 0 ? QStringLiteral("self-check passed")
                              : QStringLiteral("self-check: %1 failed").arg(c.failures()))
        << Qt::endl;
    return c.failures();
}

} // namespace probaudit::ui
