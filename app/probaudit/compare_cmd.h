#pragma once
// `probaudit compare LEDGER A B [--json | --csv] [--top N] [--near-boundary K]`: the summary
// of two runs (three-level verdict, accuracy with its interval and McNemar's test, flips,
// bit-identity, Δp, first divergent layer, per-layer divergence, margin and Δp histograms,
// kernel-trace diff), the top items by Δp, the flips, and the K smallest-margin items.
#include <string>

namespace probaudit::app {

struct CompareOptions {
    std::string ledger;
    long long a = 0, b = 0;
    bool json = false, csv = false, jsonl = false;
    int top = 10;
    int nearBoundary = 0;
};

int compareRuns(const CompareOptions& o);

// `probaudit summary LEDGER [--head NAME] [--json]`: the headline table of a study, one row
// per config against the reference run: accuracy | agreement with the reference | flips |
// largest Δp | bit-identical share | first divergent layer.
int summarize(const std::string& ledger, const std::string& head, bool asJson, bool asCsv = false);

// `probaudit summary LEDGER --seed-tables [--head NAME] [--batched CONFIG] [--json]`: the field
// reports' tables (analysis/seed_tables.h); `head` first, then every other head variant.
int seedTables(const std::string& ledger, const std::string& head, const std::string& batched,
               bool asJson);

} // namespace probaudit::app
