#pragma once
// The audit bundle (issue "Reports and audit bundles"): one zip (QuaZip) with the ledger (a
// consistent copy), the study file, the runtime lock if there is one, the PDF report, and
// MANIFEST.json listing the SHA-256 and size of every other file and the ledger's chain head
// and signer, so someone else can check what they were given; and importing one back into a
// ledger. Qt Core and QuaZip only (no Gui,
// no Widgets): the one place core/ uses Qt, so that `probaudit bundle` and `probaudit import`
// run in the CLI's own process. The report itself is written by the PDF writer (ui/report),
// which needs Qt Gui; a bundle takes it as a finished file.
#include "core/analysis/review.h"

#include <QString>

namespace probaudit::bundle {

struct BundleOptions {
    QString output;   // the zip file
    QString lockPath; // a runtime lock to include ("" = the one beside the ledger or studyPath)
    // The study file the ledger was recorded from, named by the caller ("" = none packed; the
    // study itself is in the ledger). Never taken from the ledger's rows: its SHA-256 must equal
    // the digest the ledger recorded when its runs were made, or the bundle is refused.
    QString studyPath;
    QString reportPdf; // the PDF report, already written, packed as report.pdf ("" = none)
};

// "" when `study` is the study file the ledger was recorded from (its SHA-256 equals the digest
// the ledger recorded with its runs), else why not (one sentence). Throws nothing.
QString studyFileProblem(const QString& study, const QString& ledgerPath);

// Writes the bundle; false with `error` set (one sentence naming the file) when it cannot.
bool writeBundle(const analysis::Review& review, const BundleOptions& options, QString* error);

struct ImportLimits {
    qint64 maxEntryBytes = qint64(8) << 30; // one file, uncompressed
    qint64 maxTotalBytes = qint64(16) << 30;
    double maxRatio = 100; // uncompressed / compressed, per entry (a zip bomb has ~1000)
};

struct ImportResult {
    int imported = 0;       // runs copied in
    int already = 0;        // runs the target already had
    std::string trust_line; // the bundle's ledger: "verified, signed by …" / "verified, UNSIGNED …"
};

// Checks a bundle and merges its finished runs into `intoLedger` (created when missing):
// every entry name is relative and clean, no links, no duplicates, MANIFEST.json present and
// every file's size and SHA-256 as it says, no entry past the limits, the ledger's hash chain
// intact, its signatures valid and (with `trustedPublicPem`) its chain head signed by that
// key. Everything is checked, inside a temporary folder, before the target is opened for
// writing; a refusal leaves it exactly as it was. False with `error` (one sentence) on refusal.
bool importBundle(const QString& bundle, const QString& intoLedger, ImportResult* result,
                  QString* error, const ImportLimits& limits = {},
                  const std::string& trustedPublicPem = std::string());

} // namespace probaudit::bundle
