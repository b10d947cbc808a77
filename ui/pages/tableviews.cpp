#include "ui/pages/tableviews.h"

#include <QHeaderView>
#include <QTableView>

namespace probaudit::ui {

QTableView* readOnlyTable(QAbstractItemModel* model, QWidget* parent, const QString& name) {
    auto* t = new QTableView(parent);
    t->setObjectName(name);
    t->setModel(model);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setWordWrap(true);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

} // namespace probaudit::ui
