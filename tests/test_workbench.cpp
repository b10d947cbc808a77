// The workbench offscreen: empty state, About box with the engine's fingerprint (from the real
// engine child process), pin badge; screenshots saved to build/screenshots.
#include "private_settings.h"
#include "ui/pages/aboutdialog.h"
#include "ui/pages/emptystatepage.h"
#include "ui/pages/engineclient.h"
#include "ui/pages/language.h"
#include "ui/pages/mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace probaudit::ui;

namespace {
void saveScreenshot(QWidget* w, const QString& name) {
    QDir().mkpath(QStringLiteral(PROBAUDIT_SCREENSHOT_DIR));
    const QString path = QStringLiteral(PROBAUDIT_SCREENSHOT_DIR "/") + name;
    QVERIFY2(w->grab().save(path), qPrintable(path));
}
} // namespace

class TestWorkbench : public QObject {
    Q_OBJECT
    probaudit::testing::PrivateSettings m_settings;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ProbAuditTest"));
        QVERIFY(m_settings.active());
    }

    void emptyStateAndAbout() {
        MainWindow window;
        QSignalSpy ready(window.engine(), &EngineClient::fingerprintReady);
        QSignalSpy failed(window.engine(), &EngineClient::failed);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        auto* pages = window.findChild<QStackedWidget*>(QStringLiteral("pages"));
        QVERIFY(pages);
        QCOMPARE(pages->currentWidget()->objectName(), QStringLiteral("emptyStatePage"));
        auto* openStudy = window.findChild<QPushButton*>(QStringLiteral("openStudyButton"));
        auto* openDemo = window.findChild<QPushButton*>(QStringLiteral("openDemoButton"));
        QVERIFY(openStudy && openDemo);
        QCOMPARE(openStudy->text(), QStringLiteral("Open a Study…"));
        QCOMPARE(openDemo->text(), QStringLiteral("Open the Demo Study"));
        QVERIFY(openStudy->isVisible() && openDemo->isVisible());
        auto* badge = window.findChild<QLabel*>(QStringLiteral("pinBadge"));
        QVERIFY(badge);
        QCOMPARE(badge->text(), QStringLiteral("Runtime: not pinned"));

        // The engine answers through the child process: libtorch reaches the GUI as data only.
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        QCOMPARE(failed.count(), 0);
        const QString torchVersion =
            window.fingerprint()[u"torch"].toObject()[u"version"].toString();
        QVERIFY(!torchVersion.isEmpty());
        auto* engineLabel = window.findChild<QLabel*>(QStringLiteral("engineLabel"));
        QVERIFY(engineLabel->text().contains(QStringLiteral("libtorch ") + torchVersion));
        // The status bar makes room for the whole engine summary (no clipped text).
        QTRY_VERIFY(engineLabel->width() >= engineLabel->sizeHint().width());
        auto* blurb = window.findChild<QLabel*>(QStringLiteral("emptyStateText"));
        QVERIFY(blurb->height() >= blurb->heightForWidth(blurb->width()));
        saveScreenshot(&window, QStringLiteral("workbench-empty-state.png"));

        AboutDialog* about = window.showAbout();
        QVERIFY(QTest::qWaitForWindowExposed(about));
        const QString text = about->text();
        QVERIFY2(text.contains(QStringLiteral("ProbAudit " PROBAUDIT_VERSION_FOR_TEST)),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("libtorch ") + torchVersion));
        QVERIFY(text.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        QVERIFY(text.contains(QStringLiteral("CC BY 4.0")));
        saveScreenshot(about, QStringLiteral("workbench-about.png"));
        about->close();
    }

    // Without an engine the window still opens and says why the engine is missing.
    void missingEngineIsReported() {
        qputenv("PROBAUDIT_ENGINE", "/nonexistent/probaudit");
        MainWindow window;
        qunsetenv("PROBAUDIT_ENGINE");
        window.show();
        auto* engineLabel = window.findChild<QLabel*>(QStringLiteral("engineLabel"));
        QTRY_COMPARE(engineLabel->text(), QStringLiteral("Engine: not available"));
        QVERIFY(engineLabel->toolTip().contains(QStringLiteral("/nonexistent/probaudit")));
        AboutDialog* about = window.showAbout();
        QVERIFY(about->text().contains(QStringLiteral("not available")));
        about->close();
    }

    // Every user-visible string is translated: lupdate over the sources finds nothing new and
    // nothing unfinished in the committed German and Korean files.
    void translationsAreComplete() {
        QTemporaryDir dir;
        QStringList copies;
        for (const QString& lang : {QStringLiteral("de"), QStringLiteral("ko")}) {
            const QString src =
                QStringLiteral(PROBAUDIT_SOURCE_DIR "/translations/probaudit_%1.ts").arg(lang);
            const QString dst = dir.filePath(QFileInfo(src).fileName());
            QVERIFY(QFile::copy(src, dst));
            QFile(dst).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
            copies << dst;
        }
        QProcess p;
        p.setWorkingDirectory(QStringLiteral(PROBAUDIT_SOURCE_DIR));
        const QString lupdate = QFileInfo::exists(QStringLiteral("/usr/lib/qt6/bin/lupdate"))
                                    ? QStringLiteral("/usr/lib/qt6/bin/lupdate")
                                    : QStringLiteral("lupdate");
        p.start(lupdate, QStringList{QStringLiteral("-I"), QStringLiteral("."),
                                     QStringLiteral("ui"), QStringLiteral("app/workbench"),
                                     QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                                     QStringLiteral("none"), QStringLiteral("-ts")} +
                             copies);
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(out.count(QStringLiteral("(0 new and")), 2);
        for (const QString& ts : copies) {
            QFile f(ts);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            QVERIFY2(!text.contains("type=\"unfinished\""),
                     qPrintable(ts + QStringLiteral(": ") + out));
        }
    }

    // The embedded translations load and reach the widgets (the .ts contexts must match the
    // runtime class names, namespaces included), and English comes back afterwards.
    void translations_data() {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("title");
        QTest::newRow("de") << QStringLiteral("de") << QStringLiteral("Keine Studie geöffnet");
        QTest::newRow("ko") << QStringLiteral("ko") << QStringLiteral("열린 스터디가 없습니다");
    }
    void translations() {
        QFETCH(QString, language);
        QFETCH(QString, title);
        QVERIFY(installTranslations(*qApp, language).startsWith(language));
        {
            EmptyStatePage page;
            QCOMPARE(page.findChild<QLabel*>(QStringLiteral("emptyStateTitle"))->text(), title);
            page.resize(900, 500);
            saveScreenshot(&page, QStringLiteral("workbench-empty-state-%1.png").arg(language));
        }
        installTranslations(*qApp, QStringLiteral("en"));
        EmptyStatePage english;
        QCOMPARE(english.findChild<QLabel*>(QStringLiteral("emptyStateTitle"))->text(),
                 QStringLiteral("No study is open"));
    }
};

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"
