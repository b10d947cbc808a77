#pragma once
// The application's colour scheme: the system's (default), or forced light or dark (Fusion
// style with a matching palette). Stored in QSettings "ui/theme" by the View menu. The colours
// with a meaning (flips, changed, bit-identical) follow the palette: ui/models/colors.h.
#include "ui/models/colors.h"

#include <QString>

namespace probaudit::ui {

enum class ThemeChoice { System, Light, Dark };
void applyTheme(ThemeChoice choice);
ThemeChoice themeFromName(const QString& name); // "system", "light", "dark"

} // namespace probaudit::ui
