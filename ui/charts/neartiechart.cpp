#include "ui/charts/neartiechart.h"

#include "ui/charts/charts.h"
#include "ui/models/colors.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace probaudit::ui {

namespace {

QString edgeText(double v) {
    if (v >= 1e30) {
        return QStringLiteral("∞");
    }
    if (v > 0 && v < 0.01) {
        return QStringLiteral("1e%1").arg(int(std::lround(std::log10(v))));
    }
    return QString::number(v, 'g', 3);
}

// Distinct hues that stay apart for colour-blind readers (Okabe and Ito), grey last.
QColor seriesColour(std::size_t k) {
    static const QColor hues[] = {QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x72, 0xB2),
                                  QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                  QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
                                  QColor(0xF0, 0xE4, 0x42), QColor(0x88, 0x88, 0x88)};
    return hues[k % (sizeof hues / sizeof hues[0])];
}

// What is drawn: each config that flipped on its own; the configs that did not, as one series
// (every config is compared on the same items, so their intervals are the same).
struct Drawn {
    QString name;
    const analysis::NearTieRow* row = nullptr;
};

std::vector<Drawn> drawn(const std::vector<analysis::NearTieRow>& rows) {
    std::vector<Drawn> out;
    const analysis::NearTieRow* calm = nullptr;
    int calmCount = 0;
    for (const auto& r : rows) {
        if (r.flips > 0) {
            out.push_back({QCoreApplication::translate("Charts", "%1 (%2 flips)")
                               .arg(QString::fromStdString(r.config))
                               .arg(r.flips),
                           &r});
        } else {
            calm = calm ? calm : &r;
            ++calmCount;
        }
    }
    if (calm != nullptr) {
        out.push_back(
            {calmCount == 1
                 ? QCoreApplication::translate("Charts", "%1 (no flip)")
                       .arg(QString::fromStdString(calm->config))
                 : QCoreApplication::translate("Charts", "%1 configs, no flip").arg(calmCount),
             calm});
    }
    return out;
}

} // namespace

QChart* makeNearTieChart(const std::vector<analysis::NearTieRow>& rows) {
    auto* chart = newChart();
    chart->setTitle(QCoreApplication::translate(
        "Charts", "Flip rate by the reference's margin, with Wilson 95% intervals"));
    if (rows.empty()) {
        return chart;
    }
    // The bins with items (the same in every row: every config is compared on the same items).
    std::vector<std::size_t> bins;
    for (std::size_t i = 0; i < rows.front().bins.size(); ++i) {
        if (rows.front().bins[i].items > 0) {
            bins.push_back(i);
        }
    }
    auto* x = new QCategoryAxis;
    x->setStartValue(-0.5);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    for (std::size_t k = 0; k < bins.size(); ++k) {
        const auto& b = rows.front().bins[bins[k]];
        x->append(QStringLiteral("%1–%2\n(%3)").arg(edgeText(b.low), edgeText(b.high)).arg(b.items),
                  double(k) + 0.5);
    }
    x->setRange(-0.5, double(bins.size()) - 0.5);
    x->setTitleText(QCoreApplication::translate(
        "Charts", "|margin| in the reference run (logits), items per bin in brackets"));
    auto* y = new QValueAxis;
    y->setTitleText(QCoreApplication::translate("Charts", "flip rate (%)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const auto shown = drawn(rows);
    double top = 0;
    const double width = 0.7; // of a bin, shared by the configs side by side
    for (std::size_t s = 0; s < shown.size(); ++s) {
        const analysis::NearTieRow& r = *shown[s].row;
        const bool calm = r.flips == 0;
        const double offset =
            shown.size() == 1 ? 0 : -width / 2 + width * double(s) / double(shown.size() - 1);
        auto* points = new QScatterSeries;
        const QColor colour = calm ? QColor(0x88, 0x88, 0x88) : seriesColour(s);
        points->setName(shown[s].name);
        points->setColor(colour);
        points->setBorderColor(colour);
        points->setMarkerSize(9);
        chart->addSeries(points);
        points->attachAxis(x);
        points->attachAxis(y);
        for (std::size_t k = 0; k < bins.size(); ++k) {
            const auto& b = r.bins[bins[k]];
            const double at = double(k) + offset;
            points->append(at, 100 * b.rate.estimate);
            auto* whisker = new QLineSeries;
            QPen pen(colour);
            pen.setWidthF(1.6);
            whisker->setPen(pen);
            whisker->append(at, 100 * b.rate.low);
            whisker->append(at, 100 * b.rate.high);
            chart->addSeries(whisker);
            whisker->attachAxis(x);
            whisker->attachAxis(y);
            for (auto* m : chart->legend()->markers(whisker)) {
                m->setVisible(false);
            }
            top = std::max(top, 100 * b.rate.high);
        }
    }
    y->setRange(0, std::min(100.0, std::max(1.0, top * 1.08)));
    y->applyNiceNumbers();
    chart->legend()->setAlignment(Qt::AlignTop);
    return chart;
}

} // namespace probaudit::ui
