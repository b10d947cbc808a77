#include "core/analysis/seed_tables.h"

#include "core/analysis/export.h"
#include "core/common/axes.h"
#include "core/common/error.h"

#include <cstdio>
#include <iomanip>
#include <sstream>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

std::string edgeText(double x) {
    if (x > 1e30) {
        return "inf";
    }
    std::ostringstream o;
    o << x;
    return o.str();
}

std::string binText(const NearTieBin& b) {
    return b.high > 1e30 ? ">= " + edgeText(b.low)
                         : "[" + edgeText(b.low) + ", " + edgeText(b.high) + ")";
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, share == 0 || share == 1 ? "%.0f" : "%.1f", 100 * share);
    return buf;
}

// "k (rate%, low–high%)", or "–" without items.
std::string rateCell(const NearTieBin& b) {
    if (b.items == 0) {
        return "–";
    }
    return std::to_string(b.flips) + " (" + percent(b.rate.estimate) + "%, " + percent(b.rate.low) +
           "–" + percent(b.rate.high) + "%)";
}

// Flips of `row` in bins below `edge` (reference |margin| < edge).
std::int64_t flipsBelow(const NearTieRow& row, double edge) {
    std::int64_t k = 0;
    for (const auto& b : row.bins) {
        k += b.high <= edge ? b.flips : 0;
    }
    return k;
}

std::string valueText(const std::optional<double>& v) {
    if (!v) {
        return "–";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", *v);
    return buf;
}

} // namespace

std::vector<NearTieRow> nearTies(const Review& rv) {
    std::vector<NearTieRow> out;
    for (const auto& r : rv.rows) {
        if (r.reference || !r.cmp || !r.run) {
            continue;
        }
        NearTieRow row{r.config, r.run->id, r.cmp->items, r.cmp->flips, {}};
        for (const Bin& b : r.cmp->margin_bins) {
            row.bins.push_back({b.low, b.high, b.count, b.flips, wilson(b.flips, b.count)});
        }
        out.push_back(std::move(row));
    }
    return out;
}

void writeNearTiesMarkdown(std::ostream& out, const std::vector<NearTieRow>& rows) {
    if (rows.empty()) {
        out << "No config has been compared with the reference yet.\n";
        return;
    }
    std::ostringstream o;
    o << "Flips at near ties: each config's flipped decisions by the reference's |margin| (logit "
         "gap), with the flip rate and its Wilson 95% interval.\n\n| reference margin (absolute "
         "logit gap) | items";
    for (const auto& r : rows) {
        o << " | " << r.config;
    }
    o << " |\n|---|---";
    for (std::size_t k = 0; k < rows.size(); ++k) {
        o << "|---";
    }
    o << "|\n";
    const auto& first = rows.front().bins;
    for (std::size_t i = 0; i < first.size(); ++i) {
        if (first[i].items == 0) {
            continue;
        }
        o << "| " << binText(first[i]) << " | " << first[i].items;
        for (const auto& r : rows) {
            o << " | " << rateCell(r.bins[i]);
        }
        o << " |\n";
    }
    std::int64_t flips = 0, near = 0, veryNear = 0;
    for (const auto& r : rows) {
        flips += r.flips;
        near += flipsBelow(r, 1.0);
        veryNear += flipsBelow(r, 0.1);
    }
    o << "\n";
    if (flips == 0) {
        o << "No config flipped a decision; the upper ends of the intervals bound the flip rate "
             "each bin allows.\n";
    } else {
        o << flips << " flipped decision" << (flips == 1 ? "" : "s") << " in all: " << veryNear
          << " at a reference |margin| below 0.1, " << near << " below 1.\n";
    }
    out << o.str();
}

json nearTiesJson(const std::vector<NearTieRow>& rows) {
    json out = json::array();
    for (const auto& r : rows) {
        json bins = json::array();
        for (const auto& b : r.bins) {
            bins.push_back({{"low", b.low},
                            {"high", b.high > 1e30 ? json() : json(b.high)},
                            {"items", b.items},
                            {"flips", b.flips},
                            {"rate", b.rate.estimate},
                            {"rate_low", b.rate.low},
                            {"rate_high", b.rate.high}});
        }
        out.push_back({{"config", r.config},
                       {"run", r.run},
                       {"items", r.items},
                       {"flips", r.flips},
                       {"bins", bins}});
    }
    return out;
}

Interval divergenceRate(const GenerationComparison& c, int bin) {
    return wilson(c.gaps.at_divergence[bin], c.gaps.all_steps[bin]);
}

std::optional<std::string> batchedPath(const Review& rv, const std::string& wanted) {
    if (!wanted.empty()) {
        const ReviewRow* r = rv.row(wanted);
        if (r == nullptr) {
            throw Error(rv.path, "the study has no config \"" + wanted + "\"");
        }
        if (!r->run) {
            throw Error(rv.path, "config \"" + wanted + "\" has no finished run of head \"" +
                                     rv.head + "\"");
        }
        return wanted;
    }
    for (const auto& r : rv.rows) {
        if (r.reference || !r.run || r.differs_in.empty() ||
            r.config_json.value("batch_size", 1) <= 1) {
            continue;
        }
        if (suspectsOf(r.differs_in) == std::vector<std::string>{"shape"}) {
            return r.config;
        }
    }
    return std::nullopt;
}

std::optional<AccuracyRow> accuracyRow(const Review& rv, const std::string& batched) {
    const ReviewRow* r = rv.row(batched);
    if (r == nullptr || !r->cmp) {
        return std::nullopt;
    }
    const Comparison& c = *r->cmp; // A: the reference, B: the batched path
    AccuracyRow row{rv.head,      batched,      c.items,     c.labelled, c.accuracy_b,
                    c.accuracy_a, std::nullopt, c.agreement, c.flips};
    if (c.accuracy_diff) {
        row.diff =
            Interval{0.0 - c.accuracy_diff->estimate, 0.0 - c.accuracy_diff->high,
                     0.0 - c.accuracy_diff->low}; // 0.0 - x, not -x: no difference reads 0, not -0
    }
    return row;
}

namespace {

// One row per head with a batched path. `wanted` is checked against the first head (an error
// names it); another head without a finished run of it has no row.
std::vector<AccuracyRow> accuracyRows(const std::vector<const Review*>& reviews,
                                      const std::string& wanted) {
    std::vector<AccuracyRow> rows;
    for (std::size_t k = 0; k < reviews.size(); ++k) {
        const Review& rv = *reviews[k];
        if (k > 0 && !wanted.empty() && (rv.row(wanted) == nullptr || !rv.row(wanted)->run)) {
            continue;
        }
        if (const auto b = batchedPath(rv, wanted)) {
            if (auto row = accuracyRow(rv, *b)) {
                rows.push_back(std::move(*row));
            }
        }
    }
    return rows;
}

void writeShapeTable(std::ostringstream& o, const Review& rv) {
    o << "## (a) What changed: the shape table (head \"" << rv.head << "\")\n\n";
    if (!rv.diagnosis) {
        o << "No diagnosis is stored for this head: `probaudit diagnose STUDY --ledger "
             "LEDGER` runs the probes this table reports.\n\n";
        return;
    }
    const Diagnosis& d = *rv.diagnosis;
    o << "| what changed | largest probability gap (points) | first layer that differs | flipped "
         "decisions |\n|---|---|---|---|\n";
    for (const auto& p : d.table) {
        if (p.step == "neighbours" || p.step == "shape") {
            o << "| " << p.what << " | " << formatPoints(p.max_dp) << " | " << p.first_layer
              << " | " << p.flips << " |\n";
        }
    }
    o << "\nA diagnostic on " << d.sample << " items (seed " << d.seed << ", batch " << d.batch
      << ").\n\n";
}

void writeAccuracyTable(std::ostringstream& o, const std::vector<const Review*>& reviews,
                        const std::string& wanted) {
    o << "## (b) Accuracy: the batched path against one at a time\n\n";
    const std::vector<AccuracyRow> rows = accuracyRows(reviews, wanted);
    if (rows.empty()) {
        o << "No config of the study is a batched path (batch size above 1, differing from the "
             "reference only in shape) with a finished run; `--batched CONFIG` names one.\n\n";
        return;
    }
    o << "| head | batched path | accuracy, batched | accuracy, one at a time | difference (95% "
         "interval) | decision agreement | flips |\n|---|---|---|---|---|---|---|\n";
    for (const auto& r : rows) {
        o << "| " << r.head << " | " << r.batched << " | " << valueText(r.accuracy_batched) << " | "
          << valueText(r.accuracy_reference) << " | ";
        if (r.diff) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%+.2f points (%+.2f to %+.2f)", 100 * r.diff->estimate,
                          100 * r.diff->low, 100 * r.diff->high);
            o << buf;
        } else {
            o << "– (no labels)";
        }
        o << " | " << std::fixed << std::setprecision(4) << r.agreement << std::defaultfloat
          << " | " << r.flips << " |\n";
    }
    o << "\nThe difference is one at a time minus batched, a paired bootstrap over the items.\n\n";
}

} // namespace

void writeSeedTablesMarkdown(std::ostream& out, const std::vector<const Review*>& reviews,
                             const std::string& batched) {
    if (reviews.empty()) {
        out << "No head variant has a finished run.\n";
        return;
    }
    std::ostringstream o;
    const Review& first = *reviews.front();
    if (first.generation) {
        o << "## (c) Concurrency: records, byte-identity and Jaccard\n\n";
        writeGenerationMarkdown(o, generationTableJson(first));
        out << o.str();
        return;
    }
    writeShapeTable(o, first);
    writeAccuracyTable(o, reviews, batched);
    o << "## Flips at near ties (head \"" << first.head << "\")\n\n";
    writeNearTiesMarkdown(o, nearTies(first));
    out << o.str();
}

json seedTablesJson(const std::vector<const Review*>& reviews, const std::string& batched) {
    json out = json::object();
    if (reviews.empty()) {
        return out;
    }
    const Review& first = *reviews.front();
    if (first.generation) {
        out["concurrency"] = generationTableJson(first);
        return out;
    }
    json shape = json::array();
    if (first.diagnosis) {
        for (const auto& p : first.diagnosis->table) {
            if (p.step == "neighbours" || p.step == "shape") {
                shape.push_back({{"what", p.what},
                                 {"max_dp", p.max_dp},
                                 {"first_layer", p.first_layer},
                                 {"flips", p.flips},
                                 {"items", p.items}});
            }
        }
    }
    json accuracy = json::array();
    for (const auto& r : accuracyRows(reviews, batched)) {
        const AccuracyRow* row = &r;
        json j{{"head", row->head},         {"batched", row->batched},     {"items", row->items},
               {"labelled", row->labelled}, {"agreement", row->agreement}, {"flips", row->flips}};
        j["accuracy_batched"] = row->accuracy_batched ? json(*row->accuracy_batched) : json();
        j["accuracy_reference"] = row->accuracy_reference ? json(*row->accuracy_reference) : json();
        if (row->diff) {
            j["difference"] = {{"estimate", row->diff->estimate},
                               {"low", row->diff->low},
                               {"high", row->diff->high}};
        }
        accuracy.push_back(std::move(j));
    }
    out["shape"] = first.diagnosis ? shape : json();
    out["accuracy"] = accuracy;
    out["near_ties"] = nearTiesJson(nearTies(first));
    return out;
}

} // namespace probaudit::analysis
