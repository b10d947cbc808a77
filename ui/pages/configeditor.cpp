#include "ui/pages/configeditor.h"

#include "core/common/error.h"
#include "core/common/run_config.h"
#include "core/study/study.h"
#include "ui/models/colors.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <fstream>

namespace probaudit::ui {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Axes with a fixed set of values get a combo box; numbers are typed.
class AxisDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        const QStringList options = index.data(ConfigMatrixModel::OptionsRole).toStringList();
        if (options.isEmpty()) {
            return QStyledItemDelegate::createEditor(parent, option, index);
        }
        auto* box = new QComboBox(parent);
        box->addItems(options);
        const auto* model = qobject_cast<const ConfigMatrixModel*>(index.model());
        box->setEditable(index.column() > 0 && model != nullptr &&
                         model->axes()[index.column() - 1] == QLatin1String("device"));
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        if (auto* box = qobject_cast<QComboBox*>(editor)) {
            box->setCurrentText(index.data(Qt::EditRole).toString());
            return;
        }
        QStyledItemDelegate::setEditorData(editor, index);
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        if (auto* box = qobject_cast<QComboBox*>(editor)) {
            model->setData(index, box->currentText());
            return;
        }
        QStyledItemDelegate::setModelData(editor, model, index);
    }
};

} // namespace

ConfigEditor::ConfigEditor(const QString& studyPath, QWidget* parent)
    : QDialog(parent), m_path(studyPath) {
    setObjectName(QStringLiteral("configEditor"));
    setWindowTitle(tr("Configs of %1").arg(QFileInfo(studyPath).fileName()));
    resize(1200, 480);
    m_model = new ConfigMatrixModel(this);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("configMatrix"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new AxisDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("configMessage"));
    m_message->setWordWrap(true);

    auto* add = new QPushButton(tr("&Add"), this);
    add->setToolTip(tr("A new config: a copy of the selected one (or of the reference)."));
    auto* remove = new QPushButton(tr("Re&move"), this);
    auto* makeRef = new QPushButton(tr("Make &Reference"), this);
    auto* saveButton = new QPushButton(tr("&Save"), this);
    saveButton->setObjectName(QStringLiteral("saveConfigs"));
    auto* run = new QPushButton(tr("Save and R&un Selected"), this);
    run->setObjectName(QStringLiteral("runSelectedConfigs"));
    auto* close = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add, remove, makeRef}) {
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    for (QPushButton* b : {saveButton, run, close}) {
        buttons->addWidget(b);
    }
    auto* layout = new QVBoxLayout(this);
    auto* hint = new QLabel(tr("Double-click a cell to change it. Cells that differ from the "
                               "reference are highlighted. Saving rewrites the study file "
                               "(a copy of the original is kept as .bak; comments are not kept)."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message);
    layout->addLayout(buttons);

    auto currentRow = [this] {
        const QModelIndex i = m_view->currentIndex();
        return i.isValid() ? i.row() : -1;
    };
    connect(m_model, &ConfigMatrixModel::rejected, this, [this](const QString& why) {
        m_message->setText(why);
        m_message->setStyleSheet(QStringLiteral("color: %1;").arg(flipColor().name()));
    });
    connect(add, &QPushButton::clicked, this, [this, currentRow] {
        const int row = m_model->addConfig(currentRow());
        m_view->setCurrentIndex(m_model->index(row, 0));
        m_view->edit(m_model->index(row, 0));
    });
    connect(remove, &QPushButton::clicked, this,
            [this, currentRow] { m_model->removeConfig(currentRow()); });
    connect(makeRef, &QPushButton::clicked, this,
            [this, currentRow] { m_model->setReference(currentRow()); });
    connect(saveButton, &QPushButton::clicked, this, &ConfigEditor::save);
    connect(run, &QPushButton::clicked, this, &ConfigEditor::runSelected);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    loadStudy();
}

void ConfigEditor::loadStudy() {
    try {
        std::ifstream in(m_path.toStdString());
        if (!in) {
            throw Error(m_path.toStdString(), "cannot be read");
        }
        m_model->setStudyJson(ordered_json::parse(in, nullptr, true, /*ignore_comments=*/true));
        m_loaded = true;
    } catch (const std::exception& e) {
        m_message->setText(QString::fromStdString(e.what()));
    }
}

void ConfigEditor::runSelected() {
    const QStringList configs = selectedConfigs();
    if (configs.isEmpty()) {
        m_message->setText(tr("Select the configs to run (rows)."));
        return;
    }
    if (save()) {
        Q_EMIT runRequested(configs);
        accept();
    }
}

QStringList ConfigEditor::selectedConfigs() const {
    QStringList out;
    for (const QModelIndex& i : m_view->selectionModel()->selectedRows()) {
        out << m_model->configName(i.row());
    }
    return out;
}

bool ConfigEditor::save() {
    const QByteArray text = QByteArray::fromStdString(m_model->studyJson().dump(2)) + '\n';
    // Check the whole study with the engine's rules on a copy beside the original (relative
    // paths resolve the same way), then replace the original.
    const QString check = m_path + QStringLiteral(".check.json");
    {
        QFile f(check);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
            m_message->setText(tr("%1 cannot be written.").arg(check));
            return false;
        }
    }
    try {
        study::Study::load(check.toStdString());
    } catch (const std::exception& e) {
        QFile::remove(check);
        m_message->setText(QString::fromStdString(e.what()).replace(check, m_path));
        m_message->setStyleSheet(QStringLiteral("color: %1;").arg(flipColor().name()));
        return false;
    }
    QFile::remove(check);
    const QString backup = m_path + QStringLiteral(".bak");
    if (!QFileInfo::exists(backup)) {
        QFile::copy(m_path, backup);
    }
    QSaveFile out(m_path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size() || !out.commit()) {
        m_message->setText(tr("%1 cannot be written.").arg(m_path));
        return false;
    }
    m_model->setModified(false);
    m_message->setStyleSheet(QString());
    m_message->setText(tr("Saved %1.").arg(m_path));
    Q_EMIT saved(m_path);
    return true;
}

} // namespace probaudit::ui
