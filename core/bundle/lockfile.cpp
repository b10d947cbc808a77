#include "bundle/lockfile.h"

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

QString findLockFile(const analysis::Review& review) {
    return findLockFile({QFileInfo(QString::fromStdString(review.path)).path(),
                         review.study_path.empty()
                             ? QString()
                             : QFileInfo(QString::fromStdString(review.study_path)).path()});
}

} // namespace probaudit::bundle
