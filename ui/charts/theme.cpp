#include "ui/charts/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

namespace probaudit::ui {

ThemeChoice themeFromName(const QString& name) {
    if (name == QLatin1String("light")) {
        return ThemeChoice::Light;
    }
    if (name == QLatin1String("dark")) {
        return ThemeChoice::Dark;
    }
    return ThemeChoice::System;
}

void applyTheme(ThemeChoice choice) {
    static const QPalette systemPalette = QApplication::palette();
    static const QString systemStyle =
        QApplication::style() != nullptr ? QApplication::style()->name() : QString();
    if (choice == ThemeChoice::System) {
        QApplication::setStyle(systemStyle);
        QApplication::setPalette(systemPalette);
        return;
    }
    QApplication::setStyle(QStringLiteral("Fusion"));
    if (choice == ThemeChoice::Light) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x70, 0x72, 0x78));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4c));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa6, 0xff));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(p);
}

} // namespace probaudit::ui
