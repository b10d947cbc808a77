#include "ui/models/diagnosismodels.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QCoreApplication>

#include <cmath>

namespace probaudit::ui {

namespace {

// The view's words: translated under the diagnosis view's name, as they always were.
struct DiagnosisText {
    Q_DECLARE_TR_FUNCTIONS(probaudit::ui::DiagnosisView)
};

const analysis::Diagnosis* diagnosisOf(const ReviewPtr& review) {
    return review && review->diagnosis ? &*review->diagnosis : nullptr;
}

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

QString join(const std::vector<std::string>& values) {
    QStringList out;
    for (const auto& v : values) {
        out << str(v);
    }
    return out.join(QStringLiteral(", "));
}

QString outOf(std::int64_t part, std::int64_t whole) {
    return QStringLiteral("%1 / %2").arg(part).arg(whole);
}

} // namespace

// --- the probes

ProbeTableModel::ProbeTableModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

int ProbeTableModel::rows() const {
    const analysis::Diagnosis* d = diagnosisOf(review());
    return d == nullptr ? 0 : int(d->table.size());
}

QVariant ProbeTableModel::cellData(const QModelIndex& index, int role) const {
    const analysis::ProbeRow& row = diagnosisOf(review())->table[std::size_t(index.row())];
    const std::int64_t bits = std::llround(row.bit_identical * double(row.items));
    if (role == Qt::BackgroundRole) {
        return row.flips > 0           ? QVariant(tint(flipColor(), 0.2))
               : row.bit_identical < 1 ? QVariant(tint(changedColor(), 0.14))
                                       : QVariant();
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
    case WhatColumn:
        return str(row.what);
    case MaxDpColumn:
        return sort ? QVariant(row.max_dp) : QVariant(formatPoints(row.max_dp));
    case FirstLayerColumn:
        return str(row.first_layer);
    case FlippedColumn:
        return sort ? QVariant(qlonglong(row.flips)) : QVariant(outOf(row.flips, row.items));
    case BitIdenticalColumn:
        return sort ? QVariant(row.bit_identical) : QVariant(outOf(bits, row.items));
    default:
        return {};
    }
}

QStringList ProbeTableModel::headerTitles() const {
    return {DiagnosisText::tr("What changed"), DiagnosisText::tr("Largest Δp"),
            DiagnosisText::tr("First layer that differs"), DiagnosisText::tr("Flipped"),
            DiagnosisText::tr("Bit-identical")};
}

// --- the kernel-trace differences of the probes

KernelDiffModel::KernelDiffModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

void KernelDiffModel::reviewChanged() {
    m_rows.clear();
    if (const analysis::Diagnosis* d = diagnosisOf(review())) {
        auto runById = [&](std::int64_t id) -> const ledger::Run* {
            for (const auto& r : review()->runs) {
                if (r.id == id) {
                    return &r;
                }
            }
            return nullptr;
        };
        for (const analysis::ProbeRow& row : d->table) {
            const ledger::Run* a = runById(row.run_a);
            const ledger::Run* b = runById(row.run_b);
            if (a == nullptr || b == nullptr) {
                continue;
            }
            for (auto& k : analysis::kernelTraceDiff(a->kernel_trace, b->kernel_trace)) {
                m_rows.push_back({str(row.what), std::move(k)});
            }
        }
    }
}

int KernelDiffModel::rows() const {
    if (diagnosisOf(review()) == nullptr) {
        return 0;
    }
    return std::max(1, int(m_rows.size())); // none: one row that says so
}

QVariant KernelDiffModel::cellData(const QModelIndex& index, int role) const {
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    if (m_rows.empty()) {
        switch (index.column()) {
        case ProbeColumn:
            return DiagnosisText::tr("every probe");
        case NameColumn:
            return DiagnosisText::tr("the same operators ran, the same number of times");
        default:
            return QString();
        }
    }
    const Row& row = m_rows[std::size_t(index.row())];
    const bool sort = role == SortRole;
    switch (index.column()) {
    case ProbeColumn:
        return row.probe;
    case KindColumn:
        return row.diff.kind == TraceEntryKind::Op ? DiagnosisText::tr("operator")
                                                   : DiagnosisText::tr("device kernel");
    case NameColumn:
        return str(row.diff.name);
    case CountAColumn:
        return sort ? QVariant(qlonglong(row.diff.count_a))
                    : QVariant(QString::number(row.diff.count_a));
    case CountBColumn:
        return sort ? QVariant(qlonglong(row.diff.count_b))
                    : QVariant(QString::number(row.diff.count_b));
    default:
        return {};
    }
}

QStringList KernelDiffModel::headerTitles() const {
    return {DiagnosisText::tr("Probe"), DiagnosisText::tr("Kind"),
            DiagnosisText::tr("Operator or kernel"), DiagnosisText::tr("Count (A)"),
            DiagnosisText::tr("Count (B)")};
}

// --- the study's configs, explained

ConfigExplanationModel::ConfigExplanationModel(QObject* parent)
    : ReviewTableModel(NUM_COLUMNS, parent) {}

int ConfigExplanationModel::rows() const {
    const analysis::Diagnosis* d = diagnosisOf(review());
    return d == nullptr ? 0 : int(d->configs.size());
}

QVariant ConfigExplanationModel::cellData(const QModelIndex& index, int role) const {
    const analysis::ConfigExplanation& c = diagnosisOf(review())->configs[std::size_t(index.row())];
    const auto& r = c.result;
    if (role == Qt::BackgroundRole) {
        return r && r->flips > 0 ? QVariant(tint(flipColor(), 0.2)) : QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == SuspectsColumn && !c.environment.empty()) {
        // What differs in the environment (A: the reference's, B: this config's).
        QStringList lines;
        for (const auto& line : c.environment) {
            lines << str(line);
        }
        return lines.join(QLatin1Char('\n'));
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
    case ConfigColumn:
        return str(c.config);
    case DiffersColumn:
        return join(c.differs_in);
    case SuspectsColumn:
        return join(c.suspects);
    case FlipsColumn:
        if (sort) {
            return r ? qlonglong(r->flips) : qlonglong(-1);
        }
        return r ? QString::number(r->flips) : DiagnosisText::tr("not run");
    case MaxDpColumn:
        if (sort) {
            return r ? r->max_dp : -1.0;
        }
        return r ? formatPoints(r->max_dp) : QString();
    case FirstLayerColumn:
        return r ? str(r->first_layer) : QString();
    default:
        return {};
    }
}

QStringList ConfigExplanationModel::headerTitles() const {
    return {DiagnosisText::tr("Config"),     DiagnosisText::tr("Differs in"),
            DiagnosisText::tr("Suspects"),   DiagnosisText::tr("Flips"),
            DiagnosisText::tr("Largest Δp"), DiagnosisText::tr("First layer")};
}

// --- the fragility forecast

ForecastModel::ForecastModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

int ForecastModel::rows() const {
    const analysis::Diagnosis* d = diagnosisOf(review());
    return d == nullptr ? 0 : int(d->forecast.size());
}

QVariant ForecastModel::cellData(const QModelIndex& index, int role) const {
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const analysis::FlipForecast& f = diagnosisOf(review())->forecast[std::size_t(index.row())];
    const bool sort = role == SortRole;
    switch (index.column()) {
    case ConfigColumn:
        return str(f.config);
    case PredictedColumn:
        return sort ? QVariant(f.predicted_flips)
                    : QVariant(QString::number(f.predicted_flips, 'f', 1));
    case ObservedColumn:
        if (sort) {
            return qlonglong(f.observed_flips.value_or(-1));
        }
        return f.observed_flips ? QString::number(*f.observed_flips) : DiagnosisText::tr("not run");
    case ErrorColumn:
        if (!f.observed_flips) {
            return sort ? QVariant(0.0) : QVariant(QStringLiteral("–"));
        }
        return sort ? QVariant(f.predicted_flips - double(*f.observed_flips))
                    : QVariant(
                          QString::number(f.predicted_flips - double(*f.observed_flips), 'f', 1));
    case SampleColumn:
        return sort ? QVariant(qlonglong(f.sample))
                    : QVariant(DiagnosisText::tr("%1 items").arg(f.sample));
    default:
        return {};
    }
}

QStringList ForecastModel::headerTitles() const {
    return {DiagnosisText::tr("Config"), DiagnosisText::tr("Predicted flips"),
            DiagnosisText::tr("Observed flips"), DiagnosisText::tr("Error (predicted − observed)"),
            DiagnosisText::tr("Probe sample")};
}

} // namespace probaudit::ui
