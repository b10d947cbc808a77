#include "analysis/export.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace probaudit::analysis {

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

void writeHeadlineMarkdown(std::ostream& out, const Review& rv) {
    out << "| config | accuracy | agreement with reference | flips | largest Δp (points) | "
           "bit-identical | first divergent layer |\n|---|---|---|---|---|---|---|\n";
    for (const auto& row : rv.rows) {
        if (!row.cmp) {
            out << "| " << row.config << " | not run yet | | | | | |\n";
            continue;
        }
        const auto& c = *row.cmp;
        const std::string acc =
            c.accuracy_b ? std::to_string(*c.accuracy_b).substr(0, 6) : std::string("-");
        char line[512];
        std::snprintf(line, sizeof line, "| %s%s | %s | %.4f | %lld | %.4g | %.1f%% | %s |\n",
                      row.config.c_str(),
                      row.reference && row.config != "reference" ? " (reference)" : "", acc.c_str(),
                      c.agreement, static_cast<long long>(c.flips), c.max_dp,
                      100 * c.bit_identical_share, row.reference ? "-" : firstLayers(c).c_str());
        out << line;
    }
}

void writeHeadlineCsv(std::ostream& out, const Review& rv) {
    out << "config,reference,run,items,accuracy,accuracy_diff,accuracy_diff_low,"
           "accuracy_diff_high,agreement,flips,max_dp_points,p99_dp_points,bit_identical_share,"
           "first_divergent_layer\n";
    for (const auto& row : rv.rows) {
        out << csvField(row.config) << ',' << int(row.reference) << ',';
        if (!row.cmp) {
            out << ",,,,,,,,,,,\n";
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
            << csvField(row.reference ? std::string("-") : firstLayers(c)) << '\n';
    }
}

} // namespace probaudit::analysis
