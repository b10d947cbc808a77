#pragma once
// The config matrix: a study's runtime configurations as a table, one row per config and one
// column per axis (core/common/axes.h, DESIGN.md: Runtime configuration axes). Cells that
// differ from the reference config are tinted; every edit is checked with the engine's own
// rules (RunConfig). The config editor (ui/pages/configeditor.h) shows and saves it.
#include "ui/models/tablemodel.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <vector>

namespace probaudit::ui {

class ConfigMatrixModel : public TableModel {
    Q_OBJECT
public:
    enum Roles { DiffersRole = Qt::UserRole, OptionsRole };

    explicit ConfigMatrixModel(QObject* parent = nullptr);
    // Reads the configs and the reference from a study's JSON. Throws probaudit::Error.
    void setStudyJson(const nlohmann::ordered_json& study);
    // The study JSON with the edited configs and reference (only non-default axes written).
    nlohmann::ordered_json studyJson() const;

    // The columns: the axes of this study's kind (an endpoint study's requests, or the
    // engine's settings; core/common/axes.h), in the canonical order.
    const QStringList& axes() const { return m_axes; }
    static QStringList axesFor(bool endpoint);
    // The values an axis may take ({} for free numbers).
    static QStringList optionsOf(const QString& axis);

    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    QString configName(int row) const;
    QString reference() const { return m_reference; }
    void setReference(int row);
    int addConfig(int copyOfRow); // returns the new row
    bool removeConfig(int row);   // the reference cannot be removed
    bool isModified() const { return m_modified; }
    void setModified(bool m) { m_modified = m; }
    // The axes in which a config differs from the reference.
    QStringList differences(int row) const;

Q_SIGNALS:
    void rejected(const QString& why); // an edit the rules refuse, in one sentence

private:
    int rows() const override { return int(m_configs.size()); }
    int columns() const override { return int(axes().size()) + 1; } // the name, then the axes
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;

    struct Entry {
        QString name;
        nlohmann::json config; // full canonical RunConfig JSON
    };
    int referenceRow() const;

    nlohmann::ordered_json m_study;
    QStringList m_axes = axesFor(false);
    std::vector<Entry> m_configs;
    QString m_reference;
    bool m_modified = false;
};

} // namespace probaudit::ui
