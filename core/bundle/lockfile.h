#pragma once
// Where a study's runtime lock (`probaudit pin`) is found when none is named: beside the
// ledger, else beside the study file. The bundle packs it, the report states the pin status
// against it, the workbench's pin badge loads it.
#include "core/analysis/review.h"

#include <QString>
#include <QStringList>

namespace probaudit::bundle {

// A lock file in the first of `folders` that has one: runtime.lock.json, else the one
// *.lock.json; "" when none has.
QString findLockFile(const QStringList& folders);
// The lock beside the ledger (LEDGER.runtime.lock.json first), else beside the study file
// ("" when none, or no study file is given).
QString findLockFile(const QString& ledgerPath, const QString& studyPath);
// The same for an open review and the study file it records (for display: the report's cover,
// the workbench's pin badge; the bundle packs only what its caller names).
QString findLockFile(const analysis::Review& review);

} // namespace probaudit::bundle
