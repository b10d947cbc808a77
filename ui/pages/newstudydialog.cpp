#include "ui/pages/newstudydialog.h"

#include "core/common/endpoint_spec.h"
#include "core/common/vocabulary.h"
#include "core/endpoint/endpoint_run.h"
#include "core/model/checkpoint.h"
#include "core/pyrunner/transformers_runner.h"
#include "core/study/dataset.h"
#include "core/study/study.h"
#include "ui/models/colors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace probaudit::ui {

namespace {

template <class E> QString wireName(E value) {
    return QString::fromStdString(nameString(value));
}

} // namespace

using nlohmann::ordered_json;

namespace {

struct StandardConfig {
    const char* name;
    const char* label;
    const char* json;
};
// The configs demo study A compares (DESIGN.md axes), the exact reference among them; the
// reference is always written.
const StandardConfig kStandard[] = {
    {"batch-8", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "batch 8, right padding"),
     R"({"batch_size":8})"},
    {"batch-8-left", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "batch 8, left padding"),
     R"({"batch_size":8,"padding_side":"left"})"},
    {"pad-to-128", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "padded to 128 tokens"),
     R"({"pad_to":"fixed","pad_to_n":128})"},
    {"threads-2", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "2 threads"),
     R"({"threads":2})"},
    {"bfloat16", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "bfloat16"),
     R"({"dtype":"bfloat16"})"},
    {"sdpa", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "SDPA attention"),
     R"({"attention":"sdpa"})"},
    {"exact",
     QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog",
                       "float64, the exact reference (which side is closer to exact)"),
     R"({"dtype":"float64"})"},
};

// An endpoint study's configs: what its requests are (the server's own settings are labels).
const StandardConfig kServerStandard[] = {
    {"again", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "the same again (repeat)"),
     R"({"repeat":1})"},
    {"concurrency-4", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "4 requests in flight"),
     R"({"concurrency":4,"arrival_seed":1})"},
    {"concurrency-4-again",
     QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "4 in flight, another arrival order"),
     R"({"concurrency":4,"arrival_seed":2})"},
    {"warm-cache", QT_TRANSLATE_NOOP("probaudit::ui::NewStudyDialog", "prefix cache warm"),
     R"({"prefix_cache":"warm"})"},
};

// What a model folder says it is, for the transformers runner (which loads it in its own
// environment): config.json's model_type, or a GGUF file. Throws what is wrong.
QString transformersModelStatus(const QString& model) {
    const QFileInfo info(model);
    if (info.isFile() && model.endsWith(QLatin1String(".gguf"))) {
        return NewStudyDialog::tr("a GGUF file; transformers dequantizes it at load");
    }
    QFile f(QDir(model).filePath(QStringLiteral("config.json")));
    if (!f.open(QIODevice::ReadOnly)) {
        throw std::runtime_error(
            NewStudyDialog::tr("%1: no config.json (not a Hugging Face folder)")
                .arg(model)
                .toStdString());
    }
    const auto j = nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
    if (!j.is_object() || !j.contains("model_type") || !j["model_type"].is_string()) {
        throw std::runtime_error(
            NewStudyDialog::tr("%1: config.json names no model_type").arg(model).toStdString());
    }
    return NewStudyDialog::tr("%1, read by transformers in the environment")
        .arg(QString::fromStdString(j["model_type"].get<std::string>()));
}

void setStatus(QLabel* label, const QString& text, bool ok) {
    label->setText(text);
    label->setStyleSheet(
        QStringLiteral("color: %1;").arg((ok ? unchangedColor() : flipColor()).name()));
}

} // namespace

QLineEdit* NewStudyDialog::pathRow(const QString& label, bool folderOrFile, QFormLayout* form,
                                   QLabel** status) {
    auto* edit = new QLineEdit(this);
    auto* browse = new QToolButton(this);
    browse->setText(tr("Browse…"));
    connect(browse, &QToolButton::clicked, this, [this, edit, folderOrFile] {
        QString p;
        if (folderOrFile) {
            p = QFileDialog::getExistingDirectory(this, tr("Model folder"), edit->text());
            if (p.isEmpty()) {
                p = QFileDialog::getOpenFileName(this, tr("GGUF model file"), edit->text(),
                                                 tr("GGUF (*.gguf)"));
            }
        } else {
            p = QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text());
        }
        if (!p.isEmpty()) {
            edit->setText(p);
        }
    });
    // The field in a widget of its own (its row can be hidden), named by a label whose "&"
    // gives it a mnemonic to the edit.
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    edit->setParent(box);
    browse->setParent(box);
    row->addWidget(edit, 1);
    row->addWidget(browse);
    auto* name = new QLabel(label, this);
    name->setBuddy(edit);
    form->addRow(name, box);
    *status = new QLabel(this);
    (*status)->setWordWrap(true);
    form->addRow(QString(), *status);
    connect(edit, &QLineEdit::textChanged, this, &NewStudyDialog::scheduleValidation);
    return edit;
}

NewStudyDialog::NewStudyDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("newStudyDialog"));
    setWindowTitle(tr("New Study"));
    resize(760, 760);
    auto* form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("e.g. sentiment-minilm"));
    form->addRow(tr("&Name:"), m_name);
    m_form = form;
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("modelSource"));
    // Each item's data is the source's wire name (EnvKind): the engine's is "engine" here.
    m_source->addItem(tr("a model file (the built-in engine)"), QStringLiteral("engine"));
    m_source->addItem(tr("a model file, in a Python environment (transformers)"),
                      wireName(EnvKind::Transformers));
    m_source->addItem(tr("a server (OpenAI-compatible API)"), wireName(EnvKind::Endpoint));
    form->addRow(tr("Model &source:"), m_source);
    m_model = pathRow(tr("&Model:"), true, form, &m_modelStatus);
    m_model->setPlaceholderText(tr("a Hugging Face folder or a GGUF file"));
    createPythonRows();
    createServerRows();
    m_dataset = pathRow(tr("&Dataset:"), false, form, &m_datasetStatus);
    m_dataset->setPlaceholderText(tr("a JSONL or CSV file"));
    m_textField = new QLineEdit(QStringLiteral("text"), this);
    m_labelField = new QLineEdit(QStringLiteral("label"), this);
    auto* fields = new QHBoxLayout;
    fields->addWidget(new QLabel(tr("text field"), this));
    fields->addWidget(m_textField);
    fields->addWidget(new QLabel(tr("label field"), this));
    fields->addWidget(m_labelField);
    form->addRow(QString(), fields);
    m_labels = new QLineEdit(this);
    m_labels->setPlaceholderText(tr("class names in order, e.g. negative, positive"));
    form->addRow(tr("&Classes:"), m_labels);
    m_headKind = new QComboBox(this);
    m_headKind->addItem(tr("adapter (a linear head file)"), wireName(HeadKind::Adapter));
    m_headKind->addItem(tr("label tokens (an LLM's next token)"), wireName(HeadKind::LabelTokens));
    m_headKind->addItem(tr("classifier (inside the checkpoint)"), wireName(HeadKind::Classifier));
    form->addRow(tr("Decision &head:"), m_headKind);
    m_headPath = pathRow(tr("Adapter &file:"), false, form, &m_headPathStatus);
    m_template = new QLineEdit(this);
    m_template->setPlaceholderText(tr("prompt with {text}; the classes are the label words"));
    form->addRow(tr("&Prompt:"), m_template);
    m_capture = new QComboBox(this);
    m_capture->addItems(
        {QStringLiteral("hashes"), QStringLiteral("vectors"), QStringLiteral("none")});
    form->addRow(tr("Ca&pture:"), m_capture);
    QWidget* configs = createConfigBoxes();
    form->addRow(tr("Configs:"), configs);
    m_output = pathRow(tr("Save &as:"), false, form, &m_outputStatus);
    m_output->setPlaceholderText(tr("NAME.study.json"));
    m_problemList = new QPlainTextEdit(this);
    m_problemList->setObjectName(QStringLiteral("studyProblems"));
    m_problemList->setReadOnly(true);
    m_problemList->setMaximumHeight(110);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_create = buttons->addButton(tr("Create and Run"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("createStudy"));
    m_create->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_create, &QPushButton::clicked, this, [this] {
        if (!create().isEmpty()) {
            accept();
        }
    });
    auto* v = new QVBoxLayout(this);
    v->addLayout(form);
    v->addWidget(new QLabel(tr("Problems:"), this));
    v->addWidget(m_problemList);
    v->addWidget(buttons);

    m_delay = new QTimer(this);
    m_delay->setSingleShot(true);
    m_delay->setInterval(250);
    connectValidation();
    sourceChanged();
}

bool NewStudyDialog::isEndpoint() const {
    return fromName<EnvKind>(m_source->currentData().toString().toStdString()) == EnvKind::Endpoint;
}

bool NewStudyDialog::isTransformers() const {
    return fromName<EnvKind>(m_source->currentData().toString().toStdString()) ==
           EnvKind::Transformers;
}

// The transformers runner's environment: the interpreter and a button that starts the runner
// there (torch and transformers are checked before anything runs).
void NewStudyDialog::createPythonRows() {
    QLabel* unused = nullptr;
    m_python = pathRow(tr("&Python:"), false, m_form, &unused);
    m_python->setObjectName(QStringLiteral("pythonInterpreter"));
    m_python->setPlaceholderText(
        tr("the interpreter of the environment, e.g. /opt/venv/bin/python"));
    m_form->removeRow(unused);
    QWidget* check = buttonRow(tr("Check interpreter"), QStringLiteral("checkInterpreter"),
                               &m_checkPython, &m_pythonStatus);
    m_pythonRows = {m_python->parentWidget(), check};
    connect(m_checkPython, &QPushButton::clicked, this, &NewStudyDialog::checkInterpreter);
}

// Starts the runner in the environment on a thread of its own (loading torch takes seconds)
// and says what it found: Python, torch and transformers, or the one sentence why not.
void NewStudyDialog::checkInterpreter() {
    study::Environment env;
    env.name = "python";
    env.python = m_python->text().trimmed().toStdString();
    m_checkPython->setEnabled(false);
    setStatus(m_pythonStatus, tr("Starting the transformers runner in %1…").arg(m_python->text()),
              true);
    inBackground(
        [env] {
            if (env.python.empty()) {
                throw std::runtime_error(tr("No interpreter given.").toStdString());
            }
            runner::TransformersRunner r(env);
            const auto& ready = r.ready();
            return std::make_pair(true, tr("Python %1, torch %2, transformers %3")
                                            .arg(QString::fromStdString(ready.python),
                                                 QString::fromStdString(ready.torch),
                                                 QString::fromStdString(ready.transformers)));
        },
        [this](bool ok, const QString& text) {
            m_checkPython->setEnabled(true);
            setStatus(m_pythonStatus, text, ok);
            Q_EMIT interpreterChecked(ok);
        });
}

// A button with the sentence it answers beside it, as one row of the form.
QWidget* NewStudyDialog::buttonRow(const QString& text, const QString& name, QPushButton** button,
                                   QLabel** status) {
    auto* w = new QWidget(this);
    auto* row = new QHBoxLayout(w);
    row->setContentsMargins(0, 0, 0, 0);
    *button = new QPushButton(text, w);
    (*button)->setObjectName(name);
    *status = new QLabel(w);
    (*status)->setWordWrap(true);
    row->addWidget(*button);
    row->addWidget(*status, 1);
    m_form->addRow(QString(), w);
    return w;
}

// Runs `work` on a thread of its own (a server that does not answer, or torch loading, must not
// freeze the form); what it returns, or the sentence it throws, reaches `done` on the GUI thread
// if the form still exists.
void NewStudyDialog::inBackground(const std::function<std::pair<bool, QString>()>& work,
                                  const std::function<void(bool, const QString&)>& done) {
    QPointer<NewStudyDialog> self(this);
    QThread* t = QThread::create([self, work, done] {
        std::pair<bool, QString> answer{false, QString()};
        try {
            answer = work();
        } catch (const std::exception& x) {
            answer.second = QString::fromStdString(x.what());
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, done, answer] {
                if (self) {
                    done(answer.first, answer.second);
                }
            },
            Qt::QueuedConnection);
    });
    connect(t, &QThread::finished, t, &QObject::deleteLater);
    t->start();
}

// A server: its base URL, the model name its requests carry, the API form, the environment
// variable that holds its key (never the key), and a button that asks it for its models.
void NewStudyDialog::createServerRows() {
    auto* f = m_form;
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("serverUrl"));
    m_url->setPlaceholderText(tr("e.g. http://127.0.0.1:8000/v1"));
    f->addRow(tr("Server &URL:"), m_url);
    m_serverModel = new QLineEdit(this);
    m_serverModel->setPlaceholderText(tr("the model name the server serves"));
    f->addRow(tr("Model &name:"), m_serverModel);
    m_api = new QComboBox(this);
    m_api->addItem(tr("completions"), QStringLiteral("completions"));
    m_api->addItem(tr("chat completions"), QStringLiteral("chat"));
    f->addRow(tr("&API:"), m_api);
    m_keyEnv = new QLineEdit(this);
    m_keyEnv->setPlaceholderText(tr("environment variable holding the key, e.g. OPENAI_API_KEY"));
    f->addRow(tr("&Key variable:"), m_keyEnv);
    QWidget* test = buttonRow(tr("Test connection"), QStringLiteral("testConnection"),
                              &m_testButton, &m_serverStatus);
    m_serverRows = {m_url, m_serverModel, m_api, m_keyEnv, test};
    connect(m_testButton, &QPushButton::clicked, this, &NewStudyDialog::testConnection);
    for (QLineEdit* e : {m_url, m_serverModel, m_keyEnv}) {
        connect(e, &QLineEdit::textChanged, this, &NewStudyDialog::scheduleValidation);
    }
    connect(m_api, &QComboBox::currentIndexChanged, this, &NewStudyDialog::scheduleValidation);
}

// The rows and configs of the chosen source; a server decides by label tokens.
void NewStudyDialog::sourceChanged() {
    const bool server = isEndpoint();
    m_form->setRowVisible(m_model->parentWidget(), !server);
    m_form->setRowVisible(m_modelStatus, !server);
    for (QWidget* w : m_serverRows) {
        m_form->setRowVisible(w, server);
    }
    for (QWidget* w : m_pythonRows) {
        m_form->setRowVisible(w, isTransformers());
    }
    m_form->setRowVisible(m_capture, !server);
    for (QCheckBox* box : m_configBoxes) {
        box->setVisible(box->property("server").toBool() == server);
    }
    m_referenceLabel->setText(server ? tr("reference: one request at a time, cold cache")
                              : isTransformers()
                                  ? tr("reference: batch 1, no padding, float32, 1 thread, in the "
                                       "Python environment")
                                  : tr("reference: batch 1, no padding, float32, 1 thread"));
    if (server) {
        m_headKind->setCurrentIndex(m_headKind->findData(wireName(HeadKind::LabelTokens)));
    }
    validateNow();
}

// Asks the server for its models on a thread of its own (a server that does not answer must
// not freeze the form); the answer comes back to the form if it still exists.
void NewStudyDialog::testConnection() {
    EndpointSpec e;
    e.url = m_url->text().trimmed().toStdString();
    e.model = m_serverModel->text().trimmed().toStdString();
    e.api_key_env = m_keyEnv->text().trimmed().toStdString();
    e.timeout_seconds = 15;
    e.max_retries = 0;
    m_testButton->setEnabled(false);
    setStatus(m_serverStatus, tr("Asking %1 for its models…").arg(m_url->text().trimmed()), true);
    inBackground(
        [e] {
            QStringList ids;
            for (const auto& id : endpoint::listModels(e)) {
                ids << QString::fromStdString(id);
            }
            const bool ok = e.model.empty() || ids.contains(QString::fromStdString(e.model));
            QString text = tr("The server lists %n model(s): %1.", nullptr, int(ids.size()))
                               .arg(ids.join(QStringLiteral(", ")));
            if (!ok) {
                text += QLatin1Char(' ') +
                        tr("It does not list %1.").arg(QString::fromStdString(e.model));
            }
            return std::make_pair(ok, text);
        },
        [this](bool ok, const QString& text) { showConnection(ok, text); });
}

void NewStudyDialog::showConnection(bool ok, const QString& text) {
    m_testButton->setEnabled(true);
    setStatus(m_serverStatus, text, ok);
    Q_EMIT connectionTested(ok);
}

void NewStudyDialog::scheduleValidation() {
    m_delay->start();
}

ordered_json NewStudyDialog::studyJson() const {
    ordered_json j;
    const bool server = isEndpoint();
    j["name"] = m_name->text().trimmed().toStdString();
    if (server) {
        j["model"] = {{"endpoint", m_url->text().trimmed().toStdString()},
                      {"name", m_serverModel->text().trimmed().toStdString()},
                      {"api", m_api->currentData().toString().toStdString()}};
        if (!m_keyEnv->text().trimmed().isEmpty()) {
            j["model"]["api_key_env"] = m_keyEnv->text().trimmed().toStdString();
        }
    } else {
        j["model"] = {{"path", m_model->text().trimmed().toStdString()}};
    }
    QStringList labels;
    for (const QString& l : m_labels->text().split(u',', Qt::SkipEmptyParts)) {
        labels << l.trimmed();
    }
    ordered_json labelJson = ordered_json::array();
    for (const QString& l : labels) {
        labelJson.push_back(l.toStdString());
    }
    const HeadKind kind = fromName<HeadKind>(m_headKind->currentData().toString().toStdString())
                              .value_or(HeadKind::Adapter);
    ordered_json head{{"kind", nameString(kind)}};
    if (kind == HeadKind::Adapter) {
        head["path"] = m_headPath->text().trimmed().toStdString();
    } else if (kind == HeadKind::LabelTokens) {
        head["template"] = m_template->text().toStdString();
        head["labels"] = labelJson;
    }
    j["heads"] = {{kind == HeadKind::LabelTokens ? "label-words" : nameString(kind), head}};
    ordered_json dataset{{"path", m_dataset->text().trimmed().toStdString()},
                         {"text_field", m_textField->text().trimmed().toStdString()},
                         {"label_field", m_labelField->text().trimmed().toStdString()}};
    if (!labels.isEmpty()) {
        dataset["labels"] = labelJson;
    }
    j["dataset"] = dataset;
    if (!server) {
        j["capture"] = m_capture->currentText().toStdString();
    }
    ordered_json configs{{"reference", ordered_json::object()}};
    for (QCheckBox* box : m_configBoxes) {
        if (box->isChecked() && box->property("server").toBool() == server) {
            configs[box->property("configName").toString().toStdString()] =
                ordered_json::parse(box->property("configJson").toString().toStdString());
        }
    }
    if (isTransformers()) { // every config in the one environment
        j["environments"] = {{"python", {{"python", m_python->text().trimmed().toStdString()}}}};
        for (auto& [name, c] : configs.items()) {
            c["env"] = "python";
        }
    }
    j["configs"] = configs;
    j["reference"] = "reference";
    return j;
}

bool NewStudyDialog::validateNow() {
    m_delay->stop();
    m_problems.clear();
    checkModel();
    checkDataset();
    checkHeadFile();
    // The whole study, by the runner's rules.
    if (m_name->text().trimmed().isEmpty()) {
        m_problems << tr("The study needs a name.");
    }
    const QString out = checkOutput();
    std::vector<std::string> errors;
    const QString base = out.isEmpty() ? QDir::currentPath() : QFileInfo(out).absolutePath();
    study::Study::fromJson(studyJson(), base.toStdString(), errors);
    for (const auto& e : errors) {
        m_problems << QString::fromStdString(e);
    }
    m_problemList->setPlainText(m_problems.isEmpty() ? tr("None: the study is ready.")
                                                     : m_problems.join(u'\n'));
    m_create->setEnabled(m_problems.isEmpty());
    return m_problems.isEmpty();
}

// The configs offered besides the reference, each a check box.
QWidget* NewStudyDialog::createConfigBoxes() {
    auto* configs = new QWidget(this);
    auto* cv = new QVBoxLayout(configs);
    cv->setContentsMargins(0, 0, 0, 0);
    m_referenceLabel = new QLabel(configs);
    cv->addWidget(m_referenceLabel);
    const auto add = [&](const StandardConfig& c, bool server) {
        auto* box = new QCheckBox(tr(c.label), configs);
        box->setChecked(true);
        box->setProperty("configName", QString::fromLatin1(c.name));
        box->setProperty("configJson", QString::fromLatin1(c.json));
        box->setProperty("server", server);
        m_configBoxes << box;
        cv->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &NewStudyDialog::scheduleValidation);
    };
    for (const auto& c : kStandard) {
        add(c, false);
    }
    for (const auto& c : kServerStandard) {
        add(c, true);
    }
    return configs;
}

void NewStudyDialog::connectValidation() {
    connect(m_delay, &QTimer::timeout, this, &NewStudyDialog::validateNow);
    for (QLineEdit* e : {m_name, m_textField, m_labelField, m_labels, m_template}) {
        connect(e, &QLineEdit::textChanged, this, &NewStudyDialog::scheduleValidation);
    }
    connect(m_headKind, &QComboBox::currentIndexChanged, this, &NewStudyDialog::scheduleValidation);
    connect(m_source, &QComboBox::currentIndexChanged, this, &NewStudyDialog::sourceChanged);
    connect(m_name, &QLineEdit::textChanged, this, [this](const QString& name) {
        // Suggest the file name from the study name until the user picks one.
        if (m_output->isModified() || name.isEmpty()) {
            return;
        }
        const QString dir =
            m_dataset->text().isEmpty() ? QDir::currentPath() : QFileInfo(m_dataset->text()).path();
        m_output->setText(QDir(dir).filePath(name + QStringLiteral(".study.json")));
    });
}

// The model: open it (headers only) and say what it is.
void NewStudyDialog::checkModel() {
    const QString model = isEndpoint() ? QString() : m_model->text().trimmed();
    const QString key = m_source->currentData().toString() + u'|' + model;
    if (key != m_lastModel) {
        m_lastModel = key;
        if (model.isEmpty()) {
            m_modelStatus->clear();
        } else {
            try {
                if (isTransformers()) { // any architecture: transformers reads it
                    setStatus(m_modelStatus, transformersModelStatus(model), true);
                    return;
                }
                const auto ckpt = model::Checkpoint::open(model.toStdString());
                const auto& spec = ckpt.spec();
                setStatus(m_modelStatus,
                          tr("%1, %2 layers, hidden %3")
                              .arg(QString::fromStdString(spec.model_type))
                              .arg(spec.num_layers)
                              .arg(spec.hidden_size),
                          true);
            } catch (const std::exception& e) {
                setStatus(m_modelStatus, QString::fromStdString(e.what()), false);
            }
        }
    }
}

// The dataset: read it with the study's rules.
void NewStudyDialog::checkDataset() {
    const QString dsKey = m_dataset->text().trimmed() + u'|' + m_textField->text() + u'|' +
                          m_labelField->text() + u'|' + m_labels->text();
    if (dsKey != m_lastDatasetKey) {
        m_lastDatasetKey = dsKey;
        if (m_dataset->text().trimmed().isEmpty()) {
            m_datasetStatus->clear();
        } else {
            try {
                study::DatasetSpec spec;
                spec.paths = {m_dataset->text().trimmed().toStdString()};
                spec.text_field = m_textField->text().trimmed().toStdString();
                spec.label_field = m_labelField->text().trimmed().toStdString();
                for (const QString& l : m_labels->text().split(u',', Qt::SkipEmptyParts)) {
                    spec.labels.push_back(l.trimmed().toStdString());
                }
                const auto data = study::loadDataset(spec, false);
                std::size_t labelled = 0;
                for (const auto& it : data.items) {
                    labelled += it.label.has_value();
                }
                setStatus(m_datasetStatus,
                          tr("%1 items, %2 with a label")
                              .arg(QLocale().toString(qulonglong(data.items.size())))
                              .arg(QLocale().toString(qulonglong(labelled))),
                          true);
            } catch (const std::exception& e) {
                setStatus(m_datasetStatus, QString::fromStdString(e.what()), false);
            }
        }
    }
}

// The head: an adapter file, or a prompt for label words.
void NewStudyDialog::checkHeadFile() {
    const bool adapter = m_headKind->currentData().toString() == QLatin1String("adapter");
    const bool words = m_headKind->currentData().toString() == QLatin1String("label_tokens");
    m_headPath->setEnabled(adapter);
    m_template->setEnabled(words);
    m_headPathStatus->setVisible(adapter);
    if (adapter) {
        const QString p = m_headPath->text().trimmed();
        if (p.isEmpty()) {
            m_headPathStatus->clear();
        } else if (QFileInfo(p).isReadable()) {
            setStatus(m_headPathStatus, tr("found"), true);
        } else {
            setStatus(m_headPathStatus, tr("%1 cannot be read").arg(p), false);
        }
    }
}

// Where the study file goes; a problem when it cannot be written there. Returns the path.
QString NewStudyDialog::checkOutput() {
    const QString out = m_output->text().trimmed();
    if (out.isEmpty()) {
        m_problems << tr("Choose where to save the study file.");
        m_outputStatus->clear();
    } else if (!QFileInfo(QFileInfo(out).path()).isWritable()) {
        setStatus(m_outputStatus, tr("%1 is not a writable folder").arg(QFileInfo(out).path()),
                  false);
        m_problems << m_outputStatus->text();
    } else {
        setStatus(m_outputStatus,
                  QFileInfo::exists(out) ? tr("exists: it will be replaced") : tr("new file"),
                  !QFileInfo::exists(out));
    }
    return out;
}

QString NewStudyDialog::create() {
    if (!validateNow()) {
        return {};
    }
    const QString path = m_output->text().trimmed();
    const QByteArray text = QByteArray::fromStdString(studyJson().dump(2)) + '\n';
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.commit()) {
        m_problemList->setPlainText(tr("%1 cannot be written.").arg(path));
        return {};
    }
    Q_EMIT created(path);
    return path;
}

} // namespace probaudit::ui
