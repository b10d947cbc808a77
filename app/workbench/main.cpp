// probaudit-workbench: the Qt GUI. It never loads libtorch; the engine runs as a child process.
#include "common/build_info.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ProbAudit"));
    QApplication::setApplicationName(QStringLiteral("ProbAudit Workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(probaudit::engineVersion()));
    probaudit::ui::installTranslations(app);

    probaudit::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
