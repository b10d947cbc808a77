#include "core/analysis/export.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>

namespace probaudit::analysis {

using nlohmann::json;

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) {
        return s;
    }
    std::string out = "\"";
    for (char ch : s) {
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    }
    return out + "\"";
}

std::string num(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

const std::string& idOf(const std::vector<ledger::Item>& items, std::int64_t i) {
    static const std::string none;
    return i >= 0 && std::size_t(i) < items.size() ? items[std::size_t(i)].id : none;
}

} // namespace

void writeItemsCsv(std::ostream& out, const Comparison& c, const std::vector<ledger::Item>& items) {
    out << "item,id,label,p_a,p_b,dp_points,flip,bit_identical,margin_a,margin_b,decision_a,"
           "decision_b,first_divergent_layer\n";
    for (const auto& d : c.diffs) {
        out << d.item << ',' << csvField(idOf(items, d.item)) << ','
            << (d.label ? std::to_string(*d.label) : std::string()) << ',' << num("%.9g", d.p_a)
            << ',' << num("%.9g", d.p_b) << ',' << num("%.9g", d.dp) << ',' << int(d.flip) << ','
            << int(d.bit_identical) << ',' << num("%.9g", d.margin_a) << ','
            << num("%.9g", d.margin_b) << ',' << d.decision_a << ',' << d.decision_b << ','
            << d.first_divergent_layer << '\n';
    }
}

void writeItemsJsonl(std::ostream& out, const Comparison& c,
                     const std::vector<ledger::Item>& items) {
    for (const auto& d : c.diffs) {
        out << nlohmann::json{{"item", d.item},
                              {"id", idOf(items, d.item)},
                              {"label", d.label ? nlohmann::json(*d.label) : nlohmann::json()},
                              {"p_a", d.p_a},
                              {"p_b", d.p_b},
                              {"dp_points", d.dp},
                              {"flip", d.flip},
                              {"bit_identical", d.bit_identical},
                              {"margin_a", d.margin_a},
                              {"margin_b", d.margin_b},
                              {"decision_a", d.decision_a},
                              {"decision_b", d.decision_b},
                              {"first_divergent_layer", d.first_divergent_layer}}
                   .dump()
            << '\n';
    }
}

json generationComparisonJson(const GenerationComparison& c) {
    json hist = json::array();
    for (int b = 0; b < GapHistogram::kBins; ++b) {
        hist.push_back({{"from", GapHistogram::lowerEdge(b)},
                        {"at_divergence", c.gaps.at_divergence[b]},
                        {"all_steps", c.gaps.all_steps[b]}});
    }
    json items = json::array();
    for (const auto& d : c.items) {
        if (!d.identical || d.jaccard < 1) {
            items.push_back({{"id", d.id},
                             {"first_divergence", d.first_divergence},
                             {"gap_at_divergence", d.gap_at_divergence},
                             {"jaccard", d.jaccard},
                             {"answer_a", d.answer_a},
                             {"answer_b", d.answer_b}});
        }
    }
    return json{{"items", c.items.size()},
                {"identical", c.identical},
                {"records_a", c.records_a},
                {"records_b", c.records_b},
                {"pooled_jaccard", c.pooled_jaccard},
                {"answers", c.has_answers},
                {"answers_agree", c.answers_agree},
                {"gap_histogram", hist},
                {"differing_items", items}};
}

void writeGenerationMarkdown(std::ostream& out, const json& comparisons) {
    if (comparisons.empty()) {
        out << "No two generation runs to compare yet.\n";
        return;
    }
    std::ostringstream o;
    o.setf(std::ios::fixed);
    const bool answers = comparisons.at(0).at("answers").get<bool>();
    o << "| comparison (" << comparisons.at(0).at("items")
      << " prompts, greedy) | records | byte-identical | Jaccard (pooled)";
    o << (answers ? " | answers agree |\n|---|---|---|---|---|\n" : " |\n|---|---|---|---|\n");
    for (const auto& c : comparisons) {
        const auto n = c.at("items").get<std::size_t>();
        const auto same = c.at("identical").get<std::size_t>();
        o << "| " << c.at("name").get<std::string>() << " | " << c.at("records_a") << " / "
          << c.at("records_b") << " | " << same << " / " << n << (same == n ? " (yes)" : " (no)")
          << " | " << std::setprecision(4) << c.at("pooled_jaccard").get<double>();
        if (answers) {
            o << " | " << c.at("answers_agree") << " / " << n;
        }
        o << " |\n";
    }
    // The histogram of the comparison with the most divergent outputs (the first of equals).
    const json* last = &comparisons.at(0);
    for (const auto& c : comparisons) {
        if (c.at("items").get<std::size_t>() - c.at("identical").get<std::size_t>() >
            last->at("items").get<std::size_t>() - last->at("identical").get<std::size_t>()) {
            last = &c;
        }
    }
    std::int64_t steps = 0;
    for (const auto& b : last->at("gap_histogram")) {
        steps += b.at("all_steps").get<std::int64_t>();
    }
    if (steps == 0) { // runs without per-step gaps (a server that returned no log-probabilities)
        o << "\n(No top-2 gaps: the runs carry no log-probabilities per token.)\n";
        out << o.str();
        return;
    }
    o << "\nTop-2 logit gap of the reference (" << last->at("a").get<std::string>()
      << ") where the outputs of \"" << last->at("name").get<std::string>()
      << "\" first diverge, against its gaps at every step (the divergence rate: divergences "
         "per step in the bin, Wilson 95%):\n\n| gap from | at divergence | all steps | "
         "divergence rate |\n|---|---|---|---|\n";
    for (const auto& b : last->at("gap_histogram")) {
        const auto k = b.at("at_divergence").get<std::int64_t>();
        const auto n = b.at("all_steps").get<std::int64_t>();
        o << std::defaultfloat << "| " << b.at("from").get<double>() << " | " << k << " | " << n
          << " | ";
        if (n > 0) {
            const Interval r = wilson(k, n);
            o << std::fixed << std::setprecision(2) << 100 * r.estimate << "% (" << 100 * r.low
              << "–" << 100 * r.high << "%)";
        } else {
            o << "–";
        }
        o << " |\n";
    }
    out << o.str();
}

json generationTableJson(const Review& rv) {
    json rows = json::array();
    for (const auto& g : rv.generation_rows) {
        json c = generationComparisonJson(g.cmp);
        c["name"] = g.b == g.a ? g.a + ", run twice" : g.b + " vs " + g.a;
        c["a"] = g.a;
        c["b"] = g.b;
        c["kind"] = g.kind;
        c["differs_in"] = g.differs_in;
        c["run_a"] = g.run_a;
        c["run_b"] = g.run_b;
        rows.push_back(std::move(c));
    }
    return rows;
}

namespace {

// The distance-to-exact cells of a headline row (a study with a float64 run): "median / max"
// of |p - p_exact| in points, and the share of items where the config is closer than the
// reference. The exact row is "exact", a row not compared is empty.
std::pair<std::string, std::string> exactCells(const Review& rv, const ReviewRow& row) {
    if (row.config == rv.exact_config) {
        return {"exact", "-"};
    }
    if (!row.exact || row.exact->items == 0) {
        return {"-", "-"};
    }
    const ExactDistance& e = *row.exact;
    return {num("%.3g", e.b.median) + " / " + num("%.3g", e.b.max),
            row.reference ? std::string("-") : num("%.0f%%", 100 * e.bCloserShare())};
}

} // namespace

void writeHeadlineMarkdown(std::ostream& out, const Review& rv) {
    if (rv.generation) {
        writeGenerationMarkdown(out, generationTableJson(rv));
        return;
    }
    const bool exact = !rv.exact_config.empty();
    out << "| config | accuracy | agreement with reference | flips | largest Δp (points) | "
           "bit-identical | first divergent layer |"
        << (exact ? " to exact, median / max (points) | closer to exact than the reference |" : "")
        << "\n|---|---|---|---|---|---|---|" << (exact ? "---|---|" : "") << "\n";
    for (const auto& row : rv.rows) {
        if (!row.cmp) {
            out << "| " << row.config << " | not run yet | | | | | |" << (exact ? " | |" : "")
                << "\n";
            continue;
        }
        const auto& c = *row.cmp;
        const std::string acc =
            c.accuracy_b ? std::to_string(*c.accuracy_b).substr(0, 6) : std::string("-");
        char line[512];
        std::snprintf(line, sizeof line, "| %s%s | %s | %.4f | %lld | %.4g | %.1f%% | %s |",
                      row.config.c_str(),
                      row.reference && row.config != "reference" ? " (reference)" : "", acc.c_str(),
                      c.agreement, static_cast<long long>(c.flips), c.max_dp,
                      100 * c.bit_identical_share, row.reference ? "-" : firstLayers(c).c_str());
        out << line;
        if (exact) {
            const auto [distance, closer] = exactCells(rv, row);
            out << ' ' << distance << " | " << closer << " |";
        }
        out << '\n';
    }
}

void writeHeadlineCsv(std::ostream& out, const Review& rv) {
    if (rv.generation) {
        out << "comparison,kind,a,b,run_a,run_b,items,identical,pooled_jaccard,records_a,"
               "records_b,answers_agree\n";
        for (const auto& c : generationTableJson(rv)) {
            out << csvField(c.at("name").get<std::string>()) << ','
                << c.at("kind").get<std::string>() << ',' << csvField(c.at("a").get<std::string>())
                << ',' << csvField(c.at("b").get<std::string>()) << ',' << c.at("run_a") << ','
                << c.at("run_b") << ',' << c.at("items") << ',' << c.at("identical") << ','
                << c.at("pooled_jaccard").get<double>() << ',' << c.at("records_a") << ','
                << c.at("records_b") << ','
                << (c.at("answers").get<bool>() ? c.at("answers_agree").dump() : std::string())
                << '\n';
        }
        return;
    }
    out << "config,reference,run,items,accuracy,accuracy_diff,accuracy_diff_low,"
           "accuracy_diff_high,agreement,flips,max_dp_points,p99_dp_points,bit_identical_share,"
           "first_divergent_layer"
        << (rv.exact_config.empty() ? ""
                                    : ",exact_config,to_exact_median_points,"
                                      "to_exact_p99_points,to_exact_max_points,"
                                      "closer_to_exact_share")
        << "\n";
    for (const auto& row : rv.rows) {
        out << csvField(row.config) << ',' << int(row.reference) << ',';
        if (!row.cmp) {
            out << ",,,,,,,,,,," << (rv.exact_config.empty() ? "" : ",,,,,") << "\n";
            continue;
        }
        const auto& c = *row.cmp;
        out << row.run->id << ',' << c.items << ','
            << (c.accuracy_b ? num("%.9g", *c.accuracy_b) : std::string()) << ','
            << (c.accuracy_diff ? num("%.9g", c.accuracy_diff->estimate) : std::string()) << ','
            << (c.accuracy_diff ? num("%.9g", c.accuracy_diff->low) : std::string()) << ','
            << (c.accuracy_diff ? num("%.9g", c.accuracy_diff->high) : std::string()) << ','
            << num("%.9g", c.agreement) << ',' << c.flips << ',' << num("%.9g", c.max_dp) << ','
            << num("%.9g", c.p99_dp) << ',' << num("%.9g", c.bit_identical_share) << ','
            << csvField(row.reference ? std::string("-") : firstLayers(c));
        if (!rv.exact_config.empty()) {
            out << ',' << csvField(rv.exact_config);
            if (row.exact && row.exact->items > 0) {
                const ExactDistance& e = *row.exact;
                out << ',' << num("%.9g", e.b.median) << ',' << num("%.9g", e.b.p99) << ','
                    << num("%.9g", e.b.max) << ','
                    << (row.reference ? std::string() : num("%.9g", e.bCloserShare()));
            } else {
                out << ",,,,";
            }
        }
        out << '\n';
    }
}

} // namespace probaudit::analysis
