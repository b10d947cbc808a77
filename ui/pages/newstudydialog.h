#pragma once
// File → New Study: a study from a model folder (or GGUF file) and a dataset, computed by the
// built-in engine or by the transformers runner in a Python environment, or from a server, with
// a form that
// validates as you type: the model is opened (architecture, layers, tokenizer), the dataset
// read (items, labels), and the whole study checked by the same rules `probaudit run` uses,
// every problem listed with its JSON path. Standard configs to compare can be ticked.
#include <nlohmann/json.hpp>

#include <QDialog>
#include <QString>

#include <functional>
#include <utility>

class QCheckBox;
class QFormLayout;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace probaudit::ui {

class NewStudyDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewStudyDialog(QWidget* parent = nullptr);

    // Field access for tests and for filling the form from elsewhere.
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* modelEdit() const { return m_model; }
    QLineEdit* datasetEdit() const { return m_dataset; }
    QLineEdit* labelsEdit() const { return m_labels; }
    QComboBox* headKind() const { return m_headKind; }
    QLineEdit* headPathEdit() const { return m_headPath; }
    QLineEdit* templateEdit() const { return m_template; }
    QLineEdit* outputEdit() const { return m_output; }
    // The model: a file the built-in engine loads, or a server (an OpenAI-compatible endpoint).
    QComboBox* sourceBox() const { return m_source; }
    QLineEdit* urlEdit() const { return m_url; }
    QLineEdit* serverModelEdit() const { return m_serverModel; }
    QLineEdit* keyEnvEdit() const { return m_keyEnv; }
    QPushButton* testConnectionButton() const { return m_testButton; }
    QLabel* serverStatus() const { return m_serverStatus; }
    // The model through the transformers runner in a Python environment: its interpreter, and
    // a button that starts the runner there and reports Python, torch and transformers.
    QLineEdit* pythonEdit() const { return m_python; }
    QPushButton* checkInterpreterButton() const { return m_checkPython; }
    QLabel* interpreterStatus() const { return m_pythonStatus; }
    bool isEndpoint() const;
    bool isTransformers() const;
    // Runs the checks now (they also run 250 ms after each edit); true when the study is valid.
    bool validateNow();
    QStringList problems() const { return m_problems; }
    nlohmann::ordered_json studyJson() const;
    // Writes the study file; its path, or "" when invalid or unwritable.
    QString create();

Q_SIGNALS:
    void created(const QString& studyPath);
    // "Test connection" has its answer (shown in serverStatus()).
    void connectionTested(bool ok);
    // "Check interpreter" has its answer (shown in interpreterStatus()).
    void interpreterChecked(bool ok);

private:
    QLineEdit* pathRow(const QString& label, bool folderOrFile, QFormLayout* form, QLabel** status);
    void scheduleValidation();
    QWidget* createConfigBoxes();
    void createServerRows(); // in the form, hidden unless the model is a server
    void createPythonRows(); // in the form, hidden unless the transformers runner computes
    void checkInterpreter();
    QWidget* buttonRow(const QString& text, const QString& name, QPushButton** button,
                       QLabel** status);
    void inBackground(const std::function<std::pair<bool, QString>()>& work,
                      const std::function<void(bool, const QString&)>& done);
    void sourceChanged();
    void testConnection();
    void showConnection(bool ok, const QString& text);
    void connectValidation();
    void checkModel();
    void checkDataset();
    void checkHeadFile();
    QString checkOutput();

    QLineEdit* m_name = nullptr;
    QComboBox* m_source = nullptr;
    QList<QWidget*> m_serverRows;
    QFormLayout* m_form = nullptr;
    QLineEdit* m_url = nullptr;
    QLineEdit* m_serverModel = nullptr;
    QComboBox* m_api = nullptr;
    QLineEdit* m_keyEnv = nullptr;
    QPushButton* m_testButton = nullptr;
    QLabel* m_serverStatus = nullptr;
    QList<QWidget*> m_pythonRows;
    QLineEdit* m_python = nullptr;
    QPushButton* m_checkPython = nullptr;
    QLabel* m_pythonStatus = nullptr;
    QLabel* m_referenceLabel = nullptr;
    QLineEdit* m_model = nullptr;
    QLabel* m_modelStatus = nullptr;
    QLineEdit* m_dataset = nullptr;
    QLabel* m_datasetStatus = nullptr;
    QLineEdit* m_textField = nullptr;
    QLineEdit* m_labelField = nullptr;
    QLineEdit* m_labels = nullptr;
    QComboBox* m_headKind = nullptr;
    QLineEdit* m_headPath = nullptr;
    QLabel* m_headPathStatus = nullptr;
    QLineEdit* m_template = nullptr;
    QComboBox* m_capture = nullptr;
    QList<QCheckBox*> m_configBoxes;
    QLineEdit* m_output = nullptr;
    QLabel* m_outputStatus = nullptr;
    QPlainTextEdit* m_problemList = nullptr;
    QPushButton* m_create = nullptr;
    QTimer* m_delay = nullptr;
    QStringList m_problems;
    QString m_lastModel, m_lastDatasetKey;
};

} // namespace probaudit::ui
