#include "ui/models/tablemodel.h"

namespace probaudit::ui {

TableModel::TableModel(int columns, QObject* parent)
    : QAbstractTableModel(parent), m_columns(columns) {}

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows();
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : columns();
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    return cellData(index, role);
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0) {
        return {};
    }
    QString text;
    if (role == Qt::DisplayRole) {
        const QStringList titles = headerTitles();
        Q_ASSERT(titles.size() == columns());
        text = section < titles.size() ? titles[section] : QString();
    } else if (role == Qt::ToolTipRole && section < columns()) {
        text = headerToolTip(section);
    }
    return text.isEmpty() ? QVariant() : QVariant(text);
}

void ReviewTableModel::setReview(const ReviewPtr& review) {
    beginResetModel();
    m_review = review;
    reviewChanged();
    endResetModel();
}

} // namespace probaudit::ui
