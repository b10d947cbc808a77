#pragma once
// Colours with a meaning, readable in light and dark themes: each is a hue blended into the
// application palette's base colour, so a tinted row keeps the theme's text colour legible.
// Qt Gui only (the palette), so that models can tint their rows; the theme itself (style and
// palette of the application) is ui/charts/theme.h.
#include <QColor>
#include <QVariant>

namespace probaudit::ui {

enum class Severity;

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

} // namespace probaudit::ui
