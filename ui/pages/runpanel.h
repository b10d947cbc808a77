#pragma once
// The engine-runs panel: one row per run of the current engine process (config, a progress
// bar, items/s and ETA, status), a Cancel button, and the outcome in one sentence.
#include "ui/pages/runcontroller.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace probaudit::ui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(RunController* controller, QWidget* parent = nullptr);
    // Clears the rows and lists the configs about to run.
    void begin(const QStringList& configs);
    QString statusText() const;
    QProgressBar* barOf(const QString& config) const;

private:
    struct Row {
        QLabel* name = nullptr;
        QProgressBar* bar = nullptr;
        QLabel* rate = nullptr;
        QLabel* status = nullptr;
    };
    Row& rowFor(const QString& config);
    void onFinished(RunController::Outcome outcome, const QString& message);

    RunController* m_controller = nullptr;
    QHash<QString, Row> m_rows;
    QHash<qint64, QString> m_runConfig;
    QWidget* m_rowsBox = nullptr;
    QVBoxLayout* m_rowsLayout = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace probaudit::ui
