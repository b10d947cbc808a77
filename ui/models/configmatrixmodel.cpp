#include "ui/models/configmatrixmodel.h"

#include "core/common/axes.h"
#include "core/common/error.h"
#include "core/common/run_config.h"
#include "ui/models/colors.h"

#include <QFont>

namespace probaudit::ui {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

QString valueText(const json& v) {
    if (v.is_string()) {
        return QString::fromStdString(v.get<std::string>());
    }
    return QString::fromStdString(v.dump());
}

} // namespace

ConfigMatrixModel::ConfigMatrixModel(QObject* parent) : TableModel(0, parent) {}

QStringList ConfigMatrixModel::axesFor(bool endpoint) {
    QStringList out;
    const json defaults = RunConfig().allAxesJson(); // items() must not outlive it
    for (const auto& [k, v] : defaults.items()) {
        const Axis* a = findAxis(k);
        if (a != nullptr && axisApplies(*a, endpoint)) {
            out << QString::fromStdString(k);
        }
    }
    return out;
}

QStringList ConfigMatrixModel::optionsOf(const QString& axis) {
    const Axis* a = findAxis(axis.toStdString());
    QStringList out; // the choices; for the device, suggestions (cuda:N may be typed); a number:
                     // none (typed freely)
    for (const auto& v : a == nullptr ? std::vector<std::string>() : axisValues(*a)) {
        out << QString::fromStdString(v);
    }
    return out;
}

void ConfigMatrixModel::setStudyJson(const ordered_json& study) {
    beginResetModel();
    m_study = study;
    m_axes = axesFor(study.contains("model") && study["model"].is_object() &&
                     study["model"].contains("endpoint"));
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

QVariant ConfigMatrixModel::cellData(const QModelIndex& index, int role) const {
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

QStringList ConfigMatrixModel::headerTitles() const {
    return QStringList{tr("Config")} + axes();
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

} // namespace probaudit::ui
