// The report's "Causes" section (a diagnosis with its "cause" rung): for each config that differs
// from the reference, which operator class in which layer makes the difference, as the
// counterfactual passes measured it: the layer × class heatmap of the share of Δp removed, and
// the cause line of each flipped item.
#include "ui/report/sections.h"

#include "ui/models/format.h"

#include <cmath>

namespace probaudit::ui::reporting {

namespace {

// Rows: the state the difference is complete by; columns: each class's mean share of Δp removed
// (tinted by it) with the items it is the cause of in brackets, and the items a set explains.
void causeGrid(Html& h, const analysis::Localization& l) {
    QStringList head{QStringLiteral("Δp complete by"), QStringLiteral("items"),
                     QStringLiteral("A's state")};
    for (int k = 0; k < kOpClassCount; ++k) {
        // Narrow columns: long words may break at a soft hyphen rather than anywhere.
        QString name = esc(formatOpClass(static_cast<OpClass>(k)));
        for (const char* word : {"embed", "projec", "atten", "resid"}) {
            const QString w = QString::fromLatin1(word);
            name.replace(w, w + QChar(0x00AD));
        }
        head << name;
    }
    head << QStringLiteral("a set");
    std::vector<QStringList> rows, colours;
    for (const analysis::CauseRow& r : analysis::causeTable(l)) {
        QStringList row{esc(r.where), QString::number(r.items),
                        QStringLiteral("%1%").arg(std::lround(100.0 * r.mean_removed))};
        QStringList tint{QString(), QString(), heatColour(r.mean_removed)};
        for (std::size_t k = 0; k < std::size_t(kOpClassCount); ++k) {
            row << QStringLiteral("%1% (%2)")
                       .arg(std::lround(100.0 * r.class_removed[k]))
                       .arg(r.class_items[k]);
            tint << heatColour(r.class_removed[k]);
        }
        row << QStringLiteral("(%1)").arg(r.set_items);
        tint << QString();
        rows.push_back(row);
        colours.push_back(tint);
    }
    QStringList widths{QStringLiteral("10%"), QStringLiteral("6%"), QStringLiteral("7%")};
    for (int k = 0; k < kOpClassCount; ++k) {
        widths << QStringLiteral("8.4%");
    }
    widths << QStringLiteral("4%");
    h.grid(head, rows, colours, widths);
}

// The items whose lines the report prints: the flips, or the largest Δp where nothing flipped.
std::vector<const analysis::ItemCause*> shownItems(const analysis::Localization& l) {
    std::vector<const analysis::ItemCause*> flips;
    const analysis::ItemCause* largest = nullptr;
    for (const auto& c : l.items) {
        if (c.flip()) {
            flips.push_back(&c);
        }
        if (c.status != analysis::CauseStatus::NoDifference &&
            (largest == nullptr || c.dp() > largest->dp())) {
            largest = &c;
        }
    }
    if (flips.empty() && largest != nullptr) {
        flips.push_back(largest);
    }
    return flips;
}

// The share a splice must remove: the localisations'. All of a diagnosis's share one.
double threshold(const analysis::Diagnosis& d) {
    for (const auto& c : d.causes) {
        if (c.localization) {
            return c.localization->threshold;
        }
    }
    return 0.95;
}

} // namespace

void causes(Html& h, const analysis::Review& rv) {
    if (!rv.diagnosis || rv.diagnosis->causes.empty()) {
        return;
    }
    const analysis::Diagnosis& d = *rv.diagnosis;
    h.h1(QStringLiteral("causes"), QStringLiteral("Causes: which operation makes each difference"));
    h.p(QStringLiteral(
            "The diagnosis's fifth rung. For each config whose run differs from the reference "
            "<b>%1</b> (A), B ran again on its flips, then its largest Δp (up to %2 items): first "
            "with A's hidden state after a layer spliced in, bisecting for the state by which the "
            "difference is complete; then once per operator class, with that class computed as A "
            "computes it (A's dtype, kernels, attention and threads, on the item's own tokens) in "
            "every layer. A class is an item's cause when that removes %3% of its Δp and, for a "
            "flip, gives back A's decision; where no class does alone, a set of classes is tried "
            "together. Each cell: the mean share of Δp the class's splice removes over the row's "
            "items, darker for more, and in brackets the items it is the cause of. Every pass is "
            "a probe run in the ledger.")
            .arg(esc(d.reference))
            .arg(d.cause_sample > 0 ? d.cause_sample : d.sample)
            .arg(std::lround(100.0 * threshold(d))));
    for (const analysis::ConfigCause& c : d.causes) {
        h.h2(QStringLiteral("%1 against %2")
                 .arg(QString::fromStdString(c.config), QString::fromStdString(d.reference)));
        if (!c.localization) {
            h.p(QStringLiteral("Not localised: %1.").arg(esc(c.not_localised)));
            continue;
        }
        const analysis::Localization& l = *c.localization;
        h.p(esc(analysis::causeSummary(l)) + QStringLiteral("."));
        causeGrid(h, l);
        QString lines;
        for (const auto* item : shownItems(l)) {
            lines += QStringLiteral("<li>%1</li>").arg(esc(analysis::causeLine(*item, l)));
        }
        if (!lines.isEmpty()) {
            h.text += QStringLiteral("<ul>%1</ul>").arg(lines);
        }
    }
}

} // namespace probaudit::ui::reporting
