#pragma once
// The read-only tables of the workbench's analysis views (diagnosis, cause): a model's rows,
// no row numbers, no editing, wrapped text, columns sized to their contents, the last column
// stretched.
#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace probaudit::ui {

QTableView* readOnlyTable(QAbstractItemModel* model, QWidget* parent, const QString& name);

} // namespace probaudit::ui
