#include "ui/models/colors.h"

#include "ui/models/dashboardmodel.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace probaudit::ui {

bool isDarkTheme() {
    const QPalette p = QGuiApplication::palette();
    return p.color(QPalette::Base).lightness() < p.color(QPalette::Text).lightness();
}

QColor tint(const QColor& hue, double strength) {
    const QColor base = QGuiApplication::palette().color(QPalette::Base);
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
        return QGuiApplication::palette().color(QPalette::Base);
    }
    // Any difference is visible at once: the scale starts at a light amber, not at white.
    const QColor amber(0xff, 0xd5, 0x4f), red(0xb7, 0x1c, 0x1c);
    const double t = 0.15 + 0.85 * v;
    const QColor lo = tint(amber, 0.55);
    return QColor::fromRgbF(float(lo.redF() * (1 - t) + red.redF() * t),
                            float(lo.greenF() * (1 - t) + red.greenF() * t),
                            float(lo.blueF() * (1 - t) + red.blueF() * t));
}

} // namespace probaudit::ui
