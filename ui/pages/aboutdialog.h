#pragma once
// Help → About: the workbench's version and the engine it drives (from its fingerprint).
#include "core/common/env_facts.h"

#include <QDialog>
#include <QJsonObject>

class QLabel;

namespace probaudit::ui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // Engine facts, or why they are missing.
    void setFingerprint(const QJsonObject& fingerprint);
    void setEngineError(const QString& message);

    QString text() const;

private:
    void refresh();

    QLabel* m_text = nullptr;
    QString m_engine;
};

// One line summarising an engine fingerprint: "libtorch 2.11.0 · CUDA build 13.0 · CPU AVX512".
QString engineSummary(const QJsonObject& fingerprint);
// The typed reading (common/env_facts.h) of a fingerprint the engine answered `env --json` with.
EnvFingerprint readFingerprint(const QJsonObject& fingerprint);

} // namespace probaudit::ui
