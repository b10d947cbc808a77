#include "ui/bundle.h"

#include "common/build_info.h"
#include "ledger/ledger.h"
#include "ui/pinstatus.h"
#include "ui/report.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>
#include <zlib.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace probaudit {
namespace ui {

namespace {

QString sha256Of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

// Small files are deflated; large ones (the ledger: float records that barely compress) are
// stored, so a ~100 MB demo ledger packs in about a second instead of four.
constexpr int kLevel = 6;
constexpr qint64 kStoreAbove = 8 << 20;

bool addBytes(QuaZip& zip, const QString& name, const QByteArray& bytes) {
    QuaZipFile out(&zip);
    QuaZipNewInfo info(name);
    info.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                        QFileDevice::ReadOther);
    if (!out.open(QIODevice::WriteOnly, info, nullptr, 0, Z_DEFLATED, kLevel)) {
        return false;
    }
    const bool ok = out.write(bytes) == bytes.size();
    out.close();
    return ok && out.getZipError() == 0;
}

bool addFile(QuaZip& zip, const QString& name, const QString& path) {
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly)) {
        return false;
    }
    QuaZipFile out(&zip);
    QuaZipNewInfo info(name, path);
    info.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                        QFileDevice::ReadOther);
    const bool store = in.size() > kStoreAbove;
    if (!out.open(QIODevice::WriteOnly, info, nullptr, 0, store ? 0 : Z_DEFLATED,
                  store ? 0 : kLevel)) {
        return false;
    }
    bool ok = true;
    while (ok && !in.atEnd()) {
        const QByteArray chunk = in.read(1 << 20);
        ok = out.write(chunk) == chunk.size();
    }
    out.close();
    return ok && out.getZipError() == 0;
}

} // namespace

bool writeBundle(const analysis::Review& review, const BundleOptions& options, QString* error) {
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        *error = QStringLiteral("%1: no temporary folder for the bundle").arg(options.output);
        return false;
    }
    // The files, by their name inside the bundle.
    std::vector<std::pair<QString, QString>> files;
    const QString ledgerCopy = tmp.filePath(QStringLiteral("ledger.ledger"));
    try {
        const ledger::Ledger led(review.path, ledger::Ledger::Mode::Read);
        led.snapshotTo(ledgerCopy.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    files.emplace_back(QStringLiteral("ledger.ledger"), ledgerCopy);
    if (!review.study_path.empty() &&
        QFileInfo::exists(QString::fromStdString(review.study_path))) {
        files.emplace_back(QStringLiteral("study/") +
                               QFileInfo(QString::fromStdString(review.study_path)).fileName(),
                           QString::fromStdString(review.study_path));
    }
    const QString lock =
        !options.lockPath.isEmpty()
            ? options.lockPath
            : findLockFile({QFileInfo(QString::fromStdString(review.path)).path(),
                            review.study_path.empty()
                                ? QString()
                                : QFileInfo(QString::fromStdString(review.study_path)).path()});
    if (!lock.isEmpty()) {
        files.emplace_back(QStringLiteral("runtime.lock.json"), lock);
    }
    const QString report = tmp.filePath(QStringLiteral("report.pdf"));
    ReportOptions ro;
    ro.output = report;
    ro.lockPath = lock;
    if (!writeReport(review, ro, error)) {
        return false;
    }
    files.emplace_back(QStringLiteral("report.pdf"), report);

    QJsonArray listed;
    for (const auto& [name, path] : files) {
        listed.append(QJsonObject{{QStringLiteral("path"), name},
                                  {QStringLiteral("sha256"), sha256Of(path)},
                                  {QStringLiteral("bytes"), QFileInfo(path).size()}});
    }
    const QJsonObject manifest{
        {QStringLiteral("probaudit_bundle"), 1},
        {QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("probaudit"),
         QStringLiteral("%1 (commit %2)")
             .arg(QString::fromLatin1(engineVersion()), QString::fromLatin1(gitCommit()))},
        {QStringLiteral("study"), QString::fromStdString(review.study.value("name", ""))},
        {QStringLiteral("head"), QString::fromStdString(review.head)},
        {QStringLiteral("files"), listed}};

    // Written to a temporary name beside the target, then renamed: no half-written bundle.
    const QString partial = options.output + QStringLiteral(".part");
    QuaZip zip(partial);
    if (!zip.open(QuaZip::mdCreate)) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    bool ok = addBytes(zip, QStringLiteral("MANIFEST.json"),
                       QJsonDocument(manifest).toJson(QJsonDocument::Indented));
    for (const auto& [name, path] : files) {
        ok = ok && addFile(zip, name, path);
    }
    zip.close();
    if (!ok || zip.getZipError() != 0) {
        QFile::remove(partial);
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    QFile::remove(options.output);
    if (!QFile::rename(partial, options.output)) {
        QFile::remove(partial);
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    return true;
}

} // namespace ui
} // namespace probaudit
