#pragma once
// The diagnosis of an endpoint study, from its recorded runs only (a server is not probed: its
// probes would be configs of the study itself). The ladder:
//   1 repeatability  the reference against its repeats (the same config again, or "repeat")
//   2 serving        configs that change only concurrency, arrival order, prefix cache or seed
//   3 runtime        the reference recorded against another server build, model or declared
//                    setting (the environment fingerprint), each change named with its values
// then every config explained by the suspects it differs in.
#include "core/analysis/diagnosis.h"
#include "core/ledger/ledger.h"
#include "core/runner/diagnose.h"
#include "core/study/study.h"

namespace probaudit::runner {

// The latest finished study run of `configHash` for `head` among `runs`: from `env` only when
// `sameEnv`, else from `env` when there is one there (both ladders explain configs with it).
std::optional<ledger::Run> latestFullRun(const std::vector<ledger::Run>& runs,
                                         const std::string& head, const std::string& configHash,
                                         const std::string& env, bool sameEnv);

// Throws probaudit::Error when the reference has no finished run.
analysis::Diagnosis diagnoseEndpoint(const DiagnoseOptions& o, const study::Study& s,
                                     const HeadSpec& head, ledger::Ledger& led);

} // namespace probaudit::runner
