#pragma once
// The diagnosis view: the ladder of the first field report as a flowchart of suspects, each
// with its verdict and evidence (loader and repeatability → neighbour interference → shape →
// kernels and runtime), then the probe table, the kernel-trace differences of the probes, the
// study's configs explained by the suspects they differ in, and the fragility forecast against
// what the full runs observed. Reads the typed diagnosis stored by `probaudit diagnose` through
// one model per table (ui/models/diagnosismodels.h).
#include "ui/models/reviewloader.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace probaudit::ui {

class ConfigExplanationModel;
class ForecastModel;
class KernelDiffModel;
class ProbeTableModel;

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
    QTableView* probeTable() const { return m_probes; }
    QTableView* kernelTable() const { return m_kernels; }
    QTableView* configTable() const { return m_configs; }
    QTableView* forecastTable() const { return m_forecast; }
    LadderChart* ladder() const { return m_ladder; }

private:
    ReviewPtr m_review;
    QLabel* m_header = nullptr;
    LadderChart* m_ladder = nullptr;
    ProbeTableModel* m_probeModel = nullptr;
    KernelDiffModel* m_kernelModel = nullptr;
    ConfigExplanationModel* m_configModel = nullptr;
    ForecastModel* m_forecastModel = nullptr;
    QTableView* m_probes = nullptr;
    QTableView* m_kernels = nullptr;
    QTableView* m_configs = nullptr;
    QTableView* m_forecast = nullptr;
    QWidget* m_body = nullptr;
};

} // namespace probaudit::ui
