#include "ui/models/itemsmodel.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QFont>

#include <algorithm>
#include <cmath>

namespace probaudit::ui {

bool ItemFilter::isEmpty() const {
    return !flipsOnly && !changedOnly && !dpAbove && !marginBelow && !dpRange && !marginRange &&
           !label && !layerDiffers && text.isEmpty() && !items;
}

ItemsModel::ItemsModel(QObject* parent) : TableModel(NUM_COLUMNS, parent) {}

const analysis::Comparison* ItemsModel::comparison() const {
    if (!m_review || m_row < 0 || std::size_t(m_row) >= m_review->rows.size()) {
        return nullptr;
    }
    const auto& row = m_review->rows[std::size_t(m_row)];
    return row.cmp ? &*row.cmp : nullptr;
}

const analysis::ExactDistance* ItemsModel::exactDistance() const {
    if (comparison() == nullptr) {
        return nullptr;
    }
    const auto& row = m_review->rows[std::size_t(m_row)];
    return row.exact ? &*row.exact : nullptr;
}

double ItemsModel::toExact(int i, bool reference) const {
    const analysis::ExactDistance* e = exactDistance();
    const auto& v = e == nullptr ? std::vector<double>() : reference ? e->item_a : e->item_b;
    return std::size_t(i) < v.size() ? v[std::size_t(i)] : std::nan("");
}

void ItemsModel::setComparison(const ReviewPtr& review, int row) {
    beginResetModel();
    if (review != m_review) {
        m_folded.clear();
        m_labels.clear();
        if (review) {
            m_labels = classNames(*review);
        }
    }
    m_review = review;
    m_row = row;
    rebuild();
    endResetModel();
    Q_EMIT countsChanged(rowCount(), totalCount());
}

void ItemsModel::setFilter(const ItemFilter& filter) {
    beginResetModel();
    m_filter = filter;
    rebuild();
    endResetModel();
    Q_EMIT countsChanged(rowCount(), totalCount());
}

void ItemsModel::setNearBoundaryMargin(double margin) {
    m_nearBoundary = margin;
    if (!m_rows.empty()) {
        Q_EMIT dataChanged(index(0, MarginColumn), index(rowCount() - 1, MarginColumn),
                           {Qt::BackgroundRole});
    }
}

void ItemsModel::rebuild() {
    m_rows.clear();
    const analysis::Comparison* c = comparison();
    if (c == nullptr) {
        return;
    }
    const ItemFilter& f = m_filter;
    QString needle;
    if (!f.text.isEmpty()) {
        needle = f.text.toCaseFolded();
        if (m_folded.empty()) {
            m_folded.reserve(m_review->items.size());
            for (const auto& it : m_review->items) {
                m_folded.push_back(QString::fromStdString(it.id + "\t" + it.text).toCaseFolded());
            }
        }
    }
    m_rows.reserve(c->diffs.size());
    for (std::size_t i = 0; i < c->diffs.size(); ++i) {
        const analysis::ItemDiff& d = c->diffs[i];
        if (f.flipsOnly && !d.flip) {
            continue;
        }
        if (f.changedOnly && d.bit_identical) {
            continue;
        }
        if (f.dpAbove && !(d.dp > *f.dpAbove)) {
            continue;
        }
        const double margin = std::abs(double(d.margin_a));
        if (f.marginBelow && !(margin < *f.marginBelow)) {
            continue;
        }
        if (f.dpRange && !(d.dp >= f.dpRange->first && d.dp < f.dpRange->second)) {
            continue;
        }
        if (f.marginRange && !(margin >= f.marginRange->first && margin < f.marginRange->second)) {
            continue;
        }
        if (f.label && d.label.value_or(-1) != *f.label) {
            continue;
        }
        if (f.layerDiffers && !c->layerDiffers(i, std::size_t(*f.layerDiffers))) {
            continue;
        }
        if (f.items && !std::binary_search(f.items->begin(), f.items->end(), d.item)) {
            continue;
        }
        if (!needle.isEmpty() && (d.item < 0 || std::size_t(d.item) >= m_folded.size() ||
                                  !m_folded[std::size_t(d.item)].contains(needle))) {
            continue;
        }
        m_rows.push_back(int(i));
    }
    applySort();
}

double ItemsModel::sortKey(const analysis::ItemDiff& d, int column) {
    switch (column) {
    case LabelColumn:
        return d.label.value_or(-1);
    case PRefColumn:
        return d.p_a;
    case PCfgColumn:
        return d.p_b;
    case DpColumn:
        return d.dpOrder();
    case MarginColumn:
        return std::abs(double(d.margin_a));
    case FlipColumn:
        return d.flip ? 1 : 0;
    case FirstLayerColumn:
        // Items that never diverge sort after every layer.
        return d.first_divergent_layer < 0 ? 1e9 : d.first_divergent_layer;
    default:
        return double(d.item);
    }
}

void ItemsModel::applySort() {
    const analysis::Comparison* c = comparison();
    if (c == nullptr || m_sortColumn < 0) {
        return;
    }
    const auto& diffs = c->diffs;
    const auto& items = m_review->items;
    auto key = [&](int i) {
        if (m_sortColumn == ExactColumn) { // not compared sorts below every distance
            const double v = toExact(i);
            return std::isnan(v) ? -1.0 : v;
        }
        return sortKey(diffs[std::size_t(i)], m_sortColumn);
    };
    const bool asc = m_sortOrder == Qt::AscendingOrder;
    if (m_sortColumn == IdColumn || m_sortColumn == TextColumn) {
        auto text = [&](int i) -> const std::string& {
            const auto& it = items[std::size_t(diffs[std::size_t(i)].item)];
            return m_sortColumn == IdColumn ? it.id : it.text;
        };
        std::stable_sort(m_rows.begin(), m_rows.end(),
                         [&](int a, int b) { return asc ? text(a) < text(b) : text(b) < text(a); });
        return;
    }
    std::stable_sort(m_rows.begin(), m_rows.end(),
                     [&](int a, int b) { return asc ? key(a) < key(b) : key(b) < key(a); });
}

void ItemsModel::sort(int column, Qt::SortOrder order) {
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> diffOf;
    for (const QModelIndex& i : before) {
        diffOf.push_back(m_rows[std::size_t(i.row())]);
    }
    m_sortColumn = column;
    m_sortOrder = order;
    applySort();
    if (!before.isEmpty()) {
        std::vector<int> rowOfDiff(comparison() ? comparison()->diffs.size() : 0, -1);
        for (std::size_t r = 0; r < m_rows.size(); ++r) {
            rowOfDiff[std::size_t(m_rows[r])] = int(r);
        }
        QModelIndexList after;
        for (int k = 0; k < before.size(); ++k) {
            after << index(rowOfDiff[std::size_t(diffOf[std::size_t(k)])], before[k].column());
        }
        changePersistentIndexList(before, after);
    }
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int ItemsModel::totalCount() const {
    const analysis::Comparison* c = comparison();
    return c ? int(c->diffs.size()) : 0;
}

std::int64_t ItemsModel::itemAt(int row) const {
    const analysis::Comparison* c = comparison();
    if (c == nullptr || row < 0 || std::size_t(row) >= m_rows.size()) {
        return -1;
    }
    return c->diffs[std::size_t(m_rows[std::size_t(row)])].item;
}

int ItemsModel::rowOfItem(std::int64_t item) const {
    const analysis::Comparison* c = comparison();
    if (c == nullptr) {
        return -1;
    }
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (c->diffs[std::size_t(m_rows[r])].item == item) {
            return int(r);
        }
    }
    return -1;
}

QString ItemsModel::labelName(std::optional<int> label) const {
    return formatClass(m_labels, label);
}

QString ItemsModel::displayText(const analysis::ItemDiff& d, const ledger::Item& item,
                                int col) const {
    switch (col) {
    case IdColumn:
        return QString::fromStdString(item.id);
    case TextColumn: {
        QString t = QString::fromStdString(item.text);
        t.replace(u'\n', u' ');
        return t;
    }
    case LabelColumn:
        return labelName(d.label);
    case PRefColumn:
        return formatProbability(d.p_a);
    case PCfgColumn:
        return formatProbability(d.p_b);
    case DpColumn:
        return formatPoints(d.dp);
    case MarginColumn:
        return formatMargin(d.margin_a);
    case FlipColumn:
        return d.flip ? tr("%1 → %2").arg(labelName(d.decision_a), labelName(d.decision_b))
                      : QString();
    case FirstLayerColumn:
        if (d.bit_identical) {
            return tr("identical");
        }
        // Hidden states equal but the head's output moved: say so, not "none".
        return d.first_divergent_layer == -1 ? tr("none (head only)")
                                             : formatLayer(d.first_divergent_layer);
    default:
        return {};
    }
}

QVariant ItemsModel::exactData(int diffIndex, int role) const {
    const double b = toExact(diffIndex), a = toExact(diffIndex, true);
    switch (role) {
    case Qt::DisplayRole:
        return std::isnan(b) ? QString() : formatPoints(b);
    case SortRole:
        return std::isnan(b) ? -1.0 : b;
    case Qt::ToolTipRole:
        if (std::isnan(b) || std::isnan(a)) {
            return {};
        }
        return tr("|p − p_exact| in points against the float64 run %1: %2 under this config, %3 "
                  "in the reference run (%4).")
            .arg(QString::fromStdString(exactDistance()->exact_config), formatPoints(b),
                 formatPoints(a),
                 b < a   ? tr("this config is closer")
                 : a < b ? tr("the reference is closer")
                         : tr("as close"));
    case Qt::BackgroundRole: // the config nearer the exact value than the reference
        return !std::isnan(b) && !std::isnan(a) && b < a ? tint(unchangedColor(), 0.18)
                                                         : QVariant();
    default:
        return {};
    }
}

QVariant ItemsModel::cellData(const QModelIndex& index, int role) const {
    const analysis::Comparison* c = comparison();
    const int diffIndex = m_rows[std::size_t(index.row())];
    const analysis::ItemDiff& d = c->diffs[std::size_t(diffIndex)];
    const ledger::Item& item = m_review->items[std::size_t(d.item)];
    const int col = index.column();
    // The distance-to-exact cell; a flipped row keeps its flip tint there too.
    if (col == ExactColumn &&
        (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole ||
         (role == Qt::BackgroundRole && !d.flip))) {
        return exactData(diffIndex, role);
    }
    switch (role) {
    case ItemIndexRole:
        return qlonglong(d.item);
    case FlipRole:
        return d.flip;
    case DpRole:
        return d.dp;
    case Qt::BackgroundRole:
        if (d.flip) {
            return tint(flipColor(), 0.25);
        }
        if (col == MarginColumn && std::abs(d.margin_a) < m_nearBoundary) {
            return tint(nearBoundaryColor(), 0.22);
        }
        if (col == DpColumn && d.dp > 0) {
            return tint(changedColor(), 0.16);
        }
        return {};
    case Qt::FontRole:
        if (d.flip && col == FlipColumn) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return col == TextColumn || col == IdColumn || col == LabelColumn ||
                       col == FirstLayerColumn || col == FlipColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (col == TextColumn) {
            return QString::fromStdString(item.text);
        }
        if (col == MarginColumn) {
            return tr("Logit gap (top-1 minus top-2 of the decision classes): %1 in the "
                      "reference run, %2 under this config.")
                .arg(formatMargin(d.margin_a), formatMargin(d.margin_b));
        }
        if (col == FlipColumn && d.flip) {
            return tr("Decision %1 in the reference run, %2 under this config.")
                .arg(labelName(d.decision_a), labelName(d.decision_b));
        }
        return {};
    case Qt::DisplayRole:
        return displayText(d, item, col);
    case SortRole:
        return col == IdColumn || col == TextColumn ? data(index, Qt::DisplayRole)
                                                    : QVariant(sortKey(d, col));
    default:
        return {};
    }
}

QStringList ItemsModel::headerTitles() const {
    return {tr("Id"), tr("Text"),   tr("Label"), tr("p (ref)"),     tr("p (cfg)"),
            tr("Δp"), tr("Margin"), tr("Flip"),  tr("First layer"), tr("To exact")};
}

QString ItemsModel::headerToolTip(int column) const {
    switch (column) {
    case LabelColumn:
        return tr("The gold label from the dataset.");
    case PRefColumn:
        return tr("p in the reference run: the probability of the positive class (binary "
                  "heads) or of the reference run's decision.");
    case PCfgColumn:
        return tr("p under the selected config.");
    case DpColumn:
        return tr("Δp in points: 100 × |p(ref) − p(cfg)| (the largest over the classes).");
    case MarginColumn:
        return tr("The reference run's logit gap: top-1 minus top-2 logit of the decision "
                  "classes. Small margins are near the boundary (tinted).");
    case FlipColumn:
        return tr("The decision differs between the two runs.");
    case FirstLayerColumn:
        return tr("The first layer whose hidden states (real tokens only) differ bitwise "
                  "from the reference run.");
    case ExactColumn:
        return tr("Distance to exact: |p(cfg) − p_exact| in points, against the study's float64 "
                  "run (the exact reference). Tinted where the config is closer than the "
                  "reference run.");
    default:
        return {};
    }
}

QString ItemsModel::toTsv(const QList<int>& rows) const {
    QStringList lines;
    QStringList header;
    // The distance to exact only where the study has a float64 run (as the table shows it).
    const int columns = exactDistance() != nullptr ? NUM_COLUMNS : int(ExactColumn);
    for (int c = 0; c < columns; ++c) {
        header << headerData(c, Qt::Horizontal).toString();
    }
    lines << header.join(u'\t');
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < columns; ++c) {
            QString v = data(index(r, c)).toString();
            v.replace(u'\t', u' ');
            cells << v;
        }
        lines << cells.join(u'\t');
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace probaudit::ui
