#include "ui/theme.h"

#include "ui/dashboardmodel.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

#include <algorithm>

namespace probaudit {
namespace ui {

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

bool isDarkTheme() {
    const QPalette p = QApplication::palette();
    return p.color(QPalette::Base).lightness() < p.color(QPalette::Text).lightness();
}

QColor tint(const QColor& hue, double strength) {
    const QColor base = QApplication::palette().color(QPalette::Base);
    const double s = std::clamp(strength, 0.0, 1.0);
    return QColor::fromRgbF(float(base.redF() * (1 - s) + hue.redF() * s),
                            float(base.greenF() * (1 - s) + hue.greenF() * s),
                            float(base.blueF() * (1 - s) + hue.blueF() * s));
}

QColor flipColor() {
    return isDarkTheme() ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
}
QColor changedColor() {
    return isDarkTheme() ? QColor(0xff, 0xb7, 0x4d) : QColor(0xe6, 0x8a, 0x00);
}
QColor unchangedColor() {
    return isDarkTheme() ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
}
QColor nearBoundaryColor() {
    return isDarkTheme() ? QColor(0xba, 0x68, 0xc8) : QColor(0x8e, 0x24, 0xaa);
}

QVariant severityBackground(Severity s) {
    switch (s) {
    case Severity::Flips:
        return tint(flipColor(), 0.22);
    case Severity::Numbers:
        return tint(changedColor(), 0.18);
    case Severity::BitIdentical:
        return tint(unchangedColor(), 0.14);
    case Severity::NotRun:
        break;
    }
    return {};
}

QColor heatColor(double v) {
    v = std::clamp(v, 0.0, 1.0);
    if (v == 0) {
        return QApplication::palette().color(QPalette::Base);
    }
    // Any difference is visible at once: the scale starts at a light amber, not at white.
    const QColor amber(0xff, 0xd5, 0x4f), red(0xb7, 0x1c, 0x1c);
    const double t = 0.15 + 0.85 * v;
    const QColor lo = tint(amber, 0.55);
    return QColor::fromRgbF(float(lo.redF() * (1 - t) + red.redF() * t),
                            float(lo.greenF() * (1 - t) + red.greenF() * t),
                            float(lo.blueF() * (1 - t) + red.blueF() * t));
}

} // namespace ui
} // namespace probaudit
