// probaudit-report: writes the PDF report of a ledger, or its audit bundle. Qt-based (the
// report's charts are the workbench's; bundles are zipped with QuaZip); `probaudit report` and
// `probaudit bundle` run it, so the engine CLI stays Qt-free.
//   probaudit-report LEDGER -o report.pdf [--head NAME] [--page-size a4|letter] [--lock FILE]
//   probaudit-report LEDGER --bundle -o audit.zip [--head NAME] [--lock FILE]
#include "common/build_info.h"
#include "ui/bundle.h"
#include "ui/report.h"
#include "ui/theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    // A report needs no screen: without a display, render offscreen.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
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
    const QCommandLineOption bundle(QStringLiteral("bundle"),
                                    QStringLiteral("Write the audit bundle (zip) instead of the "
                                                   "report."));
    const QCommandLineOption importOpt(QStringLiteral("import"),
                                       QStringLiteral("Check an audit bundle and merge its runs "
                                                      "into --into."),
                                       QStringLiteral("ZIP"));
    const QCommandLineOption into(QStringLiteral("into"), QStringLiteral("The target ledger."),
                                  QStringLiteral("LEDGER"));
    cli.addOptions({out, head, size, lock, bundle, importOpt, into});
    cli.addPositionalArgument(QStringLiteral("ledger"), QStringLiteral("The ledger."));
    cli.process(app);
    if (cli.isSet(importOpt)) {
        if (!cli.isSet(into)) {
            std::fprintf(stderr, "probaudit-report: --import ZIP needs --into LEDGER\n");
            return 2;
        }
        probaudit::ui::ImportResult r;
        QString error;
        if (!probaudit::ui::importBundle(cli.value(importOpt), cli.value(into), &r, &error)) {
            std::fprintf(stderr, "probaudit import: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("%s: %d runs imported, %d already there\n", qPrintable(cli.value(into)),
                    r.imported, r.already);
        return 0;
    }
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
        if (cli.isSet(bundle)) {
            probaudit::ui::BundleOptions b;
            b.output = cli.value(out);
            b.lockPath = cli.value(lock);
            QString error;
            if (!probaudit::ui::writeBundle(review, b, &error)) {
                std::fprintf(stderr, "probaudit-report: %s\n", qPrintable(error));
                return 1;
            }
            std::printf("%s (%.1f s)\n", qPrintable(cli.value(out)), double(t.elapsed()) / 1000.0);
            return 0;
        }
        probaudit::ui::ReportOptions o;
        o.output = cli.value(out);
        o.pageSize = QPageSize(sizeName == QLatin1String("a4") ? QPageSize::A4 : QPageSize::Letter);
        o.lockPath = cli.value(lock);
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
