#include "ui/pages/causeview.h"

#include "ui/models/causemodels.h"
#include "ui/pages/tableviews.h"

#include "core/analysis/diagnosis.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace probaudit::ui {

CauseView::CauseView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("causeView"));
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("causeHeader"));
    m_header->setWordWrap(true);
    m_config = new QComboBox(this);
    m_config->setObjectName(QStringLiteral("causeConfig"));
    m_config->setToolTip(tr("The config whose difference from the reference is shown"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("causeSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gridModel = new CauseGridModel(this);
    m_itemsModel = new CauseItemsModel(this);
    m_grid = readOnlyTable(m_gridModel, this, QStringLiteral("causeGrid"));
    m_grid->setSelectionMode(QAbstractItemView::SingleSelection);
    m_grid->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_items = readOnlyTable(m_itemsModel, this, QStringLiteral("causeItems"));
    m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Cause lines wrap: each row as high as its line needs at the width it has.
    m_items->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_grid->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_cellCaption = new QLabel(this);
    m_cellCaption->setObjectName(QStringLiteral("causeCellCaption"));
    m_cellCaption->setWordWrap(true);

    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Config:"), this));
    pick->addWidget(m_config, 1);
    auto* v = new QVBoxLayout(this);
    v->addWidget(m_header);
    v->addLayout(pick);
    v->addWidget(m_summary);
    v->addWidget(m_grid, 2);
    v->addWidget(m_cellCaption);
    v->addWidget(m_items, 3);

    connect(m_config, &QComboBox::currentIndexChanged, this, [this] { configChosen(); });
    connect(m_grid, &QTableView::clicked, this, [this](const QModelIndex& i) { cellChosen(i); });
    connect(m_items, &QTableView::activated, this, [this](const QModelIndex& i) {
        Q_EMIT itemActivated(
            m_itemsModel->index(i.row(), 0).data(CauseItemsModel::ItemRole).toLongLong());
    });
}

void CauseView::setReview(const ReviewPtr& review) {
    m_itemsModel->setItems(nullptr, {}); // they point into the review being replaced
    m_review = review;
    m_gridModel->setReview(review);
    const QString before = m_config->currentText();
    {
        const QSignalBlocker quiet(m_config);
        m_config->clear();
        m_config->addItems(m_gridModel->configs());
        m_config->setCurrentIndex(std::max(0, m_config->findText(before)));
    }
    const analysis::Diagnosis* d = review && review->diagnosis ? &*review->diagnosis : nullptr;
    if (d == nullptr || d->causes.empty()) {
        m_header->setText(
            d == nullptr
                ? tr("No diagnosis is stored for this head yet. probaudit diagnose STUDY runs "
                     "the ladder; its fifth rung, cause, localises each config that differs "
                     "from the reference.")
                : tr("The stored diagnosis has no cause rung: no config differed from the "
                     "reference, or it was made before the rung existed (diagnose again)."));
    } else {
        m_header->setText(
            tr("Why each config differs from the reference \"%1\": B ran again with one operator "
               "class at a time computed as the reference computes it, in every layer, on its "
               "flips, then its largest Δp (up to %2 items). A cell is the mean share of Δp that "
               "class's splice removes over the row's items (darker: more), with the items it "
               "is the cause of; click a cell for its items, activate an item to inspect it.")
                .arg(QString::fromStdString(d->reference))
                .arg(d->cause_sample > 0 ? d->cause_sample : d->sample));
    }
    m_config->setEnabled(m_config->count() > 0);
    configChosen();
}

void CauseView::showConfig(const QString& config) {
    if (const int i = m_config->findText(config); i >= 0) {
        m_config->setCurrentIndex(i);
    }
}

void CauseView::selectCell(int row, int column) {
    const QModelIndex cell = m_gridModel->index(row, column);
    m_grid->setCurrentIndex(cell);
    cellChosen(cell);
}

void CauseView::configChosen() {
    m_gridModel->setConfig(m_config->currentText());
    const analysis::ConfigCause* c = m_gridModel->cause();
    if (c == nullptr) {
        m_summary->clear();
    } else if (!c->localization) {
        m_summary->setText(tr("Not localised: %1.").arg(QString::fromStdString(c->not_localised)));
    } else {
        m_summary->setText(QString::fromStdString(analysis::causeSummary(*c->localization)) +
                           QLatin1Char('.'));
    }
    // The flips (or the largest Δp) of the first row are the first thing to look at.
    if (m_gridModel->rowCount() > 0) {
        selectCell(0, CauseGridModel::WhereColumn);
    } else {
        m_itemsModel->setItems(nullptr, {});
        m_cellCaption->clear();
    }
}

void CauseView::cellChosen(const QModelIndex& cell) {
    const analysis::ConfigCause* c = m_gridModel->cause();
    if (c == nullptr || !c->localization || !cell.isValid()) {
        return;
    }
    const QString where =
        m_gridModel->index(cell.row(), CauseGridModel::WhereColumn).data().toString();
    const int col = cell.column();
    const QString what =
        col >= CauseGridModel::FirstClassColumn && col < CauseGridModel::SetColumn
            ? tr("Items complete by %1 whose cause is %2")
                  .arg(where, m_gridModel->headerData(col, Qt::Horizontal).toString())
        : col == CauseGridModel::SetColumn
            ? tr("Items complete by %1 that a set of classes explains").arg(where)
            : tr("Items complete by %1").arg(where);
    const auto items = m_gridModel->itemsOf(cell);
    m_cellCaption->setText(tr("%1: %n item(s)", nullptr, int(items.size())).arg(what));
    m_itemsModel->setItems(&*c->localization, items);
}

} // namespace probaudit::ui
