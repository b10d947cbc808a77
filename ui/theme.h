#pragma once
// Colours with a meaning, readable in light and dark themes: each is a hue blended into the
// current palette's base colour, so a tinted row keeps the theme's text colour legible.
#include <QColor>
#include <QString>
#include <QVariant>

namespace probaudit {
namespace ui {

enum class Severity;

// The colour scheme: the system's (default), or forced light or dark (Fusion style with a
// matching palette). Stored in QSettings "ui/theme" by the View menu.
enum class ThemeChoice { System, Light, Dark };
void applyTheme(ThemeChoice choice);
ThemeChoice themeFromName(const QString& name); // "system", "light", "dark"

bool isDarkTheme();
// Row tints: flipped (red), numbers moved (amber), bit-identical (green); none for not run.
QVariant severityBackground(Severity s);
QColor flipColor();                              // flipped decisions: red
QColor changedColor();                           // probability moved, no flip: amber
QColor unchangedColor();                         // bit-identical: green
QColor nearBoundaryColor();                      // small margin: a tint for the margin cell
QColor tint(const QColor& hue, double strength); // hue blended into the base colour
// The heatmap's scale: 0 -> base colour, 1 -> deep red, through amber.
QColor heatColor(double value01);

} // namespace ui
} // namespace probaudit
