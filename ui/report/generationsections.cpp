#include "ui/report/sections.h"

#include "core/analysis/records.h"
#include "core/analysis/seed_tables.h"
#include "core/analysis/stats.h"
#include "ui/charts/gapchart.h"
#include "ui/models/format.h"
#include "ui/models/generationhtml.h"
#include "ui/models/generationmodels.h"

#include <QChart>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <tuple>

namespace probaudit::ui::reporting {

namespace {

// Where both runs of a line have the server's top-K log-probabilities per token: the
// distributions themselves, before any token differs (llama-perplexity --kl-divergence's
// measures, over what a server returns).
void tokenTable(Html& h, const analysis::Review& rv) {
    std::vector<QStringList> rows;
    for (const auto& g : rv.generation_rows) {
        if (!g.tokens) {
            continue;
        }
        const analysis::TokenMetrics& m = *g.tokens;
        rows.push_back(
            {esc(generationRowName(g)), QString::number(m.positions),
             QStringLiteral("%1 / %2 / %3 / %4")
                 .arg(m.kl_mean, 0, 'g', 3)
                 .arg(m.kl_median, 0, 'g', 3)
                 .arg(m.kl_p99, 0, 'g', 3)
                 .arg(m.kl_max, 0, 'g', 3),
             QStringLiteral("%1 (%2–%3)")
                 .arg(m.top1.estimate, 0, 'f', 4)
                 .arg(m.top1.low, 0, 'f', 4)
                 .arg(m.top1.high, 0, 'f', 4),
             QStringLiteral("%1 (%2 positions)").arg(m.rms_dp, 0, 'f', 4).arg(m.dp_positions)});
    }
    if (rows.empty()) {
        return;
    }
    h.p(QStringLiteral("Per-token distributions, where both runs have the server's top-K "
                       "log-probabilities, at every position up to each output's first differing "
                       "token (the same context in both runs). KL divergence in nats, per "
                       "position, over the tokens both top-K lists hold, each list renormalised "
                       "over them (mean / median / p99 / max); same top token with a Wilson 95% "
                       "interval; RMS of the change of the chosen token's probability, in "
                       "points."));
    h.table({QStringLiteral("comparison"), QStringLiteral("positions"), QStringLiteral("KL"),
             QStringLiteral("same top token"), QStringLiteral("RMS Δp")},
            rows);
}

} // namespace

void generationTable(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("agreement"),
         QStringLiteral("Record-level and answer-level agreement of the generations"));
    if (rv.generation_rows.empty()) {
        h.p(QStringLiteral("No two finished generation runs of head <b>%1</b>: nothing can be "
                           "compared.")
                .arg(esc(rv.head)));
        return;
    }
    h.p(QStringLiteral("Each generation run decodes greedily; its outputs become records (%1) "
                       "%2. Each line compares two runs of the %3 items: run to run (the same "
                       "config twice, or only the arrival order differs), serving (the "
                       "concurrency differs: the batch a request shares is a hidden input) and "
                       "other configs against the reference <b>%4</b>. Records: distinct records "
                       "per item summed over the items, reference side / other side; Jaccard: "
                       "records in both over records in either, pooled over the items.")
            .arg(esc(rv.records.mode + (rv.records.lowercase ? ", lower case" : "")),
                 rv.records.reduction.empty()
                     ? QStringLiteral("with no answer reduction")
                     : QStringLiteral("and the answer is the %1 of them")
                           .arg(esc(rv.records.reduction == "count"
                                        ? std::string("number of distinct records")
                                        : std::string("most frequent"))))
            .arg(rv.items.size())
            .arg(esc(rv.reference_name)));
    std::vector<QStringList> rows;
    std::vector<QString> colours;
    for (const auto& g : rv.generation_rows) {
        const auto& c = g.cmp;
        const auto n = qulonglong(c.items.size());
        QStringList axes;
        for (const auto& a : g.differs_in) {
            axes << QString::fromStdString(a);
        }
        rows.push_back(
            {esc(generationRowName(g)) +
                 QStringLiteral("<br><small>runs %1 and %2</small>").arg(g.run_a).arg(g.run_b),
             esc(generationKindName(g.kind)),
             esc(axes.isEmpty() ? QStringLiteral("nothing") : axes.join(QStringLiteral(", "))),
             QStringLiteral("%1 / %2").arg(qulonglong(c.records_a)).arg(qulonglong(c.records_b)),
             QStringLiteral("%1 / %2 (%3)")
                 .arg(qulonglong(c.identical))
                 .arg(n)
                 .arg(formatShare(c.identicalShare())),
             QString::number(c.pooled_jaccard, 'f', 4),
             c.has_answers ? QStringLiteral("%1 / %2").arg(qulonglong(c.answers_agree)).arg(n)
                           : QStringLiteral("–")});
        colours.push_back(c.identical == c.items.size() ? QStringLiteral("#e3f2e1")
                          : c.has_answers && c.answers_agree < c.items.size()
                              ? QStringLiteral("#fbe3e0")
                              : QStringLiteral("#fdf1d8"));
    }
    h.table({QStringLiteral("comparison"), QStringLiteral("kind"), QStringLiteral("differs in"),
             QStringLiteral("records"), QStringLiteral("byte-identical"),
             QStringLiteral("Jaccard (pooled)"), QStringLiteral("answers agree")},
            rows, colours);
    tokenTable(h, rv);
}

namespace {

// Per gap bin: divergence points, steps, and the divergence rate with its Wilson 95% interval.
void divergenceRates(Html& h, const analysis::GenerationComparison& c) {
    using analysis::GapHistogram;
    std::vector<QStringList> rows;
    for (int b = 0; b < GapHistogram::kBins; ++b) {
        if (c.gaps.all_steps[b] == 0) {
            continue;
        }
        const analysis::Interval r = analysis::divergenceRate(c, b);
        rows.push_back({QString::number(GapHistogram::lowerEdge(b), 'g', 2),
                        QString::number(c.gaps.at_divergence[b]),
                        QString::number(c.gaps.all_steps[b]),
                        QStringLiteral("%1% (%2–%3%)")
                            .arg(100 * r.estimate, 0, 'f', 2)
                            .arg(100 * r.low, 0, 'f', 2)
                            .arg(100 * r.high, 0, 'f', 2)});
    }
    h.table({QStringLiteral("top-2 gap from"), QStringLiteral("divergence points"),
             QStringLiteral("all steps"), QStringLiteral("divergence rate [Wilson 95%]")},
            rows);
}

} // namespace

void generationGaps(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("forks"), QStringLiteral("Where outputs fork: logit gaps"));
    h.p(QStringLiteral("For each comparison whose outputs differ: the reference run's top-2 "
                       "logit gap at the first token where the two outputs diverge, against its "
                       "gap at every step it decoded (shares of each set per decade). Forks at "
                       "gaps far below the typical step are near-ties that the other run's "
                       "arithmetic (its batch, its kernels, its dtype) broke the other way."));
    int k = 0;
    for (const auto& g : rv.generation_rows) {
        if (g.cmp.identical == g.cmp.items.size()) {
            continue;
        }
        const QString img = QStringLiteral("img://gaps-%1").arg(k++);
        // The comparison is the chart's own title: a heading above an image can be left alone
        // at the foot of a page.
        QChart* chart = makeGapHistogram(g.cmp);
        chart->setTitle(QStringLiteral("%1: %2 of %3 outputs differ")
                            .arg(generationRowName(g))
                            .arg(qulonglong(g.cmp.items.size() - g.cmp.identical))
                            .arg(qulonglong(g.cmp.items.size())));
        doc->addResource(QTextDocument::ImageResource, QUrl(img), renderChart(chart, 640, 300));
        h.text += QStringLiteral("<p><img src=\"%1\" width=\"560\" height=\"262\"></p>").arg(img);
        divergenceRates(h, g.cmp);
    }
    if (k == 0) {
        h.p(QStringLiteral("Every comparison is byte-identical: no output forked."));
    }
}

void generationOutputs(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    h.h1(QStringLiteral("outputs"), QStringLiteral("Outputs that differ, side by side"));
    const int perRow = std::max(1, std::min(o.maxFlipRows, 6));
    h.p(QStringLiteral("For each comparison whose outputs differ, the %1 items with the lowest "
                       "record Jaccard (different answers first): both outputs from the first "
                       "differing character on highlighted, and both record sets with the "
                       "records only one side has marked.")
            .arg(perRow));
    bool any = false;
    for (const auto& g : rv.generation_rows) {
        if (g.cmp.identical == g.cmp.items.size()) {
            continue;
        }
        any = true;
        std::vector<const analysis::GenerationItemDiff*> worst;
        for (const auto& d : g.cmp.items) {
            if (!d.identical) {
                worst.push_back(&d);
            }
        }
        std::stable_sort(worst.begin(), worst.end(), [](const auto* x, const auto* y) {
            return std::make_tuple(x->answer_a == x->answer_b, x->jaccard) <
                   std::make_tuple(y->answer_a == y->answer_b, y->jaccard);
        });
        if (worst.size() > std::size_t(perRow)) {
            worst.resize(std::size_t(perRow));
        }
        h.h2(generationRowName(g));
        for (const auto* d : worst) {
            std::int64_t item = -1;
            for (const auto& it : rv.items) {
                if (it.id == d->id) {
                    item = it.idx;
                }
            }
            const auto* a = rv.output(g.run_a, item);
            const auto* b = rv.output(g.run_b, item);
            h.text += QStringLiteral("<p><b>%1</b>: %2</p>")
                          .arg(esc(d->id), esc(shortText(rv.items[std::size_t(item)].text, 200)));
            h.text += outputsHtml(g, a, b, d);
            h.text += recordsHtml(
                g, a ? analysis::parseRecords(a->text, rv.records) : std::vector<std::string>(),
                b ? analysis::parseRecords(b->text, rv.records) : std::vector<std::string>(), d);
        }
    }
    if (!any) {
        h.p(QStringLiteral("Every comparison is byte-identical."));
    }
}

void generationLimits(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("limits"), QStringLiteral("What this report cannot tell you"));
    QStringList out;
    out << QStringLiteral("<b>Sample size.</b> %1 prompts. Where two runs agreed on every output, "
                          "the share of prompts whose output changes on data like this may still "
                          "be up to %2 (the upper end of Wilson's 95% interval for 0 of %1); "
                          "rarer changes cannot be ruled out.")
               .arg(rv.items.size())
               .arg(formatShare(rv.items.empty()
                                    ? 1.0
                                    : analysis::wilson(0, std::int64_t(rv.items.size())).high));
    out << QStringLiteral("<b>Greedy decoding only.</b> Sampling adds its own randomness on top of "
                          "what is measured here; a server that samples diverges more, not less.");
    out << QStringLiteral("<b>A simulated server.</b> Concurrency and arrival order are simulated "
                          "by ProbAudit's continuous-batching scheduler on this runtime; a "
                          "production server's scheduler, kernels and device batch differently, "
                          "so its rates can differ. Run the same study on that runtime to know.");
    out << QStringLiteral("<b>Records are what the parser makes of the text.</b> A different "
                          "parser or normalisation (case, bullets, a regex) gives different "
                          "records and a different Jaccard; the parser used is stated above.");
    if (rv.records.reduction.empty()) {
        out << QStringLiteral("<b>No answer reduction.</b> The head defines none, so answer-level "
                              "agreement is not reported.");
    }
    h.text += QStringLiteral("<ul>");
    for (const auto& o : out) {
        h.text += QStringLiteral("<li>%1</li>").arg(o);
    }
    h.text += QStringLiteral("</ul>");
}

} // namespace probaudit::ui::reporting
