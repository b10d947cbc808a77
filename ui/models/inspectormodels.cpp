#include "ui/models/inspectormodels.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QCoreApplication>

#include <algorithm>

namespace probaudit::ui {

namespace {
// The inspector's words: translated under the widget's name, as they always were.
struct InspectorText {
    Q_DECLARE_TR_FUNCTIONS(probaudit::ui::Inspector)
};
} // namespace

const analysis::ItemDiff* findItemDiff(const analysis::Comparison& c, std::int64_t item,
                                       std::size_t* index) {
    const auto it =
        std::lower_bound(c.diffs.begin(), c.diffs.end(), item,
                         [](const analysis::ItemDiff& d, std::int64_t i) { return d.item < i; });
    if (it == c.diffs.end() || it->item != item) {
        return nullptr;
    }
    if (index != nullptr) {
        *index = std::size_t(it - c.diffs.begin());
    }
    return &*it;
}

// --- the numbers under every config

ItemNumbersModel::ItemNumbersModel(QObject* parent) : TableModel(NUM_COLUMNS, parent) {}

void ItemNumbersModel::setItem(const ReviewPtr& review, std::int64_t item) {
    beginResetModel();
    m_review = review;
    m_rows.clear();
    m_classes = review ? classNames(*review) : QStringList();
    if (review && item >= 0 && std::size_t(item) < review->items.size()) {
        for (std::size_t r = 0; r < review->rows.size(); ++r) {
            const analysis::ReviewRow& row = review->rows[r];
            const ledger::Record* rec = row.run ? review->record(row.run->id, item) : nullptr;
            if (rec == nullptr) {
                continue;
            }
            Row out{int(r), QString::fromStdString(row.config), row.reference};
            out.diff = row.cmp ? findItemDiff(*row.cmp, item) : nullptr;
            out.margin = rec->margin;
            out.decision = rec->decision;
            if (out.diff != nullptr) {
                out.p = out.diff->p_b;
            } else { // no reference record: p of the record's own decision (binary: positive)
                const int cls = rec->probs.size() == 2 ? 1 : rec->decision;
                out.p = cls >= 0 && std::size_t(cls) < rec->probs.size()
                            ? double(rec->probs[std::size_t(cls)])
                            : 0.0;
            }
            m_rows.push_back(out);
        }
    }
    endResetModel();
}

QString ItemNumbersModel::cellText(const Row& row, int column) const {
    const analysis::ItemDiff* d = row.diff;
    switch (column) {
    case ConfigColumn:
        return row.reference ? InspectorText::tr("%1 (ref.)").arg(row.config) : row.config;
    case PColumn:
        return formatProbability(row.p);
    case DpColumn:
        return d != nullptr ? formatPoints(d->dp) : QStringLiteral("\u2013");
    case MarginColumn:
        return formatMargin(row.margin);
    case DecisionColumn:
        return d != nullptr && d->flip
                   ? InspectorText::tr("%1 (flipped)").arg(formatClass(m_classes, row.decision))
                   : formatClass(m_classes, row.decision);
    case FirstLayerColumn:
        if (row.reference || d == nullptr) {
            return QStringLiteral("\u2013");
        }
        // The states match but p moved: the head's arithmetic, not a layer.
        return d->first_divergent_layer == -1 && d->dp > 0 ? InspectorText::tr("none (head only)")
                                                           : formatLayer(d->first_divergent_layer);
    default:
        return {};
    }
}

QVariant ItemNumbersModel::cellData(const QModelIndex& index, int role) const {
    const Row& row = m_rows[std::size_t(index.row())];
    const bool flip = row.diff != nullptr && row.diff->flip;
    switch (role) {
    case Qt::DisplayRole:
        return cellText(row, index.column());
    case Qt::TextAlignmentRole: {
        const int col = index.column();
        const bool left = col == ConfigColumn || col == DecisionColumn || col == FirstLayerColumn;
        return QVariant((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    case Qt::BackgroundRole:
        return index.column() == DecisionColumn && flip ? QVariant(tint(flipColor(), 0.3))
                                                        : QVariant();
    case ConfigNameRole:
        return row.config;
    case PRole:
        return row.p;
    case FlipRole:
        return flip;
    case ReviewRowRole:
        return row.reviewRow;
    default:
        return {};
    }
}

QStringList ItemNumbersModel::headerTitles() const {
    return {InspectorText::tr("Config"),   InspectorText::tr("p"),
            InspectorText::tr("Δp"),       InspectorText::tr("Margin"),
            InspectorText::tr("Decision"), InspectorText::tr("First layer")};
}

// --- which hidden states differ

LayerHashModel::LayerHashModel(QObject* parent) : TableModel(0, parent) {}

void LayerHashModel::setItem(const ReviewPtr& review, std::int64_t item) {
    beginResetModel();
    m_review = review;
    m_rows.clear();
    m_layers = 0;
    if (review && item >= 0 && std::size_t(item) < review->items.size()) {
        for (std::size_t r = 0; r < review->rows.size(); ++r) {
            const analysis::ReviewRow& row = review->rows[r];
            std::size_t index = 0;
            if (row.reference || !row.cmp || findItemDiff(*row.cmp, item, &index) == nullptr) {
                continue;
            }
            const int layers = int(row.cmp->first_divergent.size());
            m_rows.push_back(
                {int(r), QString::fromStdString(row.config), &*row.cmp, index, layers});
            m_layers = std::max(m_layers, layers);
        }
    }
    endResetModel();
}

int LayerHashModel::reviewRowAt(int row) const {
    return row >= 0 && std::size_t(row) < m_rows.size() ? m_rows[std::size_t(row)].reviewRow : -1;
}

QVariant LayerHashModel::cellData(const QModelIndex& index, int role) const {
    const Row& row = m_rows[std::size_t(index.row())];
    const int layer = index.column();
    if (role == ReviewRowRole) {
        return row.reviewRow;
    }
    if (layer >= row.layers) {
        return {};
    }
    const bool differs = row.cmp->layerDiffers(row.diffIndex, std::size_t(layer));
    switch (role) {
    case Qt::DisplayRole:
        return differs ? QStringLiteral("≠") : QStringLiteral("=");
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignHCenter | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        return differs ? tint(flipColor(), 0.35) : tint(unchangedColor(), 0.25);
    case Qt::ToolTipRole:
        return (differs ? InspectorText::tr("%1, %2: differs from the reference")
                        : InspectorText::tr("%1, %2: the same bits as the reference"))
            .arg(row.config, formatLayer(layer));
    case DiffersRole:
        return differs;
    default:
        return {};
    }
}

QVariant LayerHashModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Vertical) {
        return section >= 0 && std::size_t(section) < m_rows.size()
                   ? QVariant(m_rows[std::size_t(section)].config)
                   : QVariant();
    }
    return section == 0 ? InspectorText::tr("emb") : QString::number(section);
}

} // namespace probaudit::ui
