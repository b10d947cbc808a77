#pragma once
// The review of one ledger: the dashboard (one row per config against the reference) on top;
// below it the items table, the charts, the per-layer heatmap, the diagnosis and the runs, in
// tabs; the item inspector on the right. Clicking a dashboard row sets the comparison every
// other view shows.
#include "ui/models/reviewloader.h"

#include <QWidget>

class QComboBox;
class QGroupBox;
class QLabel;
class QTabWidget;
class QTableView;
class QSplitter;

namespace probaudit::ui {

class ChartsPanel;
class DashboardModel;
class CauseView;
class DiagnosisView;
class HeatmapWidget;
class SweepModel;
class Inspector;
class VerdictStrip;
class ItemsTable;
class RunsModel;
class VariantsModel;
struct ItemFilter;

class ReviewPage : public QWidget {
    Q_OBJECT
public:
    enum Tab { ItemsTab, ChartsTab, LayersTab, DiagnosisTab, CauseTab, RunsTab, VariantsTab };

    explicit ReviewPage(QWidget* parent = nullptr);

    void setReview(const ReviewPtr& review);
    const ReviewPtr& review() const { return m_review; }
    // The dashboard row every view compares against the reference.
    void setComparisonRow(int row);
    int comparisonRow() const { return m_row; }
    void showTab(Tab tab);
    void inspectItem(std::int64_t item);
    // The row with the most flips, else the largest Δp (what an auditor looks at first).
    int worstRow() const;

    QTableView* dashboardView() const { return m_dashboard; }
    DashboardModel* dashboardModel() const { return m_dashboardModel; }
    ItemsTable* itemsTable() const { return m_items; }
    ChartsPanel* charts() const { return m_charts; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    DiagnosisView* diagnosis() const { return m_diagnosis; }
    CauseView* cause() const { return m_cause; }
    Inspector* inspector() const { return m_inspector; }
    VerdictStrip* verdict() const { return m_verdict; }
    QTabWidget* tabs() const { return m_tabs; }
    VariantsModel* variantsModel() const { return m_variantsModel; }

Q_SIGNALS:
    void headChangeRequested(const QString& head);
    void comparisonChanged(int row);

private:
    void createDashboard();
    QWidget* createLayersTab();
    QWidget* createRunsView();
    QWidget* createVariantsView();
    QWidget* createSweepBox(QWidget* parent);
    void connectViews();
    void onDashboardClicked(const QModelIndex& index);
    void showFilter(const QString& description, const ItemFilter& filter);

    ReviewPtr m_review;
    int m_row = -1;
    QLabel* m_title = nullptr;
    QLabel* m_comparing = nullptr;
    VerdictStrip* m_verdict = nullptr;
    QComboBox* m_head = nullptr;
    QTableView* m_dashboard = nullptr;
    DashboardModel* m_dashboardModel = nullptr;
    QTabWidget* m_tabs = nullptr;
    ItemsTable* m_items = nullptr;
    ChartsPanel* m_charts = nullptr;
    HeatmapWidget* m_heatmap = nullptr;
    QComboBox* m_heatMeasure = nullptr;
    QComboBox* m_heatRows = nullptr;
    DiagnosisView* m_diagnosis = nullptr;
    CauseView* m_cause = nullptr;
    RunsModel* m_runsModel = nullptr;
    VariantsModel* m_variantsModel = nullptr;
    QTableView* m_variantsView = nullptr;
    QLabel* m_variantsFloor = nullptr;
    SweepModel* m_sweepModel = nullptr;
    QGroupBox* m_sweepBox = nullptr;
    QLabel* m_sweepSummary = nullptr;
    Inspector* m_inspector = nullptr;
    QSplitter* m_split = nullptr;
};

} // namespace probaudit::ui
