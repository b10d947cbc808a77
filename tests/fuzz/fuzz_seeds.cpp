// Writes the seeds of the ledger and bundle fuzzers (not a fuzzer): a small study ledger of
// decision runs, a generation ledger, both signed-free and sealed as `probaudit run` seals
// them, and a bundle of the first. Seeds made by the code under test, so they follow the
// current schema.
//   fuzz_seeds OUT_DIR  ->  OUT_DIR/fuzz_ledger/{decisions,generation}.ledger,
//                            OUT_DIR/fuzz_bundle/decisions.zip
#include "core/analysis/review.h"
#include "core/bundle/bundle.h"
#include "review_fixture.h"

#include <QDir>
#include <QString>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fuzz_seeds OUT_DIR\n");
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    if (!out.mkpath(QStringLiteral("fuzz_ledger")) || !out.mkpath(QStringLiteral("fuzz_bundle"))) {
        std::fprintf(stderr, "fuzz_seeds: %s cannot be written\n", argv[1]);
        return 1;
    }
    try {
        const QString decisions = out.filePath(QStringLiteral("fuzz_ledger/decisions.ledger"));
        const QString generation = out.filePath(QStringLiteral("fuzz_ledger/generation.ledger"));
        QFile::remove(decisions);
        QFile::remove(generation);
        probaudit::testing::Fixture f = probaudit::testing::defaultFixture(6);
        f.layers = 2;
        probaudit::testing::writeFixtureLedger(decisions.toStdString(), f);
        probaudit::testing::writeGenerationFixtureLedger(generation.toStdString(), 4);
        probaudit::bundle::BundleOptions o;
        o.output = out.filePath(QStringLiteral("fuzz_bundle/decisions.zip"));
        QString error;
        if (!probaudit::bundle::writeBundle(
                probaudit::analysis::loadReview(decisions.toStdString()), o, &error)) {
            std::fprintf(stderr, "fuzz_seeds: %s\n", qPrintable(error));
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_seeds: %s\n", e.what());
        return 1;
    }
    return 0;
}
