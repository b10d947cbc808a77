#include "ui/models/causemodels.h"

#include "ui/models/format.h"

#include "core/analysis/diagnosis.h"

#include <QColor>
#include <QCoreApplication>

#include <cmath>

namespace probaudit::ui {

namespace {

// The view's words, translated under the Cause view's name.
struct CauseText {
    Q_DECLARE_TR_FUNCTIONS(probaudit::ui::CauseView)
};

QString percent(double share) {
    return QStringLiteral("%1%").arg(std::lround(100.0 * share));
}

} // namespace

// --- the grid

CauseGridModel::CauseGridModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

QStringList CauseGridModel::configs() const {
    QStringList out;
    if (review() && review()->diagnosis) {
        for (const auto& c : review()->diagnosis->causes) {
            out << QString::fromStdString(c.config);
        }
    }
    return out;
}

const analysis::ConfigCause* CauseGridModel::cause() const {
    return review() && review()->diagnosis ? review()->diagnosis->causeOf(m_config.toStdString())
                                           : nullptr;
}

void CauseGridModel::setConfig(const QString& config) {
    beginResetModel();
    m_config = config;
    reviewChanged();
    endResetModel();
}

void CauseGridModel::reviewChanged() {
    const analysis::ConfigCause* c = cause();
    m_rows = c != nullptr && c->localization ? analysis::causeTable(*c->localization)
                                             : std::vector<analysis::CauseRow>{};
}

int CauseGridModel::rows() const {
    return int(m_rows.size());
}

std::vector<const analysis::ItemCause*> CauseGridModel::itemsOf(const QModelIndex& cell) const {
    std::vector<const analysis::ItemCause*> out;
    const analysis::ConfigCause* c = cause();
    if (!checkIndex(cell, CheckIndexOption::IndexIsValid) || c == nullptr || !c->localization) {
        return out;
    }
    const analysis::Localization& l = *c->localization;
    const int row = m_rows[std::size_t(cell.row())].index;
    const int col = cell.column();
    for (const auto& item : l.items) {
        if (analysis::causeRowIndex(item, l) != row) {
            continue;
        }
        const bool byClass = item.cause_explains && item.cause_class &&
                             int(*item.cause_class) == col - FirstClassColumn;
        const bool bySet = !item.cause_explains && item.set_explains;
        if ((col >= FirstClassColumn && col < SetColumn) ? byClass
            : col == SetColumn                           ? bySet
                                                         : true) {
            out.push_back(&item);
        }
    }
    return out;
}

QVariant CauseGridModel::cellData(const QModelIndex& index, int role) const {
    const analysis::CauseRow& r = m_rows[std::size_t(index.row())];
    const int col = index.column();
    const bool isClass = col >= FirstClassColumn && col < SetColumn;
    const double share =
        isClass ? r.class_removed[std::size_t(col - FirstClassColumn)] : r.mean_removed;
    const bool hasShare = isClass || col == StateColumn;
    if (role == ShareRole) {
        return hasShare ? QVariant(share) : QVariant();
    }
    if (role == Qt::BackgroundRole) {
        return hasShare ? QVariant(QColor(heatColour(share))) : QVariant();
    }
    if (role == Qt::ForegroundRole) {
        return hasShare ? QVariant(QColor(Qt::black)) : QVariant(); // on the tint, any theme
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    if (col == WhereColumn) {
        return sort ? QVariant(r.index) : QVariant(QString::fromStdString(r.where));
    }
    if (col == ItemsColumn) {
        return qlonglong(r.items);
    }
    if (col == SetColumn) {
        return sort ? QVariant(qlonglong(r.set_items))
                    : QVariant(QStringLiteral("(%1)").arg(r.set_items));
    }
    if (sort) {
        return share;
    }
    return isClass ? QStringLiteral("%1 (%2)")
                         .arg(percent(share))
                         .arg(r.class_items[std::size_t(col - FirstClassColumn)])
                   : percent(share);
}

QStringList CauseGridModel::headerTitles() const {
    QStringList t{CauseText::tr("Δp complete by"), CauseText::tr("Items"),
                  CauseText::tr("A's state")};
    for (int k = 0; k < kOpClassCount; ++k) {
        t << formatOpClass(static_cast<OpClass>(k));
    }
    t << CauseText::tr("A set");
    return t;
}

QString CauseGridModel::headerToolTip(int column) const {
    if (column == StateColumn) {
        return CauseText::tr("The share of Δp removed when A's hidden state after this row's "
                             "layer is spliced into B");
    }
    if (column >= FirstClassColumn && column < SetColumn) {
        return CauseText::tr("The mean share of Δp removed when B computes this operator class "
                             "as A does, in every layer; in brackets, the items it is the cause "
                             "of");
    }
    if (column == SetColumn) {
        return CauseText::tr("Items no class explains alone, but a set of classes computed as A "
                             "together does");
    }
    return {};
}

// --- the items of a cell

CauseItemsModel::CauseItemsModel(QObject* parent) : TableModel(NUM_COLUMNS, parent) {}

void CauseItemsModel::setItems(const analysis::Localization* l,
                               std::vector<const analysis::ItemCause*> items) {
    beginResetModel();
    m_l = l;
    m_items = std::move(items);
    endResetModel();
}

int CauseItemsModel::rows() const {
    return int(m_items.size());
}

QVariant CauseItemsModel::cellData(const QModelIndex& index, int role) const {
    const analysis::ItemCause& c = *m_items[std::size_t(index.row())];
    if (role == ItemRole) {
        return qlonglong(c.item);
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    switch (index.column()) {
    case ItemColumn:
        return QString::fromStdString(c.id);
    case DpColumn:
        return sort ? QVariant(c.dp()) : QVariant(formatPoints(c.dp()));
    case FlipColumn:
        return sort ? QVariant(c.flip()) : QVariant(c.flip() ? CauseText::tr("flip") : QString());
    case CauseColumn: {
        // The line without its "id (Δp …): " opening: the row's first columns say that.
        const std::string line = analysis::causeLine(c, *m_l);
        const std::size_t at = line.find("): ");
        return QString::fromStdString(at == std::string::npos ? line : line.substr(at + 3));
    }
    default:
        return {};
    }
}

QStringList CauseItemsModel::headerTitles() const {
    return {CauseText::tr("Item"), CauseText::tr("Δp (points)"), CauseText::tr("Flip"),
            CauseText::tr("Cause")};
}

} // namespace probaudit::ui
