#pragma once
// The report's building blocks (internal to ui/report): HTML for QTextDocument, a heading
// list for the contents, and charts and widgets rendered to images for print.
#include "core/analysis/review.h"

#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

class QChart;
class QWidget;

namespace probaudit::ui::reporting {

constexpr int kContentWidth = 680; // px at 96 dpi: A4 and Letter minus margins both hold it

QString esc(const std::string& s);
QString esc(const QString& s);
// A number that must not wrap inside a narrow table cell (a word joiner after the point).
QString nobreak(const QString& number);
QString shortText(const std::string& text, int n = 90);
// A chart rendered to an image at 3x for print (through a scene: a chart view that is never
// shown does not lay its chart out).
QImage renderChart(QChart* chart, int w, int h);
QImage renderWidget(QWidget* w, int width, int height);

struct Section {
    QString anchor, title;
};

class Html {
public:
    QString text;
    std::vector<Section> sections;
    void h1(const QString& anchor, const QString& title) {
        sections.push_back({anchor, title});
        text +=
            QStringLiteral("<h2 style=\"page-break-before: always\"><a name=\"%1\"></a>%2. %3</h2>")
                .arg(anchor)
                .arg(sections.size())
                .arg(esc(title));
    }
    void h2(const QString& title) { text += QStringLiteral("<h3>%1</h3>").arg(esc(title)); }
    void p(const QString& html) { text += QStringLiteral("<p>%1</p>").arg(html); }
    // A table with a header row; rows may be tinted, columns may have widths ("10%").
    void table(const QStringList& head, const std::vector<QStringList>& rows,
               const std::vector<QString>& rowColours = {}, const QStringList& widths = {});
    // A table whose cells are tinted one by one (a heatmap); `cellColours` parallels `rows`,
    // an empty colour leaves a cell white.
    void grid(const QStringList& head, const std::vector<QStringList>& rows,
              const std::vector<QStringList>& cellColours, const QStringList& widths = {});
};

// A config's row tint: flipped, numbers moved, bit-identical.
QString colourOf(const analysis::ReviewRow& row);
// Accuracy, decisions, bits: ✓ reproduces, ✗ does not (the table's header says which is which).
QString verdictText(const analysis::Verdict& v);

} // namespace probaudit::ui::reporting
