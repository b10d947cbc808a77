#include "app/probaudit/bundle_cmds.h"

#include "app/probaudit/ledger_cmds.h"

#include "core/analysis/review.h"
#include "core/bundle/bundle.h"
#include "core/bundle/lockfile.h"
#include "core/ledger/signing.h"

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <exception>

namespace probaudit::app {

int runBundle(const BundleArgs& args) {
    QElapsedTimer t;
    t.start();
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        std::fprintf(stderr, "probaudit bundle: %s: no temporary folder for the report\n",
                     args.output.c_str());
        return 1;
    }
    // The lock the bundle packs is the one the report states the pin status against.
    bundle::BundleOptions options;
    options.output = QString::fromStdString(args.output);
    options.studyPath = QString::fromStdString(args.study);
    options.lockPath =
        !args.lock.empty()
            ? QString::fromStdString(args.lock)
            : bundle::findLockFile(QString::fromStdString(args.ledger), options.studyPath);
    if (!options.studyPath.isEmpty()) { // before the report is written
        if (const QString why =
                bundle::studyFileProblem(options.studyPath, QString::fromStdString(args.ledger));
            !why.isEmpty()) {
            std::fprintf(stderr, "probaudit bundle: %s\n", qPrintable(why));
            return 1;
        }
    }
    // The report, by the PDF writer; it names a bad ledger itself. Its own "written" line
    // would name the temporary file: only the bundle's line is printed.
    const std::string pdf = tmp.filePath(QStringLiteral("report.pdf")).toStdString();
    std::vector<std::string> report{args.ledger, "-o", pdf};
    if (!args.head.empty()) {
        report.insert(report.end(), {"--head", args.head});
    }
    if (!options.lockPath.isEmpty()) {
        report.insert(report.end(), {"--lock", options.lockPath.toStdString()});
    }
    if (const int code = runSibling("probaudit-report", report, true); code != 0) {
        return code;
    }
    options.reportPdf = QString::fromStdString(pdf);
    QString error;
    try {
        const auto review = analysis::loadReview(args.ledger, args.head);
        if (!bundle::writeBundle(review, options, &error)) {
            std::fprintf(stderr, "probaudit bundle: %s\n", qPrintable(error));
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "probaudit bundle: %s\n", e.what());
        return 1;
    }
    std::printf("%s (%.1f s)\n", args.output.c_str(), double(t.elapsed()) / 1000.0);
    return 0;
}

int runImport(const ImportArgs& args) {
    bundle::ImportResult r;
    QString error;
    const std::string trusted = args.trust.empty() ? std::string() : readKeyFile(args.trust);
    if (!trusted.empty()) {
        ledger::keyFingerprint(trusted, args.trust); // a file that is no public key: one line
    }
    if (!bundle::importBundle(QString::fromStdString(args.bundle),
                              QString::fromStdString(args.into), &r, &error, {}, trusted)) {
        std::fprintf(stderr, "probaudit import: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s: %d runs imported, %d already there\n", args.into.c_str(), r.imported,
                r.already);
    // Said loudly when nobody vouches for the bundle's ledger: its runs may have been edited
    // and sealed again before it was packed.
    std::fprintf(r.trust_line.find("signed by") != std::string::npos ? stdout : stderr,
                 "%s: the bundle's ledger: %s\n", args.bundle.c_str(), r.trust_line.c_str());
    return 0;
}

} // namespace probaudit::app
