#include "ui/configeditor.h"

#include "common/error.h"
#include "common/run_config.h"
#include "study/study.h"
#include "ui/theme.h"

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

namespace probaudit {
namespace ui {

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
        box->setEditable(index.column() > 0 &&
                         ConfigMatrixModel::axes()[index.column() - 1] == QLatin1String("device"));
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

QString valueText(const json& v) {
    if (v.is_string()) {
        return QString::fromStdString(v.get<std::string>());
    }
    return QString::fromStdString(v.dump());
}

} // namespace

ConfigMatrixModel::ConfigMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

const QStringList& ConfigMatrixModel::axes() {
    static const QStringList a = [] {
        QStringList out;
        const json defaults = RunConfig().allAxesJson(); // items() must not outlive it
        for (const auto& [k, v] : defaults.items()) {
            out << QString::fromStdString(k);
        }
        return out;
    }();
    return a;
}

QStringList ConfigMatrixModel::optionsOf(const QString& axis) {
    static const QHash<QString, QStringList> options{
        {QStringLiteral("device"), {QStringLiteral("cpu"), QStringLiteral("cuda:0")}},
        {QStringLiteral("dtype"),
         {QStringLiteral("float32"), QStringLiteral("bfloat16"), QStringLiteral("float16")}},
        {QStringLiteral("padding_side"), {QStringLiteral("right"), QStringLiteral("left")}},
        {QStringLiteral("pad_to"),
         {QStringLiteral("longest"), QStringLiteral("multiple"), QStringLiteral("fixed")}},
        {QStringLiteral("order"),
         {QStringLiteral("as_given"), QStringLiteral("shuffled"), QStringLiteral("by_length")}},
        {QStringLiteral("attention"),
         {QStringLiteral("math"), QStringLiteral("sdpa"), QStringLiteral("batch_invariant")}},
        {QStringLiteral("kernels"), {QStringLiteral("default"), QStringLiteral("batch_invariant")}},
        {QStringLiteral("cpu_capability"),
         {QString(), QStringLiteral("default"), QStringLiteral("avx2"), QStringLiteral("avx512")}},
        {QStringLiteral("deterministic"), {QStringLiteral("false"), QStringLiteral("true")}},
        {QStringLiteral("tf32"), {QStringLiteral("false"), QStringLiteral("true")}},
        {QStringLiteral("cudnn_benchmark"), {QStringLiteral("false"), QStringLiteral("true")}},
    };
    return options.value(axis);
}

void ConfigMatrixModel::setStudyJson(const ordered_json& study) {
    beginResetModel();
    m_study = study;
    m_configs.clear();
    m_reference = QString::fromStdString(study.value("reference", std::string()));
    if (study.contains("configs") && study["configs"].is_object()) {
        for (const auto& [name, cfg] : study["configs"].items()) {
            m_configs.push_back({QString::fromStdString(name),
                                 RunConfig::fromJson(json::parse(cfg.dump())).allAxesJson()});
        }
    }
    m_modified = false;
    endResetModel();
}

ordered_json ConfigMatrixModel::studyJson() const {
    ordered_json out = m_study;
    ordered_json configs = ordered_json::object();
    const json defaults = RunConfig().allAxesJson();
    for (const Entry& e : m_configs) {
        ordered_json c = ordered_json::object();
        for (const auto& [k, v] : e.config.items()) {
            if (defaults.at(k) != v) {
                c[k] = ordered_json::parse(v.dump());
            }
        }
        configs[e.name.toStdString()] = c;
    }
    out["configs"] = configs;
    out["reference"] = m_reference.toStdString();
    return out;
}

int ConfigMatrixModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_configs.size());
}

int ConfigMatrixModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(axes().size()) + 1;
}

int ConfigMatrixModel::referenceRow() const {
    for (std::size_t r = 0; r < m_configs.size(); ++r) {
        if (m_configs[r].name == m_reference) {
            return int(r);
        }
    }
    return -1;
}

QString ConfigMatrixModel::configName(int row) const {
    return row >= 0 && std::size_t(row) < m_configs.size() ? m_configs[std::size_t(row)].name
                                                           : QString();
}

QStringList ConfigMatrixModel::differences(int row) const {
    QStringList out;
    const int ref = referenceRow();
    if (ref < 0 || row < 0 || std::size_t(row) >= m_configs.size()) {
        return out;
    }
    for (const QString& axis : axes()) {
        const std::string k = axis.toStdString();
        if (m_configs[std::size_t(row)].config.at(k) != m_configs[std::size_t(ref)].config.at(k)) {
            out << axis;
        }
    }
    return out;
}

QVariant ConfigMatrixModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Entry& e = m_configs[std::size_t(index.row())];
    const bool isRef = e.name == m_reference;
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return isRef ? tr("%1 (reference)").arg(e.name) : e.name;
        case Qt::EditRole:
            return e.name;
        case Qt::FontRole: {
            QFont f;
            f.setBold(isRef);
            return f;
        }
        case Qt::ToolTipRole: {
            const QStringList d = differences(index.row());
            return isRef         ? tr("The reference: every other config is compared with it.")
                   : d.isEmpty() ? tr("The same settings as the reference.")
                                 : tr("Differs from the reference in: %1").arg(d.join(u", "));
        }
        default:
            return {};
        }
    }
    const QString axis = axes()[index.column() - 1];
    const std::string k = axis.toStdString();
    const int ref = referenceRow();
    const bool differs =
        !isRef && ref >= 0 && e.config.at(k) != m_configs[std::size_t(ref)].config.at(k);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return valueText(e.config.at(k));
    case DiffersRole:
        return differs;
    case OptionsRole:
        return optionsOf(axis);
    case Qt::BackgroundRole:
        return differs ? QVariant(tint(changedColor(), 0.35)) : QVariant();
    case Qt::FontRole:
        if (differs) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        return differs ? tr("%1: %2 here, %3 in the reference")
                             .arg(axis, valueText(e.config.at(k)),
                                  valueText(m_configs[std::size_t(ref)].config.at(k)))
                       : QVariant();
    default:
        return {};
    }
}

bool ConfigMatrixModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid()) {
        return false;
    }
    Entry& e = m_configs[std::size_t(index.row())];
    if (index.column() == 0) {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == e.name) {
            return false;
        }
        for (const Entry& other : m_configs) {
            if (other.name == name) {
                Q_EMIT rejected(tr("There is already a config named %1.").arg(name));
                return false;
            }
        }
        if (e.name == m_reference) {
            m_reference = name;
        }
        e.name = name;
        m_modified = true;
        Q_EMIT dataChanged(index, index);
        return true;
    }
    const std::string k = axes()[index.column() - 1].toStdString();
    json candidate = e.config;
    const json& current = e.config.at(k);
    const QString text = value.toString().trimmed();
    if (current.is_boolean()) {
        candidate[k] = text == QLatin1String("true") || text == QLatin1String("1");
    } else if (current.is_number()) {
        bool ok = false;
        const qlonglong n = text.toLongLong(&ok);
        if (!ok) {
            Q_EMIT rejected(tr("%1 must be a whole number.").arg(axes()[index.column() - 1]));
            return false;
        }
        candidate[k] = std::int64_t(n);
    } else {
        candidate[k] = text.toStdString();
    }
    std::vector<std::string> errors;
    RunConfig::fromJson(candidate, "$.configs." + e.name.toStdString(), errors);
    if (!errors.empty()) {
        QStringList all;
        for (const auto& err : errors) {
            all << QString::fromStdString(err);
        }
        Q_EMIT rejected(all.join(u"; "));
        return false;
    }
    e.config = candidate;
    m_modified = true;
    // The reference changed: every row's highlighting may change.
    if (e.name == m_reference) {
        Q_EMIT dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
    } else {
        Q_EMIT dataChanged(this->index(index.row(), 0),
                           this->index(index.row(), columnCount() - 1));
    }
    return true;
}

Qt::ItemFlags ConfigMatrixModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

QVariant ConfigMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    return section == 0 ? tr("Config") : axes()[section - 1];
}

void ConfigMatrixModel::setReference(int row) {
    if (row < 0 || std::size_t(row) >= m_configs.size()) {
        return;
    }
    m_reference = m_configs[std::size_t(row)].name;
    m_modified = true;
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int ConfigMatrixModel::addConfig(int copyOfRow) {
    const int src =
        copyOfRow >= 0 && std::size_t(copyOfRow) < m_configs.size() ? copyOfRow : referenceRow();
    Entry e{tr("config-%1").arg(m_configs.size() + 1),
            src >= 0 ? m_configs[std::size_t(src)].config : RunConfig().allAxesJson()};
    for (int k = 2; std::any_of(m_configs.begin(), m_configs.end(),
                                [&](const Entry& o) { return o.name == e.name; });
         ++k) {
        e.name = tr("config-%1").arg(m_configs.size() + std::size_t(k));
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_configs.push_back(e);
    endInsertRows();
    m_modified = true;
    return row;
}

bool ConfigMatrixModel::removeConfig(int row) {
    if (row < 0 || std::size_t(row) >= m_configs.size() || row == referenceRow()) {
        Q_EMIT rejected(tr("The reference config cannot be removed; make another config the "
                           "reference first."));
        return false;
    }
    beginRemoveRows({}, row, row);
    m_configs.erase(m_configs.begin() + row);
    endRemoveRows();
    m_modified = true;
    return true;
}

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
    connect(run, &QPushButton::clicked, this, [this] {
        const QStringList configs = selectedConfigs();
        if (configs.isEmpty()) {
            m_message->setText(tr("Select the configs to run (rows)."));
            return;
        }
        if (save()) {
            Q_EMIT runRequested(configs);
            accept();
        }
    });
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    try {
        std::ifstream in(studyPath.toStdString());
        if (!in) {
            throw Error(studyPath.toStdString(), "cannot be read");
        }
        m_model->setStudyJson(ordered_json::parse(in, nullptr, true, /*ignore_comments=*/true));
        m_loaded = true;
    } catch (const std::exception& e) {
        m_message->setText(QString::fromStdString(e.what()));
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

} // namespace ui
} // namespace probaudit
