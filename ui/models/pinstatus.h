#pragma once
// The pin-status badge: a runtime lock (`probaudit pin`) against the environment the engine
// reports now (`probaudit env --json`), through the same fingerprint comparison as
// `probaudit check`. Only differences that can move numbers make the badge red.
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace probaudit::ui {

struct PinStatus {
    enum class State { NotPinned, Matches, Differs, Unknown } state = State::NotPinned;
    QString text;            // the badge
    QString tooltip;         // every difference, one per line
    QStringList differences; // those that can move numbers
};

// `lock`: the lock file's JSON; `current`: the engine's fingerprint (empty while unknown).
PinStatus pinStatus(const QString& lockPath, const QJsonObject& lock, const QJsonObject& current);

} // namespace probaudit::ui
