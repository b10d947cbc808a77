#pragma once
// The report's sections (internal to ui/report), in the order buildReportDocument() puts
// them: the cover; for a decision study the headline, distributions, layers, flipped and
// near-boundary items, diagnosis, causes; for a generation study its agreement table, gap
// histograms and outputs; then the definitions and the limits. Each appends its HTML to `h` (and
// its images to `doc`); headings of numbered sections are collected for the contents.
#include "ui/report/html.h"
#include "ui/report/report.h"

class QTextDocument;

namespace probaudit::ui::reporting {

// cover.cpp: title, study, model and dataset digests, every run's environment, pin status.
void cover(Html& h, const analysis::Review& rv, const ReportOptions& o);
// verdictsection.cpp: the policy's verdict (when the study has a policy), right after the title.
void verdict(Html& h, const analysis::Review& rv);

// decisionsections.cpp
void headline(Html& h, const analysis::Review& rv);
void distributions(Html& h, const analysis::Review& rv, QTextDocument* doc);
// The flip rate per reference-margin bin with Wilson 95% intervals, every config: chart and table.
void nearTies(Html& h, const analysis::Review& rv, QTextDocument* doc);
// The first field report's accuracy table, a part of the headline: the batched path against one
// at a time (nothing when the study has no batched path with a finished run).
void accuracyPaths(Html& h, const analysis::Review& rv);
void layers(Html& h, const std::shared_ptr<const analysis::Review>& rv, QTextDocument* doc);
void flippedItems(Html& h, const analysis::Review& rv, const ReportOptions& o);
void boundaryItems(Html& h, const analysis::Review& rv);
void diagnosis(Html& h, const analysis::Review& rv);
// causesection.cpp (a diagnosis with its "cause" rung): each differing config's layer × operator
// class heatmap and the cause lines of its flips.
void causes(Html& h, const analysis::Review& rv);

// exactsection.cpp (a study with a float64 run): every config's distance to exact, a chart;
// and, for the headline, a note for every config the reference is farther from exact than.
void distanceToExact(Html& h, const analysis::Review& rv, QTextDocument* doc);
void referenceFartherNotes(Html& h, const analysis::Review& rv);

// generationsections.cpp
void generationTable(Html& h, const analysis::Review& rv);
void generationGaps(Html& h, const analysis::Review& rv, QTextDocument* doc);
void generationOutputs(Html& h, const analysis::Review& rv, const ReportOptions& o);
void generationLimits(Html& h, const analysis::Review& rv);

// textsections.cpp
void definitions(Html& h);
void limits(Html& h, const analysis::Review& rv);

} // namespace probaudit::ui::reporting
