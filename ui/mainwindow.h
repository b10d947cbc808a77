#pragma once
// The workbench's main window: menus, the page stack (empty state for now), and the status
// bar with the engine summary and the pin-status badge.
#include <QJsonObject>
#include <QMainWindow>
#include <QPointer>

class QLabel;
class QMenu;
class QStackedWidget;

namespace probaudit {
namespace ui {

class AboutDialog;
class EmptyStatePage;
class EngineClient;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens Help → About without blocking (the dialog is modeless); returns it.
    AboutDialog* showAbout();

    EngineClient* engine() const { return m_engine; }
    const QJsonObject& fingerprint() const { return m_fingerprint; }

    static constexpr int kMaxRecentFiles = 8;

private:
    void createActions();
    void openStudyDialog();
    void openStudyFile(const QString& path);
    void openDemoStudy();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void onFingerprint(const QJsonObject& fp);
    void onEngineError(const QString& message);
    void setPinStatus(const QString& text, const QString& tooltip, bool ok);

    QStackedWidget* m_pages = nullptr;
    EmptyStatePage* m_empty = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_engineLabel = nullptr;
    QLabel* m_pinBadge = nullptr;
    EngineClient* m_engine = nullptr;
    QPointer<AboutDialog> m_about;
    QJsonObject m_fingerprint;
    QString m_engineError;
};

} // namespace ui
} // namespace probaudit
