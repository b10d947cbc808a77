#pragma once
// The comparison charts, built by one set of functions for the workbench and the report:
// the Δp histogram; the margin histogram with unchanged, changed and flipped items stacked per
// bin (the near-tie view); the scatter of p(ref) against p(cfg) with flips marked and the
// threshold lines. Clicking a bar or a point filters the items table (ChartsPanel signals).
#include "ui/itemsmodel.h"
#include "ui/reviewloader.h"

#include <QWidget>

#include <functional>

class QChart;
class QChartView;

namespace probaudit {
namespace ui {

// A click on a bar: a description of the selection and the filter it means.
using BarClick = std::function<void(const QString& description, const ItemFilter& filter)>;
using PointClick = std::function<void(std::int64_t item)>;

QChart* makeDpHistogram(const analysis::Comparison& c, const BarClick& onClick = {});
QChart* makeMarginHistogram(const analysis::Comparison& c, const BarClick& onClick = {});
// At most `maxPoints` items of each kind (Δp = 0, Δp > 0, flipped) are drawn, evenly chosen;
// the legend says how many of how many. `threshold`: the decision threshold line (binary heads),
// negative for none.
QChart* makeScatter(const analysis::Comparison& c, double threshold, int maxPoints = 3000,
                    const PointClick& onClick = {});
// A chart in the light or dark theme of the application (create charts with it: a theme set
// after the series are added would override their meaning-carrying colours).
QChart* newChart();
// Applies the application's background and font (scaled) to a chart.
void styleChart(QChart* chart, double fontScale = 1.0);

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    void setComparison(const ReviewPtr& review, int row);
    QChartView* dpView() const { return m_dp; }
    QChartView* marginView() const { return m_margin; }
    QChartView* scatterView() const { return m_scatter; }

protected:
    // The charts are built when the panel is first shown after a change (a 100,000-item
    // comparison costs a few hundred milliseconds to chart; the dashboard must not wait).
    void showEvent(QShowEvent* e) override;

Q_SIGNALS:
    void filterRequested(const QString& description, const probaudit::ui::ItemFilter& filter);
    void itemClicked(std::int64_t item);

private:
    void rebuild();

    ReviewPtr m_review;
    int m_row = -1;
    bool m_dirty = false;
    QChartView* m_dp = nullptr;
    QChartView* m_margin = nullptr;
    QChartView* m_scatter = nullptr;
};

} // namespace ui
} // namespace probaudit
