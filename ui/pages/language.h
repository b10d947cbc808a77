#pragma once
// Loads the workbench translation for the chosen language (QSettings "ui/language") or, when
// none is chosen, for the system's UI languages. English needs no translation file.
#include <QString>

class QCoreApplication;

namespace probaudit::ui {

// Installs the translators on the application; returns the language loaded ("" for English).
QString installTranslations(QCoreApplication& app, const QString& language = QString());

} // namespace probaudit::ui
