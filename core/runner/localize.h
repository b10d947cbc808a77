#pragma once
// Counterfactual localisation (`probaudit localize`): for configs A and B of an engine study
// and a sample of items (default: B's flips against A, then the items with the largest Δp), the
// engine reruns the sample under A and B (the baselines, A's hidden states kept in memory), in
// the batches their study runs had, then reruns B with A's hidden state after index k spliced
// in for each item's real tokens (padding positions as B computes them), bisecting k per item;
// then B once per operator class with that class computed as A computes it, and once with a set
// of classes for the items no class explains alone; with `reverse`, A with B's state after the
// index found. Every pass is a probe run in the ledger; the result (analysis/localization.h) is
// stored there too. Nothing is printed.
#include "core/analysis/localization.h"
#include "core/runner/study_session.h"

#include <functional>

namespace probaudit::runner {

struct LocalizeOptions {
    RunOptions run;                 // study, ledger, skipBadLines
    std::string head;               // "" = the study's first head
    std::string a;                  // "" = the study's reference config
    std::string b;                  // required
    std::vector<std::string> items; // item ids; empty = flips, then the largest Δp
    int sample = 32;                // items localised at most
    double threshold = 0.95;        // share of Δp a splice must remove
    bool reverse = false;           // also A with B's state after the index found
};

// What localize() is about to do, before the first pass (the CLI prints the cost).
struct LocalizePlan {
    std::string a, b;
    std::int64_t items = 0;
    int layers = 0;
    int passes = 0; // at most, over the sample (Localization::passBudget)
    bool reverse = false;
};

// Throws probaudit::Error on bad input (configs that cannot be spliced, no recorded runs, no
// difference to localise) and when `stop` is raised ("stopped by a signal"); probe runs
// finished before stay in the ledger.
analysis::Localization localize(const LocalizeOptions& o, Events& events,
                                const std::atomic<bool>& stop,
                                const std::function<void(const LocalizePlan&)>& onPlan = {});

// The same in a session already open on the study (the diagnosis ladder's "cause" rung, whose
// session prepared every config): `head` is the session's; the localisation is stored in its
// ledger. Throws as localize() does; a pass cut off is marked failed in the ledger.
analysis::Localization localizeIn(StudySession& session, const HeadSpec& head,
                                  const LocalizeOptions& o,
                                  const std::function<void(const LocalizePlan&)>& onPlan = {});

} // namespace probaudit::runner
