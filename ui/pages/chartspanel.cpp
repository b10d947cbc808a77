#include "ui/pages/chartspanel.h"

#include "ui/charts/charts.h"
#include "ui/charts/exactchart.h"
#include "ui/charts/neartiechart.h"
#include "ui/models/format.h"

#include <QChart>
#include <QChartView>
#include <QGridLayout>

namespace probaudit::ui {

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("chartsPanel"));
    m_dp = new QChartView(this);
    m_margin = new QChartView(this);
    m_scatter = new QChartView(this);
    m_nearTies = new QChartView(this);
    m_nearTies->setObjectName(QStringLiteral("nearTieRates"));
    m_exact = new QChartView(this);
    m_exact->setObjectName(QStringLiteral("distanceToExact"));
    m_exact->setVisible(false);
    m_dp->setObjectName(QStringLiteral("dpHistogram"));
    m_margin->setObjectName(QStringLiteral("marginHistogram"));
    m_scatter->setObjectName(QStringLiteral("scatter"));
    for (QChartView* v : {m_dp, m_margin, m_scatter, m_nearTies, m_exact}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumSize(320, 240);
    }
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 4, 0, 0);
    grid->addWidget(m_margin, 0, 0);
    grid->addWidget(m_nearTies, 0, 1);
    grid->addWidget(m_dp, 1, 0);
    grid->addWidget(m_scatter, 1, 1);
    grid->addWidget(m_exact, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
}

void ChartsPanel::setComparison(const ReviewPtr& review, int row) {
    m_review = review;
    m_row = row;
    m_dirty = true;
    if (isVisible()) {
        rebuild();
    }
}

void ChartsPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_dirty) {
        rebuild();
    }
}

void ChartsPanel::rebuild() {
    m_dirty = false;
    const ReviewPtr& review = m_review;
    const int row = m_row;
    const analysis::Comparison* c = nullptr;
    if (review && row >= 0 && std::size_t(row) < review->rows.size() &&
        review->rows[std::size_t(row)].cmp) {
        c = &*review->rows[std::size_t(row)].cmp;
    }
    auto replace = [](QChartView* v, QChart* chart) {
        QChart* old = v->chart();
        if (chart == nullptr) {
            chart = newChart();
        }
        styleChart(chart);
        v->setChart(chart);
        delete old;
    };
    const analysis::ReviewRow* r = c != nullptr ? &review->rows[std::size_t(row)] : nullptr;
    m_exact->setVisible(r != nullptr && r->exact && !r->reference);
    if (m_exact->isVisibleTo(this)) {
        replace(m_exact, makeExactChart(*r->exact, QString::fromStdString(review->reference_name),
                                        QString::fromStdString(r->config)));
    }
    if (c == nullptr) {
        for (QChartView* v : {m_dp, m_margin, m_scatter}) {
            replace(v, nullptr);
        }
        replace(m_nearTies, review ? makeNearTieChart(analysis::nearTies(*review)) : nullptr);
        return;
    }
    auto bar = [this](const QString& what, const ItemFilter& f) {
        Q_EMIT filterRequested(what, f);
    };
    auto point = [this](std::int64_t item) { Q_EMIT itemClicked(item); };
    const bool binary = classNames(*review).size() == 2;
    replace(m_dp, makeDpHistogram(*c, bar));
    replace(m_margin, makeMarginHistogram(*c, bar));
    replace(m_scatter, makeScatter(*c, binary ? 0.5 : -1, 4000, point));
    replace(m_nearTies, makeNearTieChart(analysis::nearTies(*review)));
}

} // namespace probaudit::ui
