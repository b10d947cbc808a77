#pragma once
// The page shown when no study is open: what ProbAudit does, and the two ways in.
#include <QWidget>

class QPushButton;

namespace probaudit::ui {

class EmptyStatePage : public QWidget {
    Q_OBJECT
public:
    explicit EmptyStatePage(QWidget* parent = nullptr);

Q_SIGNALS:
    void openStudyRequested();
    void openDemoRequested();
};

} // namespace probaudit::ui
