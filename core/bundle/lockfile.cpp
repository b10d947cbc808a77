#include "core/bundle/lockfile.h"

#include <QDir>
#include <QFileInfo>

namespace probaudit::bundle {

QString findLockFile(const QStringList& folders) {
    for (const QString& folder : folders) {
        if (folder.isEmpty()) {
            continue;
        }
        const QDir dir(folder);
        if (dir.exists(QStringLiteral("runtime.lock.json"))) {
            return dir.filePath(QStringLiteral("runtime.lock.json"));
        }
        const QStringList locks = dir.entryList({QStringLiteral("*.lock.json")}, QDir::Files);
        if (locks.size() == 1) {
            return dir.filePath(locks.front());
        }
    }
    return {};
}

QString findLockFile(const QString& ledgerPath, const QString& studyPath) {
    // The ledger's own lock first: LEDGER.ledger -> LEDGER.runtime.lock.json, the name
    // ./scripts/demo gives it (a folder can hold the locks of several ledgers).
    const QFileInfo ledger(ledgerPath);
    const QString own =
        ledger.dir().filePath(ledger.completeBaseName() + QStringLiteral(".runtime.lock.json"));
    if (QFileInfo::exists(own)) {
        return own;
    }
    return findLockFile(
        {ledger.path(), studyPath.isEmpty() ? QString() : QFileInfo(studyPath).path()});
}

QString findLockFile(const analysis::Review& review) {
    return findLockFile(QString::fromStdString(review.path),
                        QString::fromStdString(review.study_path));
}

} // namespace probaudit::bundle
