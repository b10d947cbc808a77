#pragma once
// The diagnosis ladder of the first field report, automatically, for any model. On a seeded
// sample of the study's items it records probe runs into the ledger and compares them:
//   1 loader and repeatability  the reference config twice (and against its recorded run)
//   2 neighbour interference    same batch size and padded length, only the neighbours change
//   3 shape                     padding added to one input; batch size 1 vs N; pad length L vs L'
//   4 kernels and runtime       attention, threads, dtype, kernel set; runs from other environments
//   5 cause                     each study config that differs, localised against the reference
//                               (runner/localize.h) on its flips, then its largest Δp
// It stops where a verdict is decisive (the reference does not repeat itself; neighbours
// interfere), then explains each recorded study config by the suspects it differs in, and
// forecasts its flips from the reference margins and the probe's logit perturbation (predicted
// against observed). The result is stored in the ledger and returned; nothing is printed.
#include "core/analysis/diagnosis.h"
#include "core/runner/study_session.h"

namespace probaudit::runner {

struct DiagnoseOptions {
    RunOptions run;   // study, ledger, skipBadLines
    std::string head; // "" = the study's first head
    int sample = 32;  // items in the probe sample (rounded down to a multiple of batch)
    int batch = 8;    // N for the batch-size and neighbour probes
    std::uint64_t seed = 1;
    // Items each differing config's cause is localised on (the "cause" rung): -1 = `sample`;
    // 0 = the rung does not run.
    int causeSample = -1;
};

// Throws probaudit::Error on bad input, and when `stop` is raised ("stopped by a signal"); probe
// runs finished before stay in the ledger.
analysis::Diagnosis diagnose(const DiagnoseOptions& o, Events& events,
                             const std::atomic<bool>& stop);

} // namespace probaudit::runner
