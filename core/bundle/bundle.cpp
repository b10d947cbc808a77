#include "core/bundle/bundle.h"

#include "core/bundle/lockfile.h"
#include "core/common/build_info.h"
#include "core/common/file_digest.h"
#include "core/ledger/ledger.h"
#include "core/ledger/model_identity.h"
#include "core/ledger/policy_record.h"
#include "core/ledger/trust.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipfileinfo.h>
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
#include <QSet>
#include <QTemporaryDir>

#include <sys/stat.h>

namespace probaudit::bundle {

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

namespace {

// The files of a bundle, by their name inside it, in the order they are packed.
using Files = std::vector<std::pair<QString, QString>>;

// The study file the caller named, when it is the one the ledger was recorded from (the
// digest the ledger sealed); "" or why not.
QString checkStudyFile(const QString& study, const ledger::Ledger& led) {
    const std::string recorded = led.meta("study_sha256");
    if (recorded.empty()) {
        return QStringLiteral("%1: the ledger records no digest of its study file (its runs were "
                              "made by an older ProbAudit), so the file cannot be checked; leave "
                              "it out (the study itself is in the ledger)")
            .arg(study);
    }
    std::string actual;
    try {
        actual = fileSha256(study.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (actual != recorded) {
        return QStringLiteral("%1 is not the study file this ledger was recorded from (its SHA-256 "
                              "%2 differs from the recorded %3)")
            .arg(study, QString::fromStdString(actual.substr(0, 16)),
                 QString::fromStdString(recorded.substr(0, 16)));
    }
    return {};
}

// The ledger (a consistent copy into `tmp`), the study file, the lock, the report: only files
// the caller named or the ledger's own folder holds, never a path read from a ledger row.
bool collectFiles(const analysis::Review& review, const BundleOptions& options,
                  const QTemporaryDir& tmp, Files* files, QString* error) {
    const QString ledgerCopy = tmp.filePath(QStringLiteral("ledger.ledger"));
    try {
        const ledger::Ledger led(review.path, ledger::Ledger::Mode::Read);
        led.snapshotTo(ledgerCopy.toStdString());
        const ledger::Ledger copy(ledgerCopy.toStdString(), ledger::Ledger::Mode::Read);
        if (!options.studyPath.isEmpty()) {
            if (QString why = checkStudyFile(options.studyPath, copy); !why.isEmpty()) {
                *error = why;
                return false;
            }
        }
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    files->emplace_back(QStringLiteral("ledger.ledger"), ledgerCopy);
    if (!options.studyPath.isEmpty()) {
        files->emplace_back(QStringLiteral("study/") + QFileInfo(options.studyPath).fileName(),
                            options.studyPath);
    }
    const QString lock = !options.lockPath.isEmpty()
                             ? options.lockPath
                             : findLockFile(QString::fromStdString(review.path), options.studyPath);
    if (!lock.isEmpty()) {
        files->emplace_back(QStringLiteral("runtime.lock.json"), lock);
    }
    if (!options.reportPdf.isEmpty()) {
        if (!QFileInfo::exists(options.reportPdf)) {
            *error = QStringLiteral("%1: no such report").arg(options.reportPdf);
            return false;
        }
        files->emplace_back(QStringLiteral("report.pdf"), options.reportPdf);
    }
    return true;
}

// The ledger's chain head and who signed it, as the bundle's reader will find them.
QJsonObject chainOf(const QString& ledgerCopy) {
    const ledger::Ledger led(ledgerCopy.toStdString(), ledger::Ledger::Mode::Read);
    const ledger::Trust t = ledger::assessTrust(led);
    QJsonObject j{{QStringLiteral("state"), QString::fromLatin1(t.stateName())}};
    if (t.verify.head) {
        j[QStringLiteral("head")] = QString::fromStdString(t.verify.head->text());
    }
    if (t.state == ledger::Trust::State::Signed) {
        j[QStringLiteral("signed_by")] = QString::fromStdString(t.fingerprint);
    }
    return j;
}

QJsonObject manifestOf(const analysis::Review& review, const Files& files) {
    QJsonArray listed;
    for (const auto& [name, path] : files) {
        listed.append(QJsonObject{{QStringLiteral("path"), name},
                                  {QStringLiteral("sha256"), sha256Of(path)},
                                  {QStringLiteral("bytes"), QFileInfo(path).size()}});
    }
    return QJsonObject{
        {QStringLiteral("probaudit_bundle"), 1},
        {QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("probaudit"),
         QStringLiteral("%1 (commit %2)")
             .arg(QString::fromLatin1(engineVersion()), QString::fromLatin1(gitCommit()))},
        {QStringLiteral("study"), QString::fromStdString(review.facts.name)},
        {QStringLiteral("head"), QString::fromStdString(review.head)},
        {QStringLiteral("chain"), chainOf(files.front().second)},
        {QStringLiteral("files"), listed}};
}

// Written to a temporary name beside the target, then renamed: no half-written bundle.
bool writeZip(const QString& output, const QJsonObject& manifest, const Files& files) {
    const QString partial = output + QStringLiteral(".part");
    QuaZip zip(partial);
    if (!zip.open(QuaZip::mdCreate)) {
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
        return false;
    }
    QFile::remove(output);
    if (!QFile::rename(partial, output)) {
        QFile::remove(partial);
        return false;
    }
    return true;
}

} // namespace

QString studyFileProblem(const QString& study, const QString& ledgerPath) {
    try {
        const ledger::Ledger led(ledgerPath.toStdString(), ledger::Ledger::Mode::Read);
        return checkStudyFile(study, led);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

bool writeBundle(const analysis::Review& review, const BundleOptions& options, QString* error) {
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        *error = QStringLiteral("%1: no temporary folder for the bundle").arg(options.output);
        return false;
    }
    Files files;
    if (!collectFiles(review, options, tmp, &files, error)) {
        return false;
    }
    if (!writeZip(options.output, manifestOf(review, files), files)) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    return true;
}

namespace {

bool cleanName(const QString& name) {
    if (name.isEmpty() || name.startsWith(u'/') || name.startsWith(u'\\') || name.contains(u'\\') ||
        (name.size() > 1 && name[1] == u':')) {
        return false;
    }
    for (const QString& part : name.split(u'/')) {
        if (part.isEmpty() || part == QLatin1String("..") || part == QLatin1String(".")) {
            return false;
        }
    }
    return true;
}

// A folder entry ("study/", as `zip -r` adds them): empty, a clean name before its slash.
// Accepted and skipped: a bundle repacked by hand has them, and they hold nothing.
bool folderEntry(const QuaZipFileInfo64& info) {
    return info.name.endsWith(u'/') && info.uncompressedSize == 0 &&
           cleanName(info.name.chopped(1)) && ((info.externalAttr >> 16) & S_IFMT) != S_IFLNK;
}

// 1. The entries: names, links, duplicates, sizes, ratios. "" when they pass, else why not.
// The sizes here are the ones the archive declares; extraction counts the bytes it actually
// inflates and stops at the declared size and the limit (a header that lies is refused there).
QString checkEntries(const QList<QuaZipFileInfo64>& infos, const ImportLimits& limits,
                     QSet<QString>* names) {
    qint64 total = 0;
    for (const auto& info : infos) {
        if (folderEntry(info)) {
            continue;
        }
        if (!cleanName(info.name)) {
            return QStringLiteral("entry \"%1\" is not a plain relative path").arg(info.name);
        }
        if (names->contains(info.name)) {
            return QStringLiteral("entry \"%1\" appears twice").arg(info.name);
        }
        names->insert(info.name);
        const quint32 mode = info.externalAttr >> 16;
        if ((mode & S_IFMT) == S_IFLNK) {
            return QStringLiteral("entry \"%1\" is a symbolic link").arg(info.name);
        }
        if (qint64(info.uncompressedSize) > limits.maxEntryBytes) {
            return QStringLiteral("entry \"%1\" expands past the size limit").arg(info.name);
        }
        if (info.uncompressedSize > 0 &&
            double(info.uncompressedSize) >
                limits.maxRatio * std::max<double>(1.0, double(info.compressedSize))) {
            return QStringLiteral("entry \"%1\" has a compression ratio over %2 (a zip bomb?)")
                .arg(info.name)
                .arg(limits.maxRatio);
        }
        total += qint64(info.uncompressedSize);
        if (total > limits.maxTotalBytes) {
            return QStringLiteral("the archive expands past the size limit");
        }
    }
    if (!names->contains(QStringLiteral("MANIFEST.json"))) {
        return QStringLiteral("it has no MANIFEST.json");
    }
    return {};
}

struct Extracted {
    QMap<QString, QString> paths;   // name -> temp path
    QMap<QString, QString> digests; // name -> sha256 of what was extracted
};

// One entry into `path`, never past the size the archive declares. "" or why not.
QString extractEntry(QuaZip& zip, const QuaZipFileInfo64& info, const ImportLimits& limits,
                     const QString& path, QString* digest) {
    if (!zip.setCurrentFile(info.name)) {
        return QStringLiteral("entry \"%1\" cannot be found").arg(info.name);
    }
    QuaZipFile in(&zip);
    if (!in.open(QIODevice::ReadOnly)) {
        return QStringLiteral("entry \"%1\" cannot be read").arg(info.name);
    }
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        return QStringLiteral("no room to extract \"%1\"").arg(info.name);
    }
    QCryptographicHash h(QCryptographicHash::Sha256);
    qint64 written = 0;
    while (true) {
        const QByteArray chunk = in.read(1 << 20);
        if (chunk.isEmpty()) {
            break;
        }
        written += chunk.size();
        if (written > qint64(info.uncompressedSize) || written > limits.maxEntryBytes) {
            return QStringLiteral("entry \"%1\" expands past its declared size").arg(info.name);
        }
        h.addData(chunk);
        out.write(chunk);
    }
    in.close();
    if (in.getZipError() != 0 || written != qint64(info.uncompressedSize)) {
        return QStringLiteral("entry \"%1\" is damaged or truncated").arg(info.name);
    }
    *digest = QString::fromLatin1(h.result().toHex());
    return {};
}

// 2. Every entry into a temporary folder. "" or why not.
QString extractEntries(QuaZip& zip, const QList<QuaZipFileInfo64>& infos,
                       const ImportLimits& limits, const QTemporaryDir& tmp, Extracted* out) {
    for (const auto& info : infos) {
        if (folderEntry(info)) {
            continue;
        }
        const QString path = tmp.filePath(QStringLiteral("f%1").arg(out->paths.size()));
        QString digest;
        const QString why = extractEntry(zip, info, limits, path, &digest);
        if (!why.isEmpty()) {
            return why;
        }
        out->paths.insert(info.name, path);
        out->digests.insert(info.name, digest);
    }
    return {};
}

// 3. The manifest: every file listed, present, of its size and SHA-256; nothing unlisted.
QString checkManifest(const Extracted& ex, const QSet<QString>& names) {
    QFile mf(ex.paths.value(QStringLiteral("MANIFEST.json")));
    mf.open(QIODevice::ReadOnly);
    const QJsonObject manifest = QJsonDocument::fromJson(mf.readAll()).object();
    if (manifest.value(u"probaudit_bundle").toInt() != 1 || !manifest.value(u"files").isArray()) {
        return QStringLiteral("MANIFEST.json is not a ProbAudit bundle manifest");
    }
    QSet<QString> listed;
    for (const auto& v : manifest.value(u"files").toArray()) {
        const QJsonObject f = v.toObject();
        const QString name = f.value(u"path").toString();
        listed.insert(name);
        if (!ex.paths.contains(name)) {
            return QStringLiteral("\"%1\" is in the manifest but not in the archive").arg(name);
        }
        if (ex.digests.value(name) != f.value(u"sha256").toString() ||
            QFileInfo(ex.paths.value(name)).size() != f.value(u"bytes").toInteger(-1)) {
            return QStringLiteral("\"%1\" does not match its SHA-256 in the manifest").arg(name);
        }
    }
    for (const QString& name : names) {
        if (name != QLatin1String("MANIFEST.json") && !listed.contains(name)) {
            return QStringLiteral("\"%1\" is not in the manifest").arg(name);
        }
    }
    if (!ex.paths.contains(QStringLiteral("ledger.ledger"))) {
        return QStringLiteral("it holds no ledger.ledger");
    }
    return {};
}

// Items match one by one: the same id at the same position with the same text and label (a
// record names its item by position, and its seal with it). Another dataset file holding the
// same items (re-encoded, another format) matches; "" when they do, else the first that does
// not.
QString itemsDiffer(const std::vector<ledger::Item>& theirs,
                    const std::vector<ledger::Item>& ours) {
    const std::size_t n = std::min(theirs.size(), ours.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto& a = theirs[i];
        const auto& b = ours[i];
        const QString which =
            QStringLiteral("item %1 (id \"%2\")").arg(i).arg(QString::fromStdString(a.id));
        if (a.id != b.id) {
            return QStringLiteral("%1 is \"%2\" there").arg(which, QString::fromStdString(b.id));
        }
        if (a.text != b.text) {
            return QStringLiteral("%1 has another text there").arg(which);
        }
        if (a.label != b.label) {
            return QStringLiteral("%1 has another label there").arg(which);
        }
    }
    if (theirs.size() != ours.size()) {
        return QStringLiteral("%1 items against %2").arg(theirs.size()).arg(ours.size());
    }
    return {};
}

// 4. The ledger inside: its hash chain, then the merge. "" or why not; throws on a ledger error.
QString mergeLedger(const QString& ledgerCopy, const QString& intoLedger, const QString& origin,
                    ImportResult* result, const std::string& trustedPublicPem) {
    const ledger::Ledger src(ledgerCopy.toStdString(), ledger::Ledger::Mode::Read);
    const ledger::Trust t = ledger::assessTrust(src, trustedPublicPem);
    if (t.state == ledger::Trust::State::Tampered) {
        return QStringLiteral("the ledger inside fails its hash chain (%1)")
            .arg(QString::fromStdString(t.problem));
    }
    if (!trustedPublicPem.empty() && !t.trusted) {
        return QStringLiteral("the ledger inside is not trusted: %1")
            .arg(QString::fromStdString(t.problem));
    }
    result->trust_line = t.line();
    if (!src.hasStudy()) {
        return QStringLiteral("the ledger inside holds no study");
    }
    std::vector<ledger::Run> finished;
    for (const auto& r : src.runs()) {
        if (r.status == ledger::RunStatus::Finished) {
            finished.push_back(r);
        }
    }
    // The target must hold the same study items (or none yet), item by item.
    if (QFileInfo::exists(intoLedger)) {
        const ledger::Ledger peek(intoLedger.toStdString(), ledger::Ledger::Mode::Read);
        if (peek.hasStudy()) {
            if (const QString why = itemsDiffer(src.items(), peek.items()); !why.isEmpty()) {
                return QStringLiteral("its study items differ from those of %1: %2")
                    .arg(intoLedger, why);
            }
            if (const std::string why = ledger::modelsDiffer(src.study(), peek.study());
                !why.empty()) {
                return QStringLiteral("its model is not the one of %1: %2")
                    .arg(intoLedger, QString::fromStdString(why));
            }
        }
    }
    ledger::Ledger dst(intoLedger.toStdString(), ledger::Ledger::Mode::Write);
    const auto before = dst.runs().size();
    try {
        dst.atomically([&] { // every run or none, the study with them
            if (!dst.hasStudy()) {
                dst.initStudy(src.study(), src.datasetSha256(), src.items());
            } else if (const auto study = ledger::withVariantsOf(dst.study(), src.study());
                       study != dst.study()) {
                dst.updateStudy(study); // the variants of the runs it brings
            }
            std::map<std::int64_t, std::int64_t> copied;
            for (const auto& r : finished) {
                copied[r.id] = dst.importRun(src, r.id, true, origin.toStdString());
            }
            ledger::carryPolicyRegistration(src, dst, copied);
        });
    } catch (...) {
        dst.discardCreated(); // a target this import created goes with it
        throw;
    }
    result->imported = int(dst.runs().size() - before);
    result->already = int(finished.size()) - result->imported;
    return {};
}

} // namespace

bool importBundle(const QString& bundle, const QString& intoLedger, ImportResult* result,
                  QString* error, const ImportLimits& limits, const std::string& trustedPublicPem) {
    auto refuse = [&](const QString& why) {
        *error = QStringLiteral("%1: %2; nothing was imported").arg(bundle, why);
        return false;
    };
    QuaZip zip(bundle);
    if (!zip.open(QuaZip::mdUnzip)) {
        return refuse(QStringLiteral("not a readable zip archive (missing, truncated or "
                                     "damaged)"));
    }
    const QList<QuaZipFileInfo64> infos = zip.getFileInfoList64();
    if (infos.isEmpty() && zip.getZipError() != 0) {
        return refuse(QStringLiteral("its table of contents cannot be read (truncated?)"));
    }
    QSet<QString> names;
    QString why = checkEntries(infos, limits, &names);
    if (!why.isEmpty()) {
        return refuse(why);
    }
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        return refuse(QStringLiteral("no temporary folder"));
    }
    Extracted ex;
    why = extractEntries(zip, infos, limits, tmp, &ex);
    zip.close();
    if (why.isEmpty()) {
        why = checkManifest(ex, names);
    }
    if (!why.isEmpty()) {
        return refuse(why);
    }
    const QString ledgerCopy = tmp.filePath(QStringLiteral("bundle.ledger"));
    QFile::rename(ex.paths.value(QStringLiteral("ledger.ledger")), ledgerCopy);
    try {
        why = mergeLedger(ledgerCopy, intoLedger, QFileInfo(bundle).fileName(), result,
                          trustedPublicPem);
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
    }
    return why.isEmpty() || refuse(why);
}

} // namespace probaudit::bundle
