#include "ui/report/sections.h"

#include "ui/charts/charts.h"
#include "ui/charts/heatmapwidget.h"
#include "ui/charts/neartiechart.h"
#include "ui/models/format.h"

#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace probaudit::ui::reporting {

void headline(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("headline"),
         QStringLiteral("Headline: every config against the reference"));
    if (!rv.reference_run) {
        h.p(QStringLiteral("The reference config has no finished run: nothing can be compared."));
        return;
    }
    h.p(QStringLiteral("Reference: config <b>%1</b>, run %2, %3 items. ΔAcc is this config's "
                       "accuracy minus the reference's, in points, with a paired bootstrap 95% "
                       "interval (10,000 resamples). Δp in points. Verdict: accuracy, decisions, "
                       "bits (✓ reproduces, ✗ does not).")
            .arg(esc(rv.reference_name))
            .arg(rv.reference_run->id)
            .arg(rv.items.size()));
    std::vector<QStringList> rows;
    std::vector<QString> colours;
    for (const auto& row : rv.rows) {
        if (!row.cmp) {
            rows.push_back(
                {esc(row.config), QStringLiteral("not run"), {}, {}, {}, {}, {}, {}, {}, {}});
            colours.push_back({});
            continue;
        }
        const auto& c = *row.cmp;
        QString first =
            row.reference ? QStringLiteral("–") : QString::fromStdString(analysis::firstLayers(c));
        rows.push_back({esc(row.config) + (row.reference && row.config != "reference"
                                               ? QStringLiteral(" (reference)")
                                               : QString()),
                        formatAccuracy(c.accuracy_b),
                        c.accuracy_diff && !row.reference
                            ? formatInterval(c.accuracy_diff->estimate, c.accuracy_diff->low,
                                             c.accuracy_diff->high)
                            : QStringLiteral("–"),
                        formatShare(c.agreement),
                        QStringLiteral("%1 / %2").arg(c.flips).arg(c.items), formatPoints(c.max_dp),
                        formatPoints(c.p99_dp), formatShare(c.bit_identical_share), esc(first),
                        verdictText(c.verdict)});
        colours.push_back(colourOf(row));
    }
    h.table({QStringLiteral("config"), QStringLiteral("accuracy"), QStringLiteral("ΔAcc [95%]"),
             QStringLiteral("agreement"), QStringLiteral("flips"), QStringLiteral("max Δp"),
             QStringLiteral("p99 Δp"), QStringLiteral("bit-identical"),
             QStringLiteral("first divergent layer"), QStringLiteral("acc. dec. bits")},
            rows, colours);
    referenceFartherNotes(h, rv);
    for (const auto& row : rv.rows) {
        if (row.cmp && !row.reference && !row.differs_in.empty()) {
            QStringList axes;
            for (const auto& a : row.differs_in) {
                axes << QString::fromStdString(a);
            }
            h.text += QStringLiteral("<p style=\"font-size: 8pt\"><b>%1</b> differs from the "
                                     "reference in: %2. McNemar's exact p = %3.</p>")
                          .arg(esc(row.config), esc(axes.join(QStringLiteral(", "))),
                               row.cmp->mcnemar_p ? QString::number(*row.cmp->mcnemar_p, 'g', 3)
                                                  : QStringLiteral("–"));
        }
    }
}

void distributions(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("distributions"), QStringLiteral("Where the numbers move: margins and Δp"));
    h.p(QStringLiteral("Left: items by their margin (top-1 minus top-2 logit) in the reference "
                       "run, with bit-identical, changed and flipped items stacked per bin; flips "
                       "are expected near the boundary. Right: Δp per item on log bins."));
    int k = 0;
    bool any = false;
    for (const auto& row : rv.rows) {
        if (!row.cmp || row.reference || row.cmp->verdict.probabilities) {
            continue;
        }
        any = true;
        const QString m = QStringLiteral("img://margin-%1").arg(k);
        const QString d = QStringLiteral("img://dp-%1").arg(k++);
        // Drawn at 500 x 330 and shown at 330 x 218: labels stay whole, type stays small.
        doc->addResource(QTextDocument::ImageResource, QUrl(m),
                         renderChart(makeMarginHistogram(*row.cmp), 500, 330));
        doc->addResource(QTextDocument::ImageResource, QUrl(d),
                         renderChart(makeDpHistogram(*row.cmp), 500, 330));
        h.h2(QStringLiteral("%1: %2 flips, max Δp %3 points")
                 .arg(QString::fromStdString(row.config))
                 .arg(row.cmp->flips)
                 .arg(formatPoints(row.cmp->max_dp)));
        h.text += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\"><tr><td><img "
                                 "src=\"%1\" width=\"330\" height=\"218\"></td><td><img "
                                 "src=\"%2\" width=\"330\" height=\"218\"></td></tr></table>")
                      .arg(m, d);
    }
    if (!any) {
        h.p(QStringLiteral("Every config is bit-identical to the reference: nothing moved."));
    }
}

namespace {

QString percentText(double share) {
    return QString::number(100 * share, 'f', share == 0 || share == 1 ? 0 : 1);
}

// "k (low–high%)" of one config in one bin.
QString rateCell(const analysis::NearTieBin& b) {
    return QStringLiteral("%1 (%2–%3%)")
        .arg(b.flips)
        .arg(percentText(b.rate.low), percentText(b.rate.high));
}

} // namespace

void nearTies(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("near-ties"), QStringLiteral("Flips at near ties"));
    const auto rows = analysis::nearTies(rv);
    if (rows.empty()) {
        h.p(QStringLiteral("No config has been compared with the reference yet."));
        return;
    }
    std::int64_t flips = 0;
    for (const auto& r : rows) {
        flips += r.flips;
    }
    h.p(QStringLiteral("Do the changed decisions concentrate at near ties? Each config's flipped "
                       "decisions by the reference's |margin| (logit gap, log bins): flips and "
                       "the flip rate's Wilson 95% interval per bin. %1")
            .arg(flips == 0 ? QStringLiteral("No config flipped a decision; the intervals' upper "
                                             "ends bound the flip rate each bin allows.")
                            : QStringLiteral("%1 flipped decisions in all.").arg(flips)));
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img://near-ties")),
                     renderChart(makeNearTieChart(rows), 900, 420));
    h.text += QStringLiteral("<p><img src=\"img://near-ties\" width=\"%1\" height=\"%2\"></p>")
                  .arg(kContentWidth)
                  .arg(kContentWidth * 420 / 900);
    QStringList head{QStringLiteral("config")};
    std::vector<std::size_t> bins;
    for (std::size_t i = 0; i < rows.front().bins.size(); ++i) {
        const auto& b = rows.front().bins[i];
        if (b.items > 0) {
            bins.push_back(i);
            head << QStringLiteral("%1 to %2 (%3 items)")
                        .arg(b.low)
                        .arg(b.high > 1e30 ? QStringLiteral("∞") : QString::number(b.high))
                        .arg(b.items);
        }
    }
    std::vector<QStringList> table;
    for (const auto& r : rows) {
        QStringList cells{esc(QString::fromStdString(r.config))};
        for (std::size_t i : bins) {
            cells << rateCell(r.bins[i]);
        }
        table.push_back(cells);
    }
    h.table(head, table);
}

void accuracyPaths(Html& h, const analysis::Review& rv) {
    std::vector<QStringList> table;
    const auto b = analysis::batchedPath(rv, {});
    if (const auto row = b ? analysis::accuracyRow(rv, *b) : std::nullopt) {
        table.push_back(
            {esc(QString::fromStdString(row->head)), esc(QString::fromStdString(row->batched)),
             formatAccuracy(row->accuracy_batched), formatAccuracy(row->accuracy_reference),
             row->diff ? formatInterval(row->diff->estimate, row->diff->low, row->diff->high)
                       : QStringLiteral("–"),
             formatShare(row->agreement), QString::number(row->flips)});
    }
    if (table.empty()) {
        return;
    }
    h.h2(QStringLiteral("Accuracy: the batched path against one at a time"));
    h.p(QStringLiteral("The first field report's question: does accuracy reproduce when the "
                       "batched path is replaced by one input at a time, and do the decisions? "
                       "The batched path is the first config with a batch size above 1 that "
                       "differs from the reference only in shape. The difference is one at a "
                       "time minus batched, in points, with a paired bootstrap 95% interval."));
    h.table({QStringLiteral("head"), QStringLiteral("batched path"),
             QStringLiteral("accuracy, batched"), QStringLiteral("accuracy, one at a time"),
             QStringLiteral("difference [95%]"), QStringLiteral("decision agreement"),
             QStringLiteral("flips")},
            table);
}

void layers(Html& h, const std::shared_ptr<const analysis::Review>& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("layers"), QStringLiteral("Per-layer divergence"));
    const bool captured = std::any_of(rv->rows.begin(), rv->rows.end(), [](const auto& row) {
        return row.cmp && !row.cmp->layers.empty();
    });
    if (!captured) { // capture none, or a server (it returns no hidden states)
        h.p(QStringLiteral("No run of this study captured hidden states (capture none, or the "
                           "model is a server, which returns none): where the numbers part "
                           "cannot be told layer by layer."));
        return;
    }
    h.p(QStringLiteral("Share of items whose hidden states (real tokens only) differ bitwise from "
                       "the reference run, per config and hidden state (0 = embeddings)."));
    HeatmapWidget heat;
    heat.setReview(rv);
    const int rows = heat.rowTotal();
    const int height = 90 + std::max(1, rows) * 30;
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img://heatmap")),
                     renderWidget(&heat, kContentWidth, height));
    h.text += QStringLiteral("<p><img src=\"img://heatmap\" width=\"%1\" height=\"%2\"></p>")
                  .arg(kContentWidth)
                  .arg(height);
    std::vector<QStringList> table;
    for (const auto& row : rv->rows) {
        if (row.cmp && !row.reference) {
            QStringList firsts;
            for (std::size_t l = 0; l < row.cmp->first_divergent.size(); ++l) {
                if (row.cmp->first_divergent[l] > 0) {
                    firsts << QStringLiteral("%1: %2")
                                  .arg(formatLayer(int(l)))
                                  .arg(row.cmp->first_divergent[l]);
                }
            }
            if (row.cmp->no_divergent_layer > 0 && !row.cmp->layers.empty()) {
                firsts << QStringLiteral("no layer differs: %1").arg(row.cmp->no_divergent_layer);
            }
            table.push_back({esc(row.config), esc(firsts.join(QStringLiteral(", ")))});
        }
    }
    h.h2(QStringLiteral("First divergent layer, items per layer"));
    h.table({QStringLiteral("config"), QStringLiteral("first divergent layer (items)")}, table);
}

void flippedItems(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const QStringList labels = classNames(rv);
    auto name = [&](std::optional<int> k) { return formatClass(labels, k); };
    h.h1(QStringLiteral("flips"), QStringLiteral("Flipped items"));
    bool any = false;
    for (const auto& row : rv.rows) {
        if (!row.cmp || row.reference || row.cmp->flips == 0) {
            continue;
        }
        any = true;
        std::vector<const analysis::ItemDiff*> flips;
        for (const auto& d : row.cmp->diffs) {
            if (d.flip) {
                flips.push_back(&d);
            }
        }
        std::sort(flips.begin(), flips.end(),
                  [](const auto* a, const auto* b) { return a->dpOrder() > b->dpOrder(); });
        h.h2(QStringLiteral("%1: %2 flipped")
                 .arg(QString::fromStdString(row.config))
                 .arg(flips.size()));
        std::vector<QStringList> rows;
        for (std::size_t i = 0; i < flips.size() && int(i) < o.maxFlipRows; ++i) {
            const auto& d = *flips[i];
            const auto& it = rv.items[std::size_t(d.item)];
            rows.push_back(
                {esc(it.id), esc(shortText(it.text)), esc(name(d.label)),
                 esc(name(d.decision_a)) + QStringLiteral(" → ") + esc(name(d.decision_b)),
                 formatProbability(d.p_a), formatProbability(d.p_b), formatMargin(d.margin_a)});
        }
        h.table({QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("label"),
                 QStringLiteral("decision"), QStringLiteral("p (ref)"), QStringLiteral("p (cfg)"),
                 QStringLiteral("margin (ref)")},
                rows);
        if (int(flips.size()) > o.maxFlipRows) {
            h.p(QStringLiteral("… and %1 more (the largest Δp first; the workbench and "
                               "<i>probaudit compare</i> list them all).")
                    .arg(int(flips.size()) - o.maxFlipRows));
        }
    }
    if (!any) {
        h.p(QStringLiteral("No decision flipped under any config."));
    }
}

namespace {

// The p of reference record `r`'s item under config `row`, red and bold where its decision
// differs from the reference's; "–" where the item was not recorded there.
QString boundaryCell(const analysis::Review& rv, const analysis::ReviewRow& row,
                     const ledger::Record& r) {
    const auto* rec = rv.record(row.run->id, r.item);
    if (rec == nullptr) {
        return QStringLiteral("–");
    }
    const int cls = rec->probs.size() == 2 ? 1 : r.decision;
    QString p = nobreak(formatProbability(rec->probs[std::size_t(std::max(0, cls))]));
    if (rec->decision != r.decision) {
        p = QStringLiteral("<b><font color=\"#c62828\">%1</font></b>").arg(p);
    }
    return p;
}

} // namespace

void boundaryItems(Html& h, const analysis::Review& rv) {
    const QStringList labels = classNames(rv);
    auto name = [&](std::optional<int> k) { return formatClass(labels, k); };
    h.h1(QStringLiteral("boundary"), QStringLiteral("The 20 items nearest the boundary"));
    h.p(QStringLiteral("Smallest margins in the reference run, with p under every config (one "
                       "column per config): the items a runtime change flips first."));
    if (!rv.reference_run) {
        return;
    }
    const auto& refRecs = rv.data.at(rv.reference_run->id).records;
    std::vector<const ledger::Record*> near;
    for (const auto& r : refRecs) {
        near.push_back(&r);
    }
    std::sort(near.begin(), near.end(), [](const auto* a, const auto* b) {
        return std::abs(a->margin) < std::abs(b->margin);
    });
    near.resize(std::min<std::size_t>(20, near.size()));
    std::vector<const analysis::ReviewRow*> cols;
    for (const auto& row : rv.rows) {
        if (row.run) {
            cols.push_back(&row);
        }
    }
    // At most five configs per table, each a tenth of the page: more columns than that wrap
    // the numbers and names inside their cells; the items repeat in each table, in order.
    constexpr std::size_t kPerTable = 5;
    for (std::size_t first = 0; first < cols.size(); first += kPerTable) {
        const std::size_t last = std::min(cols.size(), first + kPerTable);
        QStringList head{QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("label"),
                         QStringLiteral("margin")};
        for (std::size_t c = first; c < last; ++c) {
            head << esc(cols[c]->config);
        }
        std::vector<QStringList> rows;
        for (const auto* r : near) {
            const auto& it = rv.items[std::size_t(r->item)];
            QStringList cells{esc(it.id), esc(shortText(it.text, 60)), esc(name(it.label)),
                              nobreak(formatMargin(r->margin))};
            for (std::size_t c = first; c < last; ++c) {
                cells << boundaryCell(rv, *cols[c], *r);
            }
            rows.push_back(cells);
        }
        QStringList widths{QStringLiteral("10%"), QStringLiteral("24%"), QStringLiteral("8%"),
                           QStringLiteral("8%")};
        for (std::size_t c = first; c < last; ++c) {
            widths << QStringLiteral("10%");
        }
        h.table(head, rows, {}, widths);
    }
    h.p(QStringLiteral("<font size=\"-1\">p: the positive class for binary heads, else the "
                       "reference's decision class; red: the decision differs from the "
                       "reference.</font>"));
}

void diagnosis(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("diagnosis"), QStringLiteral("Diagnosis: which suspect explains the gap"));
    if (!rv.diagnosis) {
        h.p(QStringLiteral("No diagnosis is stored in the ledger. <i>probaudit diagnose STUDY "
                           "--ledger LEDGER</i> runs the ladder (loader and repeatability, "
                           "neighbour interference, shape, kernels and runtime, cause)."));
        return;
    }
    const analysis::Diagnosis& d = *rv.diagnosis;
    if (d.recorded_only) {
        h.p(QStringLiteral("Read from the study's recorded runs over all %1 items: a server is "
                           "not probed, its suspects are configs of the study (repeat, "
                           "concurrency, arrival order, prefix cache, seed) and runs of the "
                           "reference against another server runtime.")
                .arg(d.sample));
    } else {
        h.p(QStringLiteral("Probes on a seeded sample of %1 items (seed %2, batch %3); every "
                           "probe run is in the ledger.")
                .arg(d.sample)
                .arg(d.seed)
                .arg(d.batch));
    }
    std::vector<QStringList> steps;
    std::vector<QString> colours;
    int k = 1;
    for (const analysis::LadderStep& st : d.ladder) {
        const QString status = QString::fromLatin1(analysis::statusName(st.status));
        steps.push_back(
            {QString::number(k++), esc(st.step), esc(status), esc(st.finding), esc(st.verdict)});
        colours.push_back(st.status == analysis::StepStatus::Clean      ? QStringLiteral("#dcefdc")
                          : st.status == analysis::StepStatus::Explains ? QStringLiteral("#fbeacd")
                          : st.status == analysis::StepStatus::Untested
                              ? QStringLiteral("#eeeeee")
                              : QStringLiteral("#f6d5d5"));
    }
    h.table({QStringLiteral("#"), QStringLiteral("suspect"), QStringLiteral("status"),
             QStringLiteral("evidence"), QStringLiteral("verdict")},
            steps, colours);
    h.h2(QStringLiteral("Probes"));
    std::vector<QStringList> probes;
    for (const analysis::ProbeRow& r : d.table) {
        probes.push_back({esc(r.what), formatPoints(r.max_dp), esc(r.first_layer),
                          QStringLiteral("%1 / %2").arg(r.flips).arg(r.items),
                          QStringLiteral("%1 / %2")
                              .arg(std::llround(r.bit_identical * double(r.items)))
                              .arg(r.items)});
    }
    h.table({QStringLiteral("what changed"), QStringLiteral("largest Δp"),
             QStringLiteral("first layer that differs"), QStringLiteral("flipped"),
             QStringLiteral("bit-identical")},
            probes);
    std::vector<QStringList> forecast;
    for (const analysis::FlipForecast& f : d.forecast) {
        forecast.push_back(
            {esc(f.config), QString::number(f.predicted_flips, 'f', 1),
             f.observed_flips ? QString::number(*f.observed_flips) : QStringLiteral("not run"),
             f.observed_flips
                 ? QString::number(f.predicted_flips - double(*f.observed_flips), 'f', 1)
                 : QStringLiteral("–")});
    }
    if (!forecast.empty()) {
        h.h2(QStringLiteral("Fragility forecast against the full runs"));
        h.p(QStringLiteral("Predicted from the perturbation each config caused on the %1-item "
                           "probe sample, applied to every reference record; the error is "
                           "predicted minus observed.")
                .arg(d.sample));
        h.table({QStringLiteral("config"), QStringLiteral("predicted flips"),
                 QStringLiteral("observed flips"), QStringLiteral("error")},
                forecast);
    }
}

} // namespace probaudit::ui::reporting
