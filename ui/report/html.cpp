#include "ui/report/html.h"

#include "ui/charts/charts.h"

#include <QChart>
#include <QGraphicsScene>
#include <QPainter>
#include <QWidget>

namespace probaudit::ui::reporting {

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

// A number that must not wrap inside a narrow table cell (a word joiner after the point).
QString nobreak(const QString& number) {
    QString out = number;
    out.replace(QStringLiteral("."), QStringLiteral(".\u2060"));
    return out;
}

QString shortText(const std::string& text, int n) {
    QString t = QString::fromStdString(text).simplified();
    return t.size() > n ? t.left(n - 1) + QStringLiteral("…") : t;
}

// A chart rendered to an image at 3x for print (through a scene: a chart view that is never
// shown does not lay its chart out).
QImage renderChart(QChart* chart, int w, int h) {
    styleChart(chart, 0.9);
    chart->setBackgroundBrush(Qt::white);
    QGraphicsScene scene;
    scene.addItem(chart); // the scene owns the chart now
    chart->setGeometry(0, 0, w, h);
    QImage img(w * 3, h * 3, QImage::Format_ARGB32);
    img.setDevicePixelRatio(3);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene.render(&p, QRectF(0, 0, w, h), QRectF(0, 0, w, h));
    return img;
}

QImage renderWidget(QWidget* w, int width, int height) {
    w->resize(width, height);
    QImage img(width * 3, height * 3, QImage::Format_ARGB32);
    img.setDevicePixelRatio(3);
    img.fill(Qt::white);
    QPainter p(&img);
    w->render(&p);
    return img;
}

void Html::table(const QStringList& head, const std::vector<QStringList>& rows,
                 const std::vector<QString>& rowColours, const QStringList& widths) {
    text += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                           "width=\"100%\" style=\"border-collapse: collapse\"><tr>");
    for (int k = 0; k < head.size(); ++k) {
        const QString w = k < widths.size() && !widths[k].isEmpty()
                              ? QStringLiteral(" width=\"%1\"").arg(widths[k])
                              : QString();
        text += QStringLiteral("<th bgcolor=\"#e8e8e8\" align=\"left\"%1>%2</th>").arg(w, head[k]);
    }
    text += QStringLiteral("</tr>");
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const QString bg = r < rowColours.size() && !rowColours[r].isEmpty()
                               ? QStringLiteral(" bgcolor=\"%1\"").arg(rowColours[r])
                               : QString();
        text += QStringLiteral("<tr%1>").arg(bg);
        for (const QString& c : rows[r]) {
            text += QStringLiteral("<td>%1</td>").arg(c);
        }
        text += QStringLiteral("</tr>");
    }
    text += QStringLiteral("</table>");
}

QString colourOf(const analysis::ReviewRow& row) {
    if (!row.cmp) {
        return {};
    }
    if (row.cmp->flips > 0) {
        return QStringLiteral("#f6d5d5");
    }
    return row.cmp->verdict.probabilities ? QStringLiteral("#dcefdc") : QStringLiteral("#fbeacd");
}

// Accuracy, decisions, bits: ✓ reproduces, ✗ does not (the table's header says which is which).
QString verdictText(const analysis::Verdict& v) {
    auto mark = [](bool ok) {
        return ok ? QStringLiteral("<font color=\"#2e7d32\">✓</font>")
                  : QStringLiteral("<font color=\"#c62828\"><b>✗</b></font>");
    };
    return QStringLiteral("%1 %2 %3")
        .arg(mark(v.accuracy), mark(v.decisions), mark(v.probabilities));
}

void Html::grid(const QStringList& head, const std::vector<QStringList>& rows,
                const std::vector<QStringList>& cellColours, const QStringList& widths) {
    text += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                           "width=\"100%\" style=\"border-collapse: collapse\"><tr>");
    for (int k = 0; k < head.size(); ++k) {
        const QString w = k < widths.size() && !widths[k].isEmpty()
                              ? QStringLiteral(" width=\"%1\"").arg(widths[k])
                              : QString();
        text += QStringLiteral("<th bgcolor=\"#e8e8e8\" align=\"left\" style=\"font-size: "
                               "6.5pt\"%1>%2</th>")
                    .arg(w, head[k]);
    }
    text += QStringLiteral("</tr>");
    for (std::size_t r = 0; r < rows.size(); ++r) {
        text += QStringLiteral("<tr>");
        for (int k = 0; k < rows[r].size(); ++k) {
            const QString colour =
                r < cellColours.size() && k < cellColours[r].size() ? cellColours[r][k] : QString();
            text += QStringLiteral("<td%1>%2</td>")
                        .arg(colour.isEmpty() ? QString()
                                              : QStringLiteral(" bgcolor=\"%1\"").arg(colour),
                             rows[r][k]);
        }
        text += QStringLiteral("</tr>");
    }
    text += QStringLiteral("</table>");
}

} // namespace probaudit::ui::reporting
