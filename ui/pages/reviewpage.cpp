#include "ui/pages/reviewpage.h"

#include "ui/charts/heatmapwidget.h"
#include "ui/models/colors.h"
#include "ui/models/dashboardmodel.h"
#include "ui/models/format.h"
#include "ui/models/runsmodel.h"
#include "ui/models/sweepmodel.h"
#include "ui/models/variantsmodel.h"
#include "ui/pages/causeview.h"
#include "ui/pages/chartspanel.h"
#include "ui/pages/diagnosisview.h"
#include "ui/pages/inspector.h"
#include "ui/pages/itemstable.h"
#include "ui/pages/verdictstrip.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace probaudit::ui {

namespace {

// The verdict column: three badges, accuracy / decisions / bits, green when that level
// reproduces, red when it does not.
class VerdictDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static QStringList names() {
        return {ReviewPage::tr("accuracy"), ReviewPage::tr("decisions"), ReviewPage::tr("bits")};
    }

    void paint(QPainter* p, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        QStyledItemDelegate::paint(p, option, index);
        const QVariantList v = index.data(DashboardModel::VerdictRole).toList();
        if (v.size() != 3) {
            return;
        }
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        QFont f = option.font;
        f.setPointSizeF(f.pointSizeF() * 0.9);
        f.setBold(true);
        p->setFont(f);
        const QFontMetrics fm(f);
        int x = option.rect.left() + 4;
        const QStringList labels = names();
        for (int k = 0; k < 3; ++k) {
            const bool ok = v[k].toBool();
            const QString text = (ok ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + labels[k];
            const int w = fm.horizontalAdvance(text) + 12;
            const QRect r(x, option.rect.center().y() - fm.height() / 2 - 2, w, fm.height() + 4);
            QPainterPath path;
            path.addRoundedRect(r, 4, 4);
            const QColor c = ok ? unchangedColor() : flipColor();
            p->fillPath(path, c);
            p->setPen(Qt::white);
            p->drawText(r, Qt::AlignCenter, text);
            x += w + 4;
        }
        p->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QFont f = option.font;
        f.setPointSizeF(f.pointSizeF() * 0.9);
        f.setBold(true);
        const QFontMetrics fm(f);
        int w = 8;
        for (const QString& n : names()) {
            w += fm.horizontalAdvance(QStringLiteral("✓ ") + n) + 16;
        }
        return {w,
                std::max(QStyledItemDelegate::sizeHint(option, index).height(), fm.height() + 10)};
    }
};

} // namespace

ReviewPage::ReviewPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("reviewPage"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("reviewTitle"));
    QFont tf = m_title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.25);
    m_title->setFont(tf);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_head = new QComboBox(this);
    m_head->setObjectName(QStringLiteral("headSelector"));
    m_head->setToolTip(tr("The head variant under review"));
    m_comparing = new QLabel(this);
    m_comparing->setObjectName(QStringLiteral("comparingLabel"));
    m_comparing->setWordWrap(true);
    m_verdict = new VerdictStrip(this);

    createDashboard();

    m_items = new ItemsTable(this);
    m_charts = new ChartsPanel(this);
    QWidget* layersTab = createLayersTab();
    m_diagnosis = new DiagnosisView(this);
    m_cause = new CauseView(this);
    QWidget* runs = createRunsView();
    QWidget* variants = createVariantsView();

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("reviewTabs"));
    m_tabs->addTab(m_items, tr("&Items"));
    m_tabs->addTab(m_charts, tr("C&harts"));
    m_tabs->addTab(layersTab, tr("&Layers"));
    m_tabs->addTab(m_diagnosis, tr("Dia&gnosis"));
    m_tabs->addTab(m_cause, tr("&Cause"));
    m_tabs->addTab(runs, tr("R&uns"));
    m_tabs->addTab(variants, tr("Va&riants"));
    m_tabs->setTabVisible(VariantsTab, false);

    m_inspector = new Inspector(this);
    auto* inspectorScroll = new QScrollArea(this);
    inspectorScroll->setObjectName(QStringLiteral("inspectorScroll"));
    inspectorScroll->setWidget(m_inspector);
    inspectorScroll->setWidgetResizable(true);
    inspectorScroll->setMinimumWidth(420);

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_tabs);
    bottom->addWidget(inspectorScroll);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({900, 560});
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_dashboard);
    m_split->addWidget(bottom);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);

    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(new QLabel(tr("Head:"), this));
    top->addWidget(m_head);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_verdict);
    layout->addWidget(m_comparing);
    layout->addWidget(m_split, 1);

    connectViews();
}

void ReviewPage::createDashboard() {
    m_dashboardModel = new DashboardModel(this);
    m_dashboard = new QTableView(this);
    m_dashboard->setObjectName(QStringLiteral("dashboardView"));
    m_dashboard->setModel(m_dashboardModel);
    m_dashboard->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_dashboard->setSelectionMode(QAbstractItemView::SingleSelection);
    m_dashboard->verticalHeader()->hide();
    m_dashboard->setItemDelegateForColumn(DashboardModel::VerdictColumn,
                                          new VerdictDelegate(m_dashboard));
    m_dashboard->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_dashboard->horizontalHeader()->setStretchLastSection(true);
    m_dashboard->setWordWrap(false);
    m_dashboard->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
}

// The per-layer heatmap with its row and colour choices; many rows (items) scroll inside the
// tab instead of stretching the window.
QWidget* ReviewPage::createLayersTab() {
    auto* layersTab = new QWidget(this);
    m_heatmap = new HeatmapWidget(layersTab);
    m_heatMeasure = new QComboBox(layersTab);
    m_heatMeasure->setObjectName(QStringLiteral("heatmapMeasure"));
    m_heatMeasure->addItem(tr("Share of items bitwise different"));
    m_heatMeasure->addItem(tr("Relative L2 of the decision-token vector (median)"));
    m_heatRows = new QComboBox(layersTab);
    m_heatRows->setObjectName(QStringLiteral("heatmapRows"));
    m_heatRows->addItem(tr("Configs"));
    m_heatRows->addItem(tr("Items of the selected config (the 40 most moved)"));
    auto* lv = new QVBoxLayout(layersTab);
    auto* lh = new QHBoxLayout;
    lh->addWidget(new QLabel(tr("Rows:"), layersTab));
    lh->addWidget(m_heatRows);
    lh->addWidget(new QLabel(tr("Colour:"), layersTab));
    lh->addWidget(m_heatMeasure);
    lh->addStretch(1);
    lv->addLayout(lh);
    auto* heatScroll = new QScrollArea(layersTab);
    heatScroll->setWidget(m_heatmap);
    heatScroll->setWidgetResizable(true);
    heatScroll->setFrameShape(QFrame::NoFrame);
    lv->addWidget(heatScroll, 1);
    return layersTab;
}

QWidget* ReviewPage::createRunsView() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    m_runsModel = new RunsModel(this);
    auto* runs = new QTableView(tab);
    runs->setObjectName(QStringLiteral("runsView"));
    runs->setModel(m_runsModel);
    runs->verticalHeader()->hide();
    runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    runs->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    runs->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(runs, 3);
    layout->addWidget(createSweepBox(tab), 1);
    return tab;
}

// A study with model variants: each variant against the reference variant under the same
// runtime settings, and the runtime noise floor it is judged against.
QWidget* ReviewPage::createVariantsView() {
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    m_variantsFloor = new QLabel(tab);
    m_variantsFloor->setObjectName(QStringLiteral("variantsFloor"));
    m_variantsFloor->setWordWrap(true);
    m_variantsFloor->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_variantsModel = new VariantsModel(this);
    m_variantsView = new QTableView(tab);
    m_variantsView->setObjectName(QStringLiteral("variantsView"));
    m_variantsView->setModel(m_variantsModel);
    m_variantsView->verticalHeader()->hide();
    m_variantsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_variantsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_variantsView->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_variantsFloor);
    layout->addWidget(m_variantsView, 1);
    return tab;
}

// The study's sweep (probaudit sweep), when it has one: its shards' states, merged or not.
QWidget* ReviewPage::createSweepBox(QWidget* parent) {
    m_sweepBox = new QGroupBox(tr("Sweep: the study's shards on the cluster"), parent);
    m_sweepBox->setObjectName(QStringLiteral("sweepBox"));
    auto* layout = new QVBoxLayout(m_sweepBox);
    m_sweepSummary = new QLabel(m_sweepBox);
    m_sweepSummary->setObjectName(QStringLiteral("sweepSummary"));
    m_sweepSummary->setWordWrap(true);
    auto* refresh = new QPushButton(tr("Refresh"), m_sweepBox);
    auto* top = new QHBoxLayout;
    top->addWidget(m_sweepSummary, 1);
    top->addWidget(refresh);
    layout->addLayout(top);
    m_sweepModel = new SweepModel(this);
    auto* shards = new QTableView(m_sweepBox);
    shards->setObjectName(QStringLiteral("sweepView"));
    shards->setModel(m_sweepModel);
    shards->verticalHeader()->hide();
    shards->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    shards->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(shards);
    m_sweepBox->hide();
    connect(m_sweepModel, &SweepModel::loaded, this, [this] {
        m_sweepBox->setVisible(m_sweepModel->snapshot().found);
        m_sweepSummary->setText(m_sweepModel->summary());
    });
    connect(refresh, &QPushButton::clicked, this, [this] {
        if (m_review) {
            m_sweepModel->load(QString::fromStdString(m_review->study_path));
        }
    });
    return m_sweepBox;
}

void ReviewPage::connectViews() {
    connect(m_dashboard, &QTableView::clicked, this, &ReviewPage::onDashboardClicked);
    connect(m_dashboard, &QTableView::activated, this, &ReviewPage::onDashboardClicked);
    connect(m_items, &ItemsTable::currentItemChanged, m_inspector, &Inspector::setItem);
    connect(m_charts, &ChartsPanel::filterRequested, this, &ReviewPage::showFilter);
    connect(m_charts, &ChartsPanel::itemClicked, this, &ReviewPage::inspectItem);
    connect(m_cause, &CauseView::itemActivated, this, &ReviewPage::inspectItem);
    // A check the policy did not pass: its config compared, its items listed.
    connect(m_verdict, &VerdictStrip::checkClicked, this,
            [this](const QString& config, const std::vector<std::int64_t>& items,
                   const QString& description) {
                for (std::size_t r = 0; m_review && r < m_review->rows.size(); ++r) {
                    if (QString::fromStdString(m_review->rows[r].config) == config) {
                        setComparisonRow(int(r));
                    }
                }
                ItemFilter f;
                f.items = items;
                showFilter(description, f);
            });
    connect(m_heatmap, &HeatmapWidget::cellClicked, this, [this](int row, int layer) {
        setComparisonRow(row);
        ItemFilter f;
        f.layerDiffers = layer;
        showFilter(tr("%1 differs").arg(formatLayer(layer)), f);
    });
    connect(m_heatRows, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i == 0) {
            m_heatmap->showConfigs();
        } else {
            m_heatmap->showItems(m_row);
        }
    });
    connect(m_heatmap, &HeatmapWidget::itemClicked, this, &ReviewPage::inspectItem);
    connect(m_heatMeasure, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_heatmap->setMeasure(i == 0 ? HeatmapWidget::Measure::BitwiseShare
                                     : HeatmapWidget::Measure::RelativeL2);
    });
    connect(m_head, &QComboBox::activated, this, [this](int) {
        if (m_review && m_head->currentText().toStdString() != m_review->head) {
            Q_EMIT headChangeRequested(m_head->currentText());
        }
    });
}

void ReviewPage::setReview(const ReviewPtr& review) {
    m_review = review;
    m_row = -1;
    m_title->setText(review ? tr("%1 — %2").arg(QString::fromStdString(review->facts.name),
                                                QString::fromStdString(review->path))
                            : QString());
    {
        const QSignalBlocker block(m_head);
        m_head->clear();
        if (review) {
            for (const auto& h : review->heads) {
                m_head->addItem(QString::fromStdString(h));
            }
            m_head->setCurrentText(QString::fromStdString(review->head));
        }
        m_head->setEnabled(m_head->count() > 1);
    }
    m_dashboardModel->setReview(review);
    m_dashboard->resizeColumnsToContents();
    // The dashboard shows every row without scrolling (up to 12).
    const int rows = std::min(12, m_dashboardModel->rowCount());
    m_dashboard->setMinimumHeight(m_dashboard->horizontalHeader()->sizeHint().height() +
                                  rows * m_dashboard->verticalHeader()->defaultSectionSize() + 4);
    m_dashboard->setMaximumHeight(m_dashboard->minimumHeight() + 2);
    m_heatmap->setReview(review);
    m_diagnosis->setReview(review);
    m_cause->setReview(review);
    m_runsModel->setReview(review);
    m_variantsModel->setReview(review);
    m_variantsFloor->setText(m_variantsModel->floorText());
    m_tabs->setTabVisible(VariantsTab, review && review->variants);
    m_sweepModel->load(QString::fromStdString(review->study_path));
    m_inspector->setReview(review);
    m_verdict->setReview(review);
    setComparisonRow(worstRow());
}

int ReviewPage::worstRow() const {
    if (!m_review) {
        return -1;
    }
    int best = -1;
    std::tuple<std::int64_t, double, double> bestKey{-1, -1, -1};
    for (std::size_t r = 0; r < m_review->rows.size(); ++r) {
        const auto& row = m_review->rows[r];
        if (!row.cmp || row.reference) {
            continue;
        }
        const std::tuple<std::int64_t, double, double> key{row.cmp->flips, row.cmp->max_dp,
                                                           1 - row.cmp->bit_identical_share};
        if (key > bestKey) {
            bestKey = key;
            best = int(r);
        }
    }
    if (best < 0 && !m_review->rows.empty()) {
        best = 0;
    }
    return best;
}

void ReviewPage::setComparisonRow(int row) {
    m_row = row;
    if (row >= 0 && row < m_dashboardModel->rowCount()) {
        m_dashboard->selectionModel()->setCurrentIndex(m_dashboardModel->index(row, 0),
                                                       QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    }
    const analysis::ReviewRow* rr = m_review && row >= 0 && std::size_t(row) < m_review->rows.size()
                                        ? &m_review->rows[std::size_t(row)]
                                        : nullptr;
    if (rr != nullptr) {
        m_cause->showConfig(QString::fromStdString(rr->config)); // when it has a cause
    }
    if (rr == nullptr) {
        m_comparing->setText(tr("Nothing to compare yet: the ledger has no finished run."));
    } else if (!rr->cmp) {
        m_comparing->setText(
            m_review->reference_run
                ? tr("Config %1 has no finished run yet.").arg(QString::fromStdString(rr->config))
                : tr("The reference config %1 has no finished run, so nothing can be compared.")
                      .arg(QString::fromStdString(m_review->reference_name)));
    } else {
        m_comparing->setText(
            tr("Comparing the reference config \"%1\" (run %2) with \"%3\" (run %4): %5")
                .arg(QString::fromStdString(m_review->reference_name))
                .arg(m_review->reference_run->id)
                .arg(QString::fromStdString(rr->config))
                .arg(rr->run->id)
                .arg(formatVerdict(rr->cmp->verdict.accuracy, rr->cmp->verdict.decisions,
                                   rr->cmp->verdict.probabilities)));
    }
    m_items->setComparison(m_review, row);
    m_charts->setComparison(m_review, row);
    if (m_heatmap->showsItems()) {
        m_heatmap->showItems(row);
    }
    Q_EMIT comparisonChanged(row);
}

void ReviewPage::onDashboardClicked(const QModelIndex& index) {
    if (index.isValid() && index.row() != m_row) {
        setComparisonRow(index.row());
    }
}

void ReviewPage::showFilter(const QString& description, const ItemFilter& filter) {
    m_items->setExternalFilter(description, filter);
    showTab(ItemsTab);
}

void ReviewPage::showTab(Tab tab) {
    if (!m_tabs->isTabVisible(int(tab))) {
        return; // the Variants tab of a study of one model
    }
    m_tabs->setCurrentIndex(int(tab));
}

void ReviewPage::inspectItem(std::int64_t item) {
    m_items->selectItem(item);
    m_inspector->setItem(item);
}

} // namespace probaudit::ui
