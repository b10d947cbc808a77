// The report's "Distance to exact" section (a study with a float64 run): which side of each
// comparison is right, a table of every config's |p - p_exact| and a chart of the config the
// reader most needs to see.
#include "ui/report/sections.h"

#include "ui/charts/exactchart.h"
#include "ui/models/format.h"

#include <QTextDocument>
#include <QUrl>

#include <cmath>

namespace probaudit::ui::reporting {

namespace {

QString percentOf(std::int64_t k, std::int64_t n) {
    return n > 0 ? QStringLiteral("%1%").arg(std::lround(100.0 * double(k) / double(n)))
                 : QStringLiteral("–");
}

// The row the chart shows: the first whose reference is the farther side, else the config
// farthest from exact (by median).
const analysis::ReviewRow* chartRow(const analysis::Review& rv) {
    const analysis::ReviewRow* farthest = nullptr;
    for (const auto& row : rv.rows) {
        if (!row.exact || row.reference || row.exact->items == 0) {
            continue;
        }
        if (row.exact->referenceFarther()) {
            return &row;
        }
        if (farthest == nullptr || row.exact->b.median > farthest->exact->b.median) {
            farthest = &row;
        }
    }
    return farthest;
}

} // namespace

void referenceFartherNotes(Html& h, const analysis::Review& rv) {
    for (const auto& row : rv.rows) {
        if (row.exact && !row.reference && row.exact->referenceFarther()) {
            h.p(QStringLiteral("<b>Note:</b> %1 (the float64 run of config <b>%2</b>).")
                    .arg(esc(row.exact->sentence(rv.reference_name, row.config)),
                         esc(rv.exact_config)));
        }
    }
}

void distanceToExact(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    if (rv.exact_config.empty()) {
        return;
    }
    h.h1(QStringLiteral("exact"), QStringLiteral("Distance to exact"));
    h.p(QStringLiteral(
            "Which side is right: config <b>%1</b> ran in float64 on the CPU, every step "
            "in float64 (the exact reference). For every item, |p − p_exact| in points "
            "(the largest over the classes) of each config, and whether it or the "
            "reference <b>%2</b> is closer. The distances are of the float32 "
            "probabilities the ledger keeps (a resolution of about 6e-6 points near "
            "p = 0.5).")
            .arg(esc(rv.exact_config), esc(rv.reference_name)));
    referenceFartherNotes(h, rv);
    std::vector<QStringList> rows;
    for (const auto& row : rv.rows) {
        if (!row.exact || row.exact->items == 0) {
            continue;
        }
        const auto& e = *row.exact;
        const bool ref = row.reference;
        rows.push_back({esc(row.config) + (ref ? QStringLiteral(" (reference)") : QString()),
                        formatPoints(e.b.median), formatPoints(e.b.p99), formatPoints(e.b.max),
                        ref ? QStringLiteral("–") : percentOf(e.b_closer, e.items),
                        ref ? QStringLiteral("–") : percentOf(e.a_closer, e.items),
                        ref ? QStringLiteral("–") : percentOf(e.ties, e.items)});
    }
    h.table({QStringLiteral("config"), QStringLiteral("median"), QStringLiteral("p99"),
             QStringLiteral("max"), QStringLiteral("config closer"),
             QStringLiteral("reference closer"), QStringLiteral("as close")},
            rows);
    if (const analysis::ReviewRow* row = chartRow(rv)) {
        doc->addResource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("img://exact")),
            renderChart(makeExactChart(*row->exact, QString::fromStdString(rv.reference_name),
                                       QString::fromStdString(row->config)),
                        900, 420));
        h.text += QStringLiteral("<p><img src=\"img://exact\" width=\"%1\" height=\"%2\"></p>")
                      .arg(kContentWidth)
                      .arg(kContentWidth * 420 / 900);
    }
}

} // namespace probaudit::ui::reporting
