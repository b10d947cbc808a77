#include "ui/pages/itemstable.h"

#include "ui/models/format.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace probaudit::ui {

ItemsTable::ItemsTable(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("itemsTable"));
    m_model = new ItemsModel(this);

    QHBoxLayout* bar = createFilterBar();

    m_searchDelay = new QTimer(this);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(150);

    createView();

    auto* copy = new QAction(tr("Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ItemsTable::copySelection);
    m_view->addAction(copy);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connectFilters();
}

// The filter bar: flips, changed, Δp and margin thresholds, label, search, the chart's chip.
QHBoxLayout* ItemsTable::createFilterBar() {
    m_flips = new QCheckBox(tr("&Flipped only"), this);
    m_flips->setObjectName(QStringLiteral("flipsOnly"));
    m_changed = new QCheckBox(tr("C&hanged only"), this);
    m_changed->setObjectName(QStringLiteral("changedOnly"));
    m_changed->setToolTip(tr("Items that are not bit-identical to the reference run."));
    m_dpAbove = new QDoubleSpinBox(this);
    m_dpAbove->setObjectName(QStringLiteral("dpAbove"));
    m_dpAbove->setRange(-0.001, 100);
    m_dpAbove->setDecimals(3);
    m_dpAbove->setSingleStep(0.1);
    m_dpAbove->setValue(-0.001);
    m_dpAbove->setSpecialValueText(tr("any Δp"));
    m_dpAbove->setPrefix(tr("Δp > "));
    m_dpAbove->setToolTip(tr("Only items whose Δp (points) is above this value."));
    m_marginBelow = new QDoubleSpinBox(this);
    m_marginBelow->setObjectName(QStringLiteral("marginBelow"));
    m_marginBelow->setRange(0, 1000);
    m_marginBelow->setDecimals(3);
    m_marginBelow->setSingleStep(0.1);
    m_marginBelow->setSpecialValueText(tr("any margin"));
    m_marginBelow->setPrefix(tr("|margin| < "));
    m_marginBelow->setToolTip(tr("Only items whose reference margin (logit gap) is below this "
                                 "value: the near-boundary items."));
    m_label = new QComboBox(this);
    m_label->setObjectName(QStringLiteral("labelFilter"));
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("searchText"));
    m_search->setPlaceholderText(tr("Search text or id"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(160);
    m_chip = new QToolButton(this);
    m_chip->setObjectName(QStringLiteral("chartFilterChip"));
    m_chip->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_chip->setAutoRaise(false);
    m_chip->setToolTip(tr("A filter set from a chart or the heatmap; click to remove it."));
    m_chip->hide();
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("itemsCount"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_flips);
    bar->addWidget(m_changed);
    bar->addWidget(m_dpAbove);
    bar->addWidget(m_marginBelow);
    bar->addWidget(m_label);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_chip);
    bar->addWidget(m_count);
    return bar;
}

// The table: sorted by Δp, fixed row height, columns wide enough for their numbers and titles.
void ItemsTable::createView() {
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("itemsView"));
    m_view->setModel(m_model);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ItemsModel::DpColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    QHeaderView* h = m_view->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(ItemsModel::TextColumn, QHeaderView::Stretch);
    const int digit = m_view->fontMetrics().horizontalAdvance(QStringLiteral("0"));
    m_view->setColumnWidth(ItemsModel::IdColumn, 11 * digit);
    for (int c :
         {int(ItemsModel::LabelColumn), int(ItemsModel::PRefColumn), int(ItemsModel::PCfgColumn),
          int(ItemsModel::DpColumn), int(ItemsModel::MarginColumn)}) {
        m_view->setColumnWidth(c, 8 * digit);
    }
    m_view->setColumnWidth(ItemsModel::FlipColumn, 19 * digit);
    // Every header readable: at least as wide as its title.
    const QFontMetrics hfm(h->font());
    for (int c = 0; c < ItemsModel::NUM_COLUMNS; ++c) {
        if (c != ItemsModel::TextColumn) {
            const int title =
                hfm.horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString());
            m_view->setColumnWidth(c, std::max(m_view->columnWidth(c), title + 2 * digit));
        }
    }
}

void ItemsTable::connectFilters() {
    connect(m_flips, &QCheckBox::toggled, this, &ItemsTable::applyFilter);
    connect(m_changed, &QCheckBox::toggled, this, &ItemsTable::applyFilter);
    connect(m_dpAbove, &QDoubleSpinBox::valueChanged, this, &ItemsTable::applyFilter);
    connect(m_marginBelow, &QDoubleSpinBox::valueChanged, this, &ItemsTable::applyFilter);
    connect(m_label, &QComboBox::currentIndexChanged, this, &ItemsTable::applyFilter);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &ItemsTable::applyFilter);
    connect(m_chip, &QToolButton::clicked, this, &ItemsTable::clearExternalFilter);
    connect(m_model, &ItemsModel::countsChanged, this, &ItemsTable::updateCount);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                Q_EMIT currentItemChanged(m_model->itemAt(current.row()));
            });
}

void ItemsTable::setComparison(const ReviewPtr& review, int row) {
    const ReviewPtr before = m_model->review();
    if (review != before) {
        const QSignalBlocker block(m_label);
        m_label->clear();
        m_label->addItem(tr("any label"), QVariant());
        if (review) {
            int k = 0;
            for (const QString& label : classNames(*review)) {
                m_label->addItem(tr("label: %1").arg(label), k++);
            }
            m_label->addItem(tr("unlabelled"), -1);
        }
    }
    m_model->setComparison(review, row);
    // The distance-to-exact column only where the study has a float64 run.
    m_view->setColumnHidden(ItemsModel::ExactColumn, !review || review->exact_config.empty());
}

void ItemsTable::applyFilter() {
    ItemFilter f = m_external;
    f.flipsOnly = f.flipsOnly || m_flips->isChecked();
    f.changedOnly = f.changedOnly || m_changed->isChecked();
    if (m_dpAbove->value() >= 0) {
        f.dpAbove = m_dpAbove->value();
    }
    if (m_marginBelow->value() > 0) {
        f.marginBelow = m_marginBelow->value();
    }
    if (m_label->currentData().isValid()) {
        f.label = m_label->currentData().toInt();
    }
    f.text = m_search->text().trimmed();
    m_model->setFilter(f);
}

void ItemsTable::setExternalFilter(const QString& description, const ItemFilter& part) {
    m_external = part;
    m_chip->setText(tr("%1  ✕").arg(description));
    m_chip->show();
    applyFilter();
}

void ItemsTable::clearExternalFilter() {
    m_external = ItemFilter();
    m_chip->hide();
    applyFilter();
}

void ItemsTable::setFlipsOnly(bool on) {
    m_flips->setChecked(on);
}

void ItemsTable::selectItem(std::int64_t item) {
    int row = m_model->rowOfItem(item);
    if (row < 0 && !m_model->filter().isEmpty()) {
        // Filtered out: show every item rather than nothing.
        m_flips->setChecked(false);
        m_changed->setChecked(false);
        m_dpAbove->setValue(m_dpAbove->minimum());
        m_marginBelow->setValue(m_marginBelow->minimum());
        m_label->setCurrentIndex(0);
        m_search->clear();
        m_searchDelay->stop();
        clearExternalFilter();
        row = m_model->rowOfItem(item);
    }
    if (row >= 0) {
        const QModelIndex idx = m_model->index(row, ItemsModel::IdColumn);
        m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
        m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
    }
}

void ItemsTable::copySelection() const {
    QList<int> rows;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) {
        rows << i.row();
    }
    std::sort(rows.begin(), rows.end());
    if (!rows.isEmpty()) {
        QApplication::clipboard()->setText(m_model->toTsv(rows));
    }
}

void ItemsTable::updateCount(int shown, int total) {
    const QLocale loc;
    m_count->setText(shown == total
                         ? tr("%1 items").arg(loc.toString(total))
                         : tr("%1 of %2 items").arg(loc.toString(shown), loc.toString(total)));
}

} // namespace probaudit::ui
