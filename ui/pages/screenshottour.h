#pragma once
// `probaudit-workbench --screenshot-tour DIR LEDGER`: opens the ledger and saves a PNG of every
// view (dashboard and items, charts, layer heatmap, diagnosis, runs, the inspector on the most
// telling item, a filtered items table, the presentation's slides, the New Study form, the
// config editor, the engine-runs panel, the empty state, About; for a generation study its
// page, gap histogram and presentation) into DIR. The file names end
// in the theme and language, e.g. 03-layers-dark-ko.png. Returns a process exit code.
#include <QString>

namespace probaudit::ui {

int runScreenshotTour(const QString& dir, const QString& ledger, const QString& suffix);

} // namespace probaudit::ui
