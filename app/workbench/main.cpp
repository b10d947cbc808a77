// probaudit-workbench: the Qt GUI. It never loads libtorch; the engine runs as a child process.
//   probaudit-workbench [LEDGER_OR_STUDY] [--theme system|light|dark] [--lang CODE]
//   probaudit-workbench --screenshot-tour DIR LEDGER [--theme dark] [--lang ko]
//   probaudit-workbench --self-check   (offscreen unless -platform is given; ui/selfcheck.h)
#include "core/common/build_info.h"
#include "ui/charts/theme.h"
#include "ui/pages/language.h"
#include "ui/pages/mainwindow.h"
#include "ui/pages/screenshottour.h"
#include "ui/pages/selfcheck.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTextStream>

#include <cstring>

int main(int argc, char** argv) {
    // The self-check needs no display: offscreen, unless the caller chose a platform.
    bool selfCheck = false;
    bool platformGiven = qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
    for (int i = 1; i < argc; ++i) {
        selfCheck = selfCheck || std::strcmp(argv[i], "--self-check") == 0;
        platformGiven = platformGiven || std::strcmp(argv[i], "-platform") == 0;
    }
    if (selfCheck && !platformGiven) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ProbAudit"));
    QApplication::setApplicationName(QStringLiteral("ProbAudit Workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(probaudit::engineVersion()));

    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("ProbAudit Workbench: interactive review of a "
                                                 "study's ledger"));
    cli.addHelpOption();
    cli.addVersionOption();
    const QCommandLineOption tour(QStringLiteral("screenshot-tour"),
                                  QStringLiteral("Save a PNG of every view into DIR and exit "
                                                 "(the ledger is the positional argument)."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("Colour scheme: system, light or dark."),
                                   QStringLiteral("NAME"));
    const QCommandLineOption lang(QStringLiteral("lang"),
                                  QStringLiteral("Language: en, de or ko (default: the saved "
                                                 "choice, else the system's)."),
                                  QStringLiteral("CODE"));
    const QCommandLineOption check(QStringLiteral("self-check"),
                                   QStringLiteral("Check the installation (Qt plugins, icon, "
                                                  "translations, charts, the engine, the demo "
                                                  "studies), print a line per check and exit "
                                                  "with the number that failed."));
    cli.addOptions({tour, theme, lang, check});
    cli.addPositionalArgument(QStringLiteral("ledger"),
                              QStringLiteral("A ledger or a study file to open."));
    cli.process(app);

    const QString themeName = cli.isSet(theme)
                                  ? cli.value(theme)
                                  : QSettings().value(QStringLiteral("ui/theme")).toString();
    probaudit::ui::applyTheme(probaudit::ui::themeFromName(themeName));
    const QString language =
        probaudit::ui::installTranslations(app, cli.isSet(lang) ? cli.value(lang) : QString());

    if (cli.isSet(check)) {
        QTextStream out(stdout);
        return probaudit::ui::runSelfCheck(out);
    }

    const QStringList args = cli.positionalArguments();
    if (cli.isSet(tour)) {
        if (args.size() != 1) {
            std::fprintf(stderr, "probaudit-workbench: --screenshot-tour DIR needs one LEDGER\n");
            return 2;
        }
        const QString suffix = QStringLiteral("-") +
                               (themeName == QLatin1String("dark") ? QStringLiteral("dark")
                                                                   : QStringLiteral("light")) +
                               QStringLiteral("-") +
                               (language.isEmpty() ? QStringLiteral("en") : language.left(2));
        return probaudit::ui::runScreenshotTour(cli.value(tour), args.front(), suffix);
    }

    probaudit::ui::MainWindow window;
    window.show();
    if (!args.isEmpty()) {
        window.openStudyFile(args.front());
    }
    return QApplication::exec();
}
