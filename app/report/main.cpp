// probaudit-report: the PDF writer. Writes the PDF report of a ledger with the workbench's
// charts (Qt Gui and Widgets); `probaudit report` runs it, and `probaudit bundle` runs it for
// the report it packs, so the CLI itself never links Qt Gui.
//   probaudit-report LEDGER -o report.pdf [--head NAME] [--page-size a4|letter] [--lock FILE]
//                    [--absolute-paths]
#include "core/common/build_info.h"
#include "ui/charts/theme.h"
#include "ui/report/report.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>

#include <cstdio>
#include <exception>

namespace {

// Qt's notes about the desktop session it runs in ("QStandardPaths: XDG_RUNTIME_DIR not set"):
// a PDF writer started from a terminal, a CI job or `probaudit bundle` needs no runtime folder,
// and a line about one in the command's output reads as a problem with the report. Every other
// message goes where Qt sends it.
QtMessageHandler g_qtDefault = nullptr;

void quietAboutTheSession(QtMsgType type, const QMessageLogContext& where, const QString& text) {
    if (type == QtWarningMsg && text.startsWith(QLatin1String("QStandardPaths: "))) {
        return;
    }
    g_qtDefault(type, where, text);
}

} // namespace

int main(int argc, char** argv) {
    // A report needs no screen: without a display, render offscreen.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    g_qtDefault = qInstallMessageHandler(quietAboutTheSession);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("probaudit-report"));
    QApplication::setApplicationVersion(QString::fromLatin1(probaudit::engineVersion()));
    // Print colours: always the light palette, whatever the desktop uses.
    probaudit::ui::applyTheme(probaudit::ui::ThemeChoice::Light);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Write the PDF report of a ProbAudit ledger."));
    cli.addHelpOption();
    cli.addVersionOption();
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("output")},
                                 QStringLiteral("The PDF file to write."), QStringLiteral("PDF"));
    const QCommandLineOption head(
        QStringLiteral("head"), QStringLiteral("The head variant (default: the first with runs)."),
        QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("page-size"), QStringLiteral("a4 or letter."),
                                  QStringLiteral("SIZE"), QStringLiteral("a4"));
    const QCommandLineOption lock(QStringLiteral("lock"),
                                  QStringLiteral("A runtime lock for the pin status (default: "
                                                 "runtime.lock.json beside the ledger or study)."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption absolute(
        QStringLiteral("absolute-paths"),
        QStringLiteral("Show the study's, ledger's, model's and dataset's paths as this machine "
                       "spells them (default: relative to the study's folder)."));
    cli.addOptions({out, head, size, lock, absolute});
    cli.addPositionalArgument(QStringLiteral("ledger"), QStringLiteral("The ledger."));
    cli.process(app);
    if (cli.positionalArguments().size() != 1 || !cli.isSet(out)) {
        std::fprintf(stderr, "probaudit-report: usage: probaudit-report LEDGER -o report.pdf\n");
        return 2;
    }
    const QString sizeName = cli.value(size).toLower();
    if (sizeName != QLatin1String("a4") && sizeName != QLatin1String("letter")) {
        std::fprintf(stderr, "probaudit-report: --page-size must be a4 or letter, not %s\n",
                     qPrintable(sizeName));
        return 2;
    }
    QElapsedTimer t;
    t.start();
    try {
        const auto review = probaudit::analysis::loadReview(
            cli.positionalArguments().front().toStdString(), cli.value(head).toStdString());
        probaudit::ui::ReportOptions o;
        o.output = cli.value(out);
        o.pageSize = QPageSize(sizeName == QLatin1String("a4") ? QPageSize::A4 : QPageSize::Letter);
        o.lockPath = cli.value(lock);
        o.absolutePaths = cli.isSet(absolute);
        QString error;
        if (!probaudit::ui::writeReport(review, o, &error)) {
            std::fprintf(stderr, "probaudit-report: %s\n", qPrintable(error));
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "probaudit-report: %s\n", e.what());
        return 1;
    }
    std::printf("%s (%.1f s)\n", qPrintable(cli.value(out)), double(t.elapsed()) / 1000.0);
    return 0;
}
