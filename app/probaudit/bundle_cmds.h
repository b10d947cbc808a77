#pragma once
// Audit bundles from the command line, in this process (core/bundle: Qt Core and QuaZip):
//   probaudit bundle LEDGER -o audit.zip [--study FILE] [--head NAME] [--lock FILE]
//   probaudit import audit.zip --into LEDGER
// The report inside a bundle is written by `probaudit-report` (the Qt PDF writer), the one
// part that needs Qt Gui; everything else (the ledger copy, the manifest, the zip, every check
// of an import) happens here.
#include <string>

namespace probaudit::app {

struct BundleArgs {
    std::string ledger;
    std::string output; // the zip file
    std::string head;   // the head variant of the report ("" = the first with runs)
    std::string study;  // the study file the ledger was recorded from ("" = not packed)
    std::string lock;   // a runtime lock ("" = the one beside the ledger or the study file)
};

struct ImportArgs {
    std::string bundle; // the zip file
    std::string into;   // the ledger to merge into (created when missing)
    std::string trust;  // a public key file: the bundle's chain head must be signed by it
};

// Exit codes: 0 written / imported; 1 refused or failed (one line on stderr saying why).
int runBundle(const BundleArgs& args);
int runImport(const ImportArgs& args);

} // namespace probaudit::app
