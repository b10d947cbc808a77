#pragma once
// The review page's charts tab: the Δp histogram, the margin histogram (the near-tie view) and
// the scatter of p(ref) against p(cfg), for the comparison the page shows (ui/charts/charts.h
// builds them), and the flip rate per reference-margin bin of every config with its Wilson
// interval (ui/charts/neartiechart.h). Clicking a bar or a point asks the page to filter its
// items or open one.
#include "ui/models/itemsmodel.h"

#include <QWidget>

class QChartView;

namespace probaudit::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    void setComparison(const ReviewPtr& review, int row);
    QChartView* dpView() const { return m_dp; }
    QChartView* marginView() const { return m_margin; }
    QChartView* scatterView() const { return m_scatter; }
    QChartView* nearTieView() const { return m_nearTies; }
    // Distance to exact of the selected config and the reference; hidden without a float64 run.
    QChartView* exactView() const { return m_exact; }

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
    QChartView* m_nearTies = nullptr;
    QChartView* m_exact = nullptr;
};

} // namespace probaudit::ui
