#include "ui/report/report.h"

#include "core/common/build_info.h"
#include "ui/report/sections.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTranslator>

namespace probaudit::ui {

using namespace reporting;

namespace {

QString contents(const std::vector<Section>& sections, const std::vector<int>& pages) {
    QString t = QStringLiteral("<h2 style=\"page-break-before: always\">Contents</h2><table "
                               "width=\"100%\" cellpadding=\"4\">");
    for (std::size_t i = 0; i < sections.size(); ++i) {
        t += QStringLiteral("<tr><td><a href=\"#%1\">%2. %3</a></td><td align=\"right\">%4</td>"
                            "</tr>")
                 .arg(sections[i].anchor)
                 .arg(i + 1)
                 .arg(esc(sections[i].title))
                 .arg(i < pages.size() && pages[i] > 0 ? QString::number(pages[i])
                                                       : QStringLiteral("00"));
    }
    return t + QStringLiteral("</table>");
}

// The report is written in English whatever language the workbench speaks: while it is built,
// a translator on top of the others answers every lookup (the charts' and the generation
// view's shared pieces) with the source text.
class SourceText : public QTranslator {
public:
    SourceText() { QCoreApplication::installTranslator(this); }
    ~SourceText() override { QCoreApplication::removeTranslator(this); }
    SourceText(const SourceText&) = delete;
    SourceText& operator=(const SourceText&) = delete;
    QString translate(const char*, const char* sourceText, const char*, int) const override {
        return QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

int buildReportDocument(const analysis::Review& review, const ReportOptions& options,
                        const QSizeF& pageSize, QTextDocument* doc) {
    // Charts and the heatmap are drawn in the light palette (print).
    auto rv = std::shared_ptr<const analysis::Review>(&review, [](const analysis::Review*) {});
    Html h;
    cover(h, review, options);
    const QString coverHtml = h.text;
    // Sections in order; their HTML is assembled after the contents.
    Html all;
    if (review.generation) {
        generationTable(all, review);
        generationGaps(all, review, doc);
        generationOutputs(all, review, options);
        definitions(all);
        generationLimits(all, review);
    } else {
        headline(all, review);
        accuracyPaths(all, review);
        distributions(all, review, doc);
        nearTies(all, review, doc);
        distanceToExact(all, review, doc);
        layers(all, rv, doc);
        flippedItems(all, review, options);
        boundaryItems(all, review);
        diagnosis(all, review);
        causes(all, review);
        definitions(all);
        limits(all, review);
    }
    doc->setDefaultStyleSheet(
        QStringLiteral("h1 { font-size: 18pt; } "
                       "h2 { font-size: 13pt; margin-top: 6px; } h3 { font-size: 10.5pt; } "
                       "th { font-size: 7.5pt; } td { font-size: 7.5pt; }"));
    // No ligatures: text copied or extracted from the PDF must read "fi", not "ﬁ" (a letter
    // spacing other than 0 turns Qt's ligatures off).
    QFont base(QStringLiteral("DejaVu Sans"));
    base.setPointSizeF(9);
    base.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    doc->setDefaultFont(base);
    doc->setPageSize(pageSize);
    std::vector<int> pages;
    int count = 0;
    for (int pass = 0; pass < 3; ++pass) {
        doc->setHtml(QStringLiteral("<html><body>") + coverHtml + contents(all.sections, pages) +
                     all.text + QStringLiteral("</body></html>"));
        {
            QTextCursor c(doc);
            c.select(QTextCursor::Document);
            QTextCharFormat noLigatures;
            noLigatures.setFontLetterSpacingType(QFont::AbsoluteSpacing);
            noLigatures.setFontLetterSpacing(0.05); // px; below 1/64 Qt rounds it to 0
            c.mergeCharFormat(noLigatures);
        }
        // The page of every section heading (its anchor).
        std::vector<int> found(all.sections.size(), 0);
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextCharFormat f = it.fragment().charFormat();
                if (!f.isAnchor()) {
                    continue;
                }
                for (const QString& name : f.anchorNames()) {
                    for (std::size_t s = 0; s < all.sections.size(); ++s) {
                        if (all.sections[s].anchor == name) {
                            const QRectF r = doc->documentLayout()->blockBoundingRect(b);
                            found[s] = int(r.top() / pageSize.height()) + 1;
                        }
                    }
                }
            }
        }
        count = doc->pageCount();
        if (found == pages) {
            break;
        }
        pages = found;
    }
    return count;
}

bool writeReport(const analysis::Review& review, const ReportOptions& options, QString* error) {
    const SourceText english;
    QPdfWriter pdf(options.output);
    if (!QFileInfo(QFileInfo(options.output).absolutePath()).isWritable()) {
        *error = QStringLiteral("%1: the folder is not writable").arg(options.output);
        return false;
    }
    pdf.setResolution(96);
    pdf.setPageSize(options.pageSize);
    pdf.setPageMargins(QMarginsF(15, 15, 15, 18), QPageLayout::Millimeter);
    pdf.setTitle(
        QStringLiteral("ProbAudit report: %1").arg(QString::fromStdString(review.facts.name)));
    pdf.setCreator(QStringLiteral("ProbAudit %1").arg(QString::fromLatin1(engineVersion())));
    const QRectF paint = pdf.pageLayout().paintRectPixels(96);
    const double footer = 22;
    const QSizeF page(paint.width(), paint.height() - footer);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&pdf);
    const int pages = buildReportDocument(review, options, page, &doc);
    QPainter p;
    if (!p.begin(&pdf)) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    const QString study = QString::fromStdString(review.facts.name);
    for (int i = 0; i < pages; ++i) {
        if (i > 0) {
            pdf.newPage();
        }
        p.save();
        p.translate(0, -i * page.height());
        doc.drawContents(&p, QRectF(0, i * page.height(), page.width(), page.height()));
        p.restore();
        p.setPen(QColor(0x60, 0x60, 0x60));
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPointSizeF(7.5);
        f.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
        p.setFont(f);
        const QRectF foot(0, page.height() + 6, page.width(), footer - 6);
        p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("ProbAudit report · %1").arg(study));
        p.drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    if (!p.end()) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    return true;
}

} // namespace probaudit::ui
