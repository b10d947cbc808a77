#pragma once
// The config matrix editor: a study's runtime configurations as a table, one row per config
// and one column per axis (DESIGN.md: Runtime configuration axes). Cells that differ from the
// reference config are tinted; every edit is checked with the engine's own rules (RunConfig);
// Save writes the study file back (a .bak copy of the original is kept; comments in the file
// are not kept) after the whole study loads again; Run Selected hands configs to the engine.
#include "ui/models/configmatrixmodel.h"

#include <QDialog>

class QLabel;
class QTableView;

namespace probaudit::ui {

class ConfigEditor : public QDialog {
    Q_OBJECT
public:
    explicit ConfigEditor(const QString& studyPath, QWidget* parent = nullptr);
    bool isLoaded() const { return m_loaded; }
    ConfigMatrixModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // Writes the study file; false (with the reason shown) when the study would not load.
    bool save();
    QStringList selectedConfigs() const;

Q_SIGNALS:
    void runRequested(const QStringList& configs);
    void saved(const QString& studyPath);

private:
    void loadStudy();
    void runSelected();

    QString m_path;
    ConfigMatrixModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_message = nullptr;
    bool m_loaded = false;
};

} // namespace probaudit::ui
