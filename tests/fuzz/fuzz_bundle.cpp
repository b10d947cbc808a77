// libFuzzer: audit bundles (zip) imported as `probaudit import` imports them, into a ledger
// that does not exist yet: refused with one sentence (and no target file left behind) or
// merged. A crash, an exception past importBundle, a hang, or a target created by a refused
// import is a finding.
#include "core/bundle/bundle.h"

#include <unistd.h>

#include <QFile>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string base = "/tmp/probaudit-fuzz-bundle-" + std::to_string(getpid());
    const QString zip = QString::fromStdString(base + ".zip");
    const QString into = QString::fromStdString(base + ".ledger");
    QFile out(zip);
    if (!out.open(QIODevice::WriteOnly)) {
        return 0;
    }
    out.write(reinterpret_cast<const char*>(data), qint64(size));
    out.close();
    QFile::remove(into);
    probaudit::bundle::ImportResult result;
    QString error;
    probaudit::bundle::ImportLimits limits; // small, so a crafted entry cannot fill the disk
    limits.maxEntryBytes = qint64(64) << 20;
    limits.maxTotalBytes = qint64(128) << 20;
    const bool ok = probaudit::bundle::importBundle(zip, into, &result, &error, limits);
    if (!ok && (error.isEmpty() || QFile::exists(into))) {
        std::fprintf(stderr, "a refused import %s\n",
                     error.isEmpty() ? "said nothing" : "left its target behind");
        std::abort();
    }
    for (const char* extra : {"", "-wal", "-shm", "-journal"}) {
        QFile::remove(into + QLatin1String(extra));
    }
    QFile::remove(zip);
    return 0;
}
