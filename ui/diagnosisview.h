#pragma once
// The diagnosis view: the ladder of the first field report as a flowchart of suspects, each
// with its verdict and evidence (loader and repeatability → neighbour interference → shape →
// kernels and runtime), then the probe table, the kernel-trace differences of the probes, the
// study's configs explained by the suspects they differ in, and the fragility forecast against
// what the full runs observed. Reads the diagnosis stored by `probaudit diagnose`.
#include "ui/reviewloader.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace probaudit {
namespace ui {

class LadderChart : public QWidget {
    Q_OBJECT
public:
    explicit LadderChart(QWidget* parent = nullptr);
    void setLadder(const std::vector<analysis::LadderStep>& ladder,
                   const std::optional<std::string>& stoppedAt);
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    struct Box {
        QString title, finding, verdict, status;
    };
    int layout(int width, std::vector<QRect>* rects) const;
    std::vector<Box> m_boxes;
};

class DiagnosisView : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosisView(QWidget* parent = nullptr);
    void setReview(const ReviewPtr& review);
    QTableWidget* kernelTable() const { return m_kernels; }
    QTableWidget* forecastTable() const { return m_forecast; }
    LadderChart* ladder() const { return m_ladder; }

private:
    ReviewPtr m_review;
    QLabel* m_header = nullptr;
    LadderChart* m_ladder = nullptr;
    QTableWidget* m_probes = nullptr;
    QTableWidget* m_kernels = nullptr;
    QTableWidget* m_configs = nullptr;
    QTableWidget* m_forecast = nullptr;
    QWidget* m_body = nullptr;
};

} // namespace ui
} // namespace probaudit
