#include "ui/pages/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace probaudit::ui {

namespace {
const QString kTranslatorName = QStringLiteral("probauditTranslator");
}

QString installTranslations(QCoreApplication& app, const QString& language) {
    // Replace whatever an earlier call installed, so the language can change at run time.
    const auto old = app.findChildren<QTranslator*>(kTranslatorName, Qt::FindDirectChildrenOnly);
    for (QTranslator* t : old) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }

    QString chosen = language;
    if (chosen.isEmpty()) {
        chosen = QSettings().value(QStringLiteral("ui/language")).toString();
    }
    const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);

    auto* ours = new QTranslator(&app);
    ours->setObjectName(kTranslatorName);
    if (!ours->load(locale, QStringLiteral("probaudit"), QStringLiteral("_"),
                    QStringLiteral(":/i18n"))) {
        delete ours;
        return QString();
    }
    QCoreApplication::installTranslator(ours);
    // Qt's own strings (standard buttons, dialogs) in the same language, when installed.
    auto* qt = new QTranslator(&app);
    qt->setObjectName(kTranslatorName);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
    } else {
        delete qt;
    }
    return ours->language();
}

} // namespace probaudit::ui
