#pragma once
// `probaudit-workbench --self-check`: what an installed workbench needs, checked from where it
// runs (installer/, and the package test). One line per check on stdout ("ok", "FAIL" or
// "note"), the number of failed checks as the result:
//   - the Qt platform plugin (offscreen unless -platform says otherwise), Qt Charts rendering;
//   - the embedded icon renders (the SVG image plugin is present) and the embedded German and
//     Korean translations load and translate;
//   - the main window builds and renders;
//   - the engine next to the workbench starts and answers `env --json` the way the workbench
//     asks it (EngineClient), and the PDF report writer is beside it;
//   - the demo study definitions are found and valid (models that are not fetched yet are a
//     note, not a failure: they are fetched by a documented command, never bundled).
#include <QString>

class QTextStream;

namespace probaudit::ui {

// The demo study folder: share/probaudit/demo/studies in an installed tree, else
// resources/demo/studies of the source tree the build came from; "" when neither exists.
QString demoStudiesDir();

int runSelfCheck(QTextStream& out);

} // namespace probaudit::ui
