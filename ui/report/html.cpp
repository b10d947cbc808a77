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

namespace {

// A table's opening and its header row; `headStyle` goes into every <th>.
QString tableHead(const QStringList& head, const QStringList& widths, const QString& headStyle) {
    QString t = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                               "width=\"100%\" style=\"border-collapse: collapse\"><tr>");
    for (int k = 0; k < head.size(); ++k) {
        const QString w = k < widths.size() && !widths[k].isEmpty()
                              ? QStringLiteral(" width=\"%1\"").arg(widths[k])
                              : QString();
        t += QStringLiteral("<th bgcolor=\"#e8e8e8\" align=\"left\"%1%2>%3</th>")
                 .arg(headStyle, w, head[k]);
    }
    return t + QStringLiteral("</tr>");
}

QString bgcolor(const QString& colour) {
    return colour.isEmpty() ? QString() : QStringLiteral(" bgcolor=\"%1\"").arg(colour);
}

} // namespace

void Html::table(const QStringList& head, const std::vector<QStringList>& rows,
                 const std::vector<QString>& rowColours, const QStringList& widths) {
    text += tableHead(head, widths, QString());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        text += QStringLiteral("<tr%1>").arg(r < rowColours.size() ? bgcolor(rowColours[r])
                                                                   : QString());
        for (const QString& c : rows[r]) {
            text += QStringLiteral("<td>%1</td>").arg(c);
        }
        text += QStringLiteral("</tr>");
    }
    text += QStringLiteral("</table>");
}

void Html::grid(const QStringList& head, const std::vector<QStringList>& rows,
                const std::vector<QStringList>& cellColours, const QStringList& widths) {
    text += tableHead(head, widths, QStringLiteral(" style=\"font-size: 6.5pt\""));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        text += QStringLiteral("<tr>");
        for (int k = 0; k < rows[r].size(); ++k) {
            const bool tinted = r < cellColours.size() && k < cellColours[r].size();
            text += QStringLiteral("<td%1>%2</td>")
                        .arg(tinted ? bgcolor(cellColours[r][k]) : QString(), rows[r][k]);
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

} // namespace probaudit::ui::reporting
