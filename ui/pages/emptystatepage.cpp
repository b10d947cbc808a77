#include "ui/pages/emptystatepage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace probaudit::ui {

EmptyStatePage::EmptyStatePage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("emptyStatePage"));

    auto* title = new QLabel(tr("No study is open"), this);
    title->setObjectName(QStringLiteral("emptyStateTitle"));
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    title->setFont(big);
    title->setAlignment(Qt::AlignHCenter);

    auto* text = new QLabel(
        tr("ProbAudit checks whether the same input gets the same decision, with the same "
           "probability, under every runtime configuration: batch size, padding, dtype, "
           "kernels, threads and torch/CUDA builds."),
        this);
    text->setObjectName(QStringLiteral("emptyStateText"));
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignHCenter);

    auto* openStudy = new QPushButton(tr("Open a Study…"), this);
    openStudy->setObjectName(QStringLiteral("openStudyButton"));
    auto* openDemo = new QPushButton(tr("Open the Demo Study"), this);
    openDemo->setObjectName(QStringLiteral("openDemoButton"));
    openDemo->setDefault(true);
    for (QPushButton* b : {openStudy, openDemo}) {
        b->setMinimumWidth(240);
    }
    connect(openStudy, &QPushButton::clicked, this, &EmptyStatePage::openStudyRequested);
    connect(openDemo, &QPushButton::clicked, this, &EmptyStatePage::openDemoRequested);

    // A centred column of bounded width: the word-wrapped text gets its full height there
    // (an alignment flag on a wrapped label in a box layout would clip it to one line).
    auto* column = new QWidget(this);
    column->setMaximumWidth(560);
    auto* inner = new QVBoxLayout(column);
    inner->addWidget(title);
    inner->addSpacing(12);
    inner->addWidget(text);
    inner->addSpacing(24);
    inner->addWidget(openStudy, 0, Qt::AlignHCenter);
    inner->addWidget(openDemo, 0, Qt::AlignHCenter);

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column, 3);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addLayout(row);
    layout->addStretch(3);
}

} // namespace probaudit::ui
