#include "ui/models/variantsmodel.h"

#include "core/analysis/diagnosis.h"
#include "ui/models/colors.h"

namespace probaudit::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

VariantsModel::VariantsModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

const analysis::VariantTable* VariantsModel::table() const {
    return review() ? review()->variants.get() : nullptr;
}

int VariantsModel::rows() const {
    return table() != nullptr ? int(table()->rows.size()) : 0;
}

QString VariantsModel::floorText() const {
    const analysis::VariantTable* t = table();
    if (t == nullptr) {
        return {};
    }
    const auto& f = t->floor;
    QString text =
        f.configs == 0
            ? tr("Runtime noise floor: not measured (no runtime config of \"%1\" besides the "
                 "reference has a run).")
                  .arg(qs(t->reference_variant))
            : tr("Runtime noise floor: the reference variant \"%1\" under %2 other runtime "
                 "config(s) flips at most %3 decision(s), largest Δp %4 points.")
                  .arg(qs(t->reference_variant))
                  .arg(f.configs)
                  .arg(f.max_flips)
                  .arg(qs(analysis::formatPoints(f.max_dp)));
    if (f.kl_mean) {
        text += QLatin1Char(' ') + tr("Its largest mean KL over the vocabulary: %1 nats (%2).")
                                       .arg(qs(analysis::formatNats(*f.kl_mean)), qs(f.kl_config));
    }
    for (const auto& c : t->unpaired) {
        text += QLatin1Char(' ') + tr("%1 has no run of the reference variant with the same "
                                      "runtime settings to compare it with.")
                                       .arg(qs(c));
    }
    return text;
}

QVariant VariantsModel::text(const analysis::VariantRow& v, int column) const {
    const bool floor = table()->floor.configs > 0, klFloor = table()->floor.kl_mean.has_value();
    const auto yesNo = [](bool measured, bool above) {
        return measured ? (above ? tr("yes") : tr("no")) : tr("not measured");
    };
    switch (column) {
    case VariantColumn:
        return qs(v.variant);
    case ConfigColumn:
        return qs(v.config);
    case BaselineColumn:
        return qs(v.baseline);
    case FlipsColumn:
        return qlonglong(v.flips);
    case ChurnColumn:
        return v.labelled > 0 ? qs(analysis::formatShare(v.churn)) : tr("no labels");
    case NetColumn:
        return v.net ? qs(analysis::formatNetPoints(v.net)) : tr("no labels");
    case MaxDpColumn:
        return qs(analysis::formatPoints(v.max_dp));
    case AboveFloorColumn:
        return yesNo(floor, v.above_floor);
    case KlMeanColumn:
        return v.kl ? qs(analysis::formatNats(v.kl->mean)) : tr("not recorded");
    case KlP99Column:
        return v.kl ? qs(analysis::formatNats(v.kl->p99)) : QVariant();
    case SameTopColumn:
        return v.kl ? qs(analysis::formatShare(v.kl->same_top_share)) : QVariant();
    case KlAboveFloorColumn:
        return v.kl ? yesNo(klFloor, v.kl_above_floor) : QVariant();
    default:
        return {};
    }
}

QVariant VariantsModel::cellData(const QModelIndex& index, int role) const {
    const analysis::VariantRow& v = table()->rows[std::size_t(index.row())];
    const bool above = v.above_floor || v.kl_above_floor;
    if (role == AboveFloorRole) {
        return above;
    }
    if (role == Qt::BackgroundRole &&
        ((index.column() == AboveFloorColumn && v.above_floor) ||
         (index.column() == KlAboveFloorColumn && v.kl_above_floor))) {
        return tint(flipColor(), 0.25);
    }
    if (role == Qt::TextAlignmentRole && index.column() == FlipsColumn) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::DisplayRole) {
        return text(v, index.column());
    }
    return {};
}

QStringList VariantsModel::headerTitles() const {
    return {tr("Variant"),    tr("Config"),          tr("Against"),
            tr("Flips"),      tr("Churn (95%)"),     tr("Net, points"),
            tr("Largest Δp"), tr("Above the floor"), tr("KL mean (nats)"),
            tr("KL p99"),     tr("Same top token"),  tr("KL above the floor")};
}

QString VariantsModel::headerToolTip(int column) const {
    switch (column) {
    case BaselineColumn:
        return tr("The reference variant's config with the same runtime settings");
    case ChurnColumn:
        return tr("Labelled items whose correctness changed either way (Wilson 95%)");
    case NetColumn:
        return tr("The accuracy difference, variant minus baseline (paired bootstrap 95%)");
    case AboveFloorColumn:
        return tr("More flips than any runtime config of the reference variant, or as many "
                  "and a larger Δp");
    case KlMeanColumn:
        return tr("KL(baseline || variant) over the whole vocabulary at the decision position, "
                  "mean over items (heads that record their vocabulary)");
    case SameTopColumn:
        return tr("Items whose most likely vocabulary token is the same (Wilson 95%)");
    case KlAboveFloorColumn:
        return tr("A mean KL above every runtime config's");
    default:
        return {};
    }
}

} // namespace probaudit::ui
