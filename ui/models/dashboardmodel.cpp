#include "ui/models/dashboardmodel.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QStringList>

namespace probaudit::ui {

DashboardModel::DashboardModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

Severity DashboardModel::severityOf(const analysis::ReviewRow& row) {
    if (!row.cmp) {
        return Severity::NotRun;
    }
    if (row.cmp->flips > 0) {
        return Severity::Flips;
    }
    return row.cmp->verdict.probabilities ? Severity::BitIdentical : Severity::Numbers;
}

QVariant DashboardModel::cellData(const QModelIndex& index, int role) const {
    const analysis::ReviewRow& row = review()->rows[std::size_t(index.row())];
    const analysis::Comparison* c = row.cmp ? &*row.cmp : nullptr;
    const int col = index.column();
    if (role == ConfigNameRole) {
        return QString::fromStdString(row.config);
    }
    if (role == SeverityRole) {
        return int(severityOf(row));
    }
    if (role == VerdictRole) {
        if (c == nullptr) {
            return {};
        }
        return QVariantList{c->verdict.accuracy, c->verdict.decisions, c->verdict.probabilities};
    }
    if (role == Qt::BackgroundRole) {
        return severityBackground(severityOf(row));
    }
    if (role == Qt::TextAlignmentRole) {
        return col == ConfigColumn || col == DiffersColumn || col == FirstLayerColumn ||
                       col == VerdictColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole) {
        return toolTip(row, col);
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    return cell(row, col, role == SortRole);
}

QVariant DashboardModel::toolTip(const analysis::ReviewRow& row, int col) const {
    const analysis::Comparison* c = row.cmp ? &*row.cmp : nullptr;
    if (col == ConfigColumn && row.other_env && row.run) {
        return tr("Config %1 as recorded in environment %2 (run %3%4), not in the reference "
                  "run's environment; compared with the reference recorded here.")
            .arg(QString::fromStdString(row.config_name), QString::fromStdString(row.env_hash))
            .arg(row.run->id)
            .arg(row.run->label.empty()
                     ? QString()
                     : QStringLiteral(", ") + QString::fromStdString(row.run->label));
    }
    if (c == nullptr) {
        return tr("Config %1 has no finished run for this head yet.")
            .arg(QString::fromStdString(row.config));
    }
    if (col == AccuracyDiffColumn && c->accuracy_diff) {
        return tr("Accuracy of this config minus the reference's, in points, with a paired "
                  "bootstrap 95% interval. McNemar's exact test on the %1 + %2 items that "
                  "only one run gets right: p = %3.")
            .arg(c->only_a_correct)
            .arg(c->only_b_correct)
            .arg(c->mcnemar_p ? QString::number(*c->mcnemar_p, 'g', 3) : QStringLiteral("–"));
    }
    if (col == VerdictColumn) {
        return formatVerdict(c->verdict.accuracy, c->verdict.decisions, c->verdict.probabilities);
    }
    if (col == FirstLayerColumn) {
        return tr("Where the hidden states first differ: %1")
            .arg(QString::fromStdString(analysis::firstLayers(*c)));
    }
    return {};
}

// A cell's text, or with `sort` the number it sorts by.
QVariant DashboardModel::cell(const analysis::ReviewRow& row, int col, bool sort) const {
    const analysis::Comparison* c = row.cmp ? &*row.cmp : nullptr;
    switch (col) {
    case ConfigColumn:
        // The reference is marked, unless its name already says so.
        return row.reference && row.config != "reference"
                   ? tr("%1 (reference)").arg(QString::fromStdString(row.config))
                   : QString::fromStdString(row.config);
    case DiffersColumn: {
        QStringList axes;
        for (const auto& a : row.differs_in) {
            axes << QString::fromStdString(a);
        }
        return axes.isEmpty() ? (row.reference ? QString() : tr("nothing")) : axes.join(u", ");
    }
    default:
        break;
    }
    if (c == nullptr) {
        return col == AccuracyColumn && !sort ? tr("not run yet") : QVariant();
    }
    switch (col) {
    case AccuracyColumn:
        return sort ? QVariant(c->accuracy_b.value_or(-1)) : formatAccuracy(c->accuracy_b);
    case AccuracyDiffColumn:
        if (!c->accuracy_diff || row.reference) {
            return sort ? QVariant(0.0) : QVariant(QStringLiteral("\u2013"));
        }
        return sort ? QVariant(c->accuracy_diff->estimate)
                    : QVariant(formatInterval(c->accuracy_diff->estimate, c->accuracy_diff->low,
                                              c->accuracy_diff->high));
    case AgreementColumn:
        return sort ? QVariant(c->agreement) : QVariant(formatShare(c->agreement));
    case FlipsColumn:
        return sort ? QVariant(qlonglong(c->flips))
                    : QVariant(QStringLiteral("%1 / %2").arg(c->flips).arg(c->items));
    case MaxDpColumn:
        return sort ? QVariant(c->max_dp) : QVariant(formatPoints(c->max_dp));
    case BitIdenticalColumn:
        return sort ? QVariant(c->bit_identical_share)
                    : QVariant(formatShare(c->bit_identical_share));
    case FirstLayerColumn:
        if (row.reference) {
            return sort ? QVariant(-1) : QVariant(QStringLiteral("\u2013"));
        }
        if (!sort && row.modal_first_layer == -1 && c->bit_identical_share < 1) {
            return tr("none (head only)"); // the states match; the head's arithmetic moved
        }
        return sort ? QVariant(row.modal_first_layer)
                    : QVariant(formatLayer(row.modal_first_layer));
    case VerdictColumn:
        return sort ? QVariant(int(severityOf(row))) : QVariant(); // painted as badges
    default:
        return {};
    }
}

QStringList DashboardModel::headerTitles() const {
    return {tr("Config"),
            tr("Differs in"),
            tr("Accuracy"),
            tr("ΔAcc (points) [95%]"),
            tr("Agreement"),
            tr("Flips"),
            tr("Max Δp"),
            tr("Bit-identical"),
            tr("First divergent layer"),
            tr("Verdict")};
}

QString DashboardModel::headerToolTip(int column) const {
    switch (column) {
    case DiffersColumn:
        return tr("The runtime-configuration axes in which this config differs from the "
                  "reference config.");
    case AgreementColumn:
        return tr("Share of items with the same decision as in the reference run.");
    case FlipsColumn:
        return tr("Items whose decision differs from the reference run.");
    case MaxDpColumn:
        return tr("Largest Δp: 100 × |p(reference) − p(config)| over the items, in points.");
    case BitIdenticalColumn:
        return tr("Share of items whose every recorded float and layer hash has the same bits "
                  "as in the reference run.");
    case FirstLayerColumn:
        return tr("The first divergent layer seen most often: the first layer whose hidden "
                  "states differ bitwise from the reference run.");
    case VerdictColumn:
        return tr("The three levels of reproduction: accuracy (the interval of the difference "
                  "contains 0), decisions (no flips), bits (every item bit-identical).");
    default:
        return {};
    }
}

} // namespace probaudit::ui
