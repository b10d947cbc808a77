#pragma once
// The Variants tab: each model variant's config against the reference variant's config with
// the same runtime settings (analysis::VariantTable, as `probaudit summary --variants` prints
// it): flips, churn and net accuracy with their intervals, the largest Δp, KL over the whole
// vocabulary and same top token where the head records its vocabulary, and whether each lies
// above the runtime noise floor. Empty for a study of one model.
#include "core/analysis/variants.h"
#include "ui/models/tablemodel.h"

namespace probaudit::ui {

class VariantsModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        VariantColumn,
        ConfigColumn,
        BaselineColumn,
        FlipsColumn,
        ChurnColumn,
        NetColumn,
        MaxDpColumn,
        AboveFloorColumn,
        KlMeanColumn,
        KlP99Column,
        SameTopColumn,
        KlAboveFloorColumn,
        NUM_COLUMNS
    };
    enum Roles { AboveFloorRole = Qt::UserRole }; // bool: flips or KL above the floor

    explicit VariantsModel(QObject* parent = nullptr);

    // The runtime noise floor in one translated sentence ("" without variants).
    QString floorText() const;

private:
    const analysis::VariantTable* table() const;
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QVariant text(const analysis::VariantRow& v, int column) const;
    QStringList headerTitles() const override;
    QString headerToolTip(int column) const override;
};

} // namespace probaudit::ui
