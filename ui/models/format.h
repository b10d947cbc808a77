#pragma once
// How the workbench writes numbers: one function per kind of number, so the dashboard, the
// items table, the charts and the report say the same thing the same way. Every function is
// translatable text; none rounds a difference away (0.9996 bit-identical is not "100%").
#include "core/common/vocabulary.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace probaudit::analysis {
struct Review;
}

namespace probaudit::ui {

// Δp in points: "0" exactly, scientific below 0.001 ("9.24e-05"), else 3 significant digits.
QString formatPoints(double points);
// A share as a percentage: "100%" and "0%" only when exact; "> 99.9%" and "< 0.1%" otherwise
// at the ends; else one decimal.
QString formatShare(double share);
// A probability with 4 decimals.
QString formatProbability(double p);
// A logit gap (margin) with 4 significant digits.
QString formatMargin(double margin);
// An accuracy difference with its interval, in points: "+0.10 [−0.20, +0.40]".
QString formatInterval(double estimate, double low, double high);
// A hidden-state index: "embeddings", "layer 3"; -1 "none", -2 "not captured".
QString formatLayer(int layer);
// The three-level verdict as one translated sentence (analysis::Verdict::sentence's words).
QString formatVerdict(bool accuracy, bool decisions, bool probabilities);
// A diagnosis ladder step's name ("loader and repeatability", …), translated; unknown names
// are returned as they are.
QString formatLadderStep(const QString& step);
// A share of Δp removed (the Cause view's and the report's layer × operator class cells) as a
// background: white at 0 or below, a deep orange at 1 or above (#rrggbb).
QString heatColour(double share);
// An operator class's column title ("attention", "MLP", …), translated.
QString formatOpClass(OpClass cls);
// An accuracy, or "–" without labels.
QString formatAccuracy(const std::optional<double>& accuracy);
// A top-2 logit gap (where generated outputs part) with 3 significant digits.
QString formatGap(double gap);

// The study's class names (its dataset's labels), in class-index order.
QStringList classNames(const analysis::Review& review);
// A class by its name: "–" for none; its index when the study names no such class.
QString formatClass(const QStringList& names, std::optional<int> k);

} // namespace probaudit::ui
