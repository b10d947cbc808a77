#pragma once
// View → Field Report Tables: the tables of the two field reports for the study under review
// (analysis/seed_tables.h, the same text `probaudit summary --seed-tables` prints): the shape
// table from the stored diagnosis, accuracy one at a time against the batched path, the flips
// at near ties with Wilson intervals; for a generation study the concurrency table. Rendered
// from Markdown; Copy puts the Markdown on the clipboard.
#include "ui/models/reviewloader.h"

#include <QDialog>

class QTextBrowser;

namespace probaudit::ui {

class SeedTablesDialog : public QDialog {
    Q_OBJECT
public:
    explicit SeedTablesDialog(const ReviewPtr& review, QWidget* parent = nullptr);
    QString markdown() const { return m_markdown; }
    QTextBrowser* browser() const { return m_browser; }

private:
    QString m_markdown;
    QTextBrowser* m_browser = nullptr;
};

} // namespace probaudit::ui
