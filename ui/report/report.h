#pragma once
// The PDF report of a study's review (issue "Reports and audit bundles"): a cover (study,
// model digest, dataset, date, ProbAudit version, every run's environment, pin status), a
// table of contents, the headline table per config, the margin and Δp histograms, the
// per-layer heatmap, the flipped and nearest-boundary items, the diagnosis ladder, the
// definitions of every metric, and "what this report cannot tell you", generated from the
// data. Page numbers on every page; A4 or Letter. Charts come from the workbench's chart code.
// The report is written in English (an audit document in one language).
#include "core/analysis/review.h"

#include <QPageSize>
#include <QString>

class QTextDocument;

namespace probaudit::ui {

struct ReportOptions {
    QString output; // the PDF file
    QPageSize pageSize = QPageSize(QPageSize::A4);
    QString lockPath;     // a runtime lock to state the pin status against ("" = look beside)
    int maxFlipRows = 50; // flipped items listed per config
    // Paths of the study, ledger, model, dataset and lock as this machine spells them; by
    // default they are shown relative to the study's folder (the ledger's, when no study was
    // recorded), so a report says nothing of the machine's folders that the reader does not need.
    bool absolutePaths = false;
};

// Writes the report; false with `error` set (one sentence naming the file) when it cannot.
bool writeReport(const analysis::Review& review, const ReportOptions& options, QString* error);

// The report laid out in `doc` for a page of `pageSize` (device-independent pixels at 96 dpi):
// its HTML, images registered as resources, and the contents with page numbers. Returns the
// number of pages.
int buildReportDocument(const analysis::Review& review, const ReportOptions& options,
                        const QSizeF& pageSize, QTextDocument* doc);

} // namespace probaudit::ui
