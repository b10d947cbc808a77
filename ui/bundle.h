#pragma once
// The audit bundle (issue "Reports and audit bundles"): one zip (QuaZip) with the ledger (a
// consistent copy), the study file, the runtime lock if there is one, the PDF report, and
// MANIFEST.json listing the SHA-256 and size of every other file, so someone else can check
// what they were given. Importing a bundle is a later slice.
#include "analysis/review.h"

#include <QString>

namespace probaudit {
namespace ui {

struct BundleOptions {
    QString output;   // the zip file
    QString lockPath; // a runtime lock to include ("" = the one beside the ledger or study)
};

// Writes the bundle; false with `error` set (one sentence naming the file) when it cannot.
bool writeBundle(const analysis::Review& review, const BundleOptions& options, QString* error);

} // namespace ui
} // namespace probaudit
