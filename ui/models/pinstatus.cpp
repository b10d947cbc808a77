#include "ui/models/pinstatus.h"

#include "core/analysis/fingerprint.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>

namespace probaudit::ui {

namespace {
nlohmann::json toNlohmann(const QJsonObject& o) {
    return nlohmann::json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString());
}

QString shortValue(const nlohmann::json& v) {
    if (v.is_null()) {
        return QCoreApplication::translate("PinStatus", "absent");
    }
    return QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
}
} // namespace

PinStatus pinStatus(const QString& lockPath, const QJsonObject& lock, const QJsonObject& current) {
    PinStatus st;
    if (lockPath.isEmpty() || lock.isEmpty()) {
        st.text = QCoreApplication::translate("PinStatus", "Runtime: not pinned");
        st.tooltip = QCoreApplication::translate(
            "PinStatus", "No runtime lock is loaded. A pinned runtime lists every difference "
                         "between this environment and the verified one.");
        return st;
    }
    const QString name = QFileInfo(lockPath).fileName();
    if (current.isEmpty()) {
        st.state = PinStatus::State::Unknown;
        st.text =
            QCoreApplication::translate("PinStatus", "Runtime: pinned (%1), checking…").arg(name);
        st.tooltip = QCoreApplication::translate(
            "PinStatus", "Waiting for the engine's environment fingerprint.");
        return st;
    }
    const auto diffs = analysis::fingerprintDiff(toNlohmann(lock.value(u"environment").toObject()),
                                                 toNlohmann(current));
    QStringList lines;
    for (const auto& d : diffs) {
        const QString line =
            QStringLiteral("%1: %2 → %3")
                .arg(QString::fromStdString(d.path), shortValue(d.pinned), shortValue(d.current));
        if (d.moves_numerics) {
            st.differences << line;
        }
        lines << (d.moves_numerics ? QStringLiteral("⚠ ") : QStringLiteral("· ")) + line +
                     QStringLiteral(" (") + QString::fromStdString(d.why) + u')';
    }
    if (st.differences.isEmpty()) {
        st.state = PinStatus::State::Matches;
        st.text = QCoreApplication::translate("PinStatus", "Runtime: matches the pin");
        st.tooltip =
            lines.isEmpty()
                ? QCoreApplication::translate("PinStatus",
                                              "This environment is the one %1 verified.")
                      .arg(name)
                : QCoreApplication::translate(
                      "PinStatus", "This environment matches %1 in everything that can move "
                                   "numbers. Other differences:\n%2")
                      .arg(name, lines.join(u'\n'));
    } else {
        st.state = PinStatus::State::Differs;
        st.text = QCoreApplication::translate("PinStatus", "Runtime: differs from the pin (%1)")
                      .arg(st.differences.size());
        st.tooltip =
            QCoreApplication::translate(
                "PinStatus", "This environment differs from %1 in ways that can move numbers:\n%2")
                .arg(name, lines.join(u'\n'));
    }
    return st;
}

} // namespace probaudit::ui
