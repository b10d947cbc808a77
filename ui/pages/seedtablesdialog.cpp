#include "ui/pages/seedtablesdialog.h"

#include "core/analysis/seed_tables.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <sstream>

namespace probaudit::ui {

SeedTablesDialog::SeedTablesDialog(const ReviewPtr& review, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("seedTablesDialog"));
    setWindowTitle(tr("Field Report Tables"));
    resize(1100, 720);
    std::ostringstream md;
    if (review) {
        md << "# " << review->facts.name << "\n\n";
        analysis::writeSeedTablesMarkdown(md, {review.get()}, {});
    }
    m_markdown = QString::fromStdString(md.str());
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("seedTables"));
    m_browser->setMarkdown(m_markdown);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("&Copy as Markdown"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_markdown); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
}

} // namespace probaudit::ui
