#include "ui/models/generationmodels.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QCoreApplication>

namespace probaudit::ui {

namespace {

// The translation context of the generation view's shared pieces (kept as it always was).
class GenerationView {
    Q_DECLARE_TR_FUNCTIONS(GenerationView)
};

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

const analysis::GenerationRow* generationRow(const ReviewPtr& review, int row) {
    return review && row >= 0 && std::size_t(row) < review->generation_rows.size()
               ? &review->generation_rows[std::size_t(row)]
               : nullptr;
}

QString generationKindName(GenerationPairKind kind) {
    if (kind == GenerationPairKind::Repeat) {
        return GenerationView::tr("run to run");
    }
    if (kind == GenerationPairKind::Serving) {
        return GenerationView::tr("serving (concurrency)");
    }
    return GenerationView::tr("configuration");
}

QString generationRowName(const analysis::GenerationRow& row) {
    return row.a == row.b ? GenerationView::tr("%1, run twice").arg(qs(row.a))
                          : GenerationView::tr("%1 vs %2").arg(qs(row.b), qs(row.a));
}

// --- the agreement table

GenerationTableModel::GenerationTableModel(QObject* parent)
    : ReviewTableModel(NUM_COLUMNS, parent) {}

QVariant GenerationTableModel::cellData(const QModelIndex& index, int role) const {
    const analysis::GenerationRow* g = generationRow(review(), index.row());
    const auto& c = g->cmp;
    const auto n = qulonglong(c.items.size());
    const bool allSame = c.identical == c.items.size();
    const bool answersDiffer = c.has_answers && c.answers_agree < c.items.size();
    if (role == IdenticalRole) {
        return allSame;
    }
    if (role == Qt::BackgroundRole) {
        if (allSame) {
            return tint(unchangedColor(), 0.18);
        }
        return tint(answersDiffer ? flipColor() : changedColor(), 0.22);
    }
    if (role == Qt::ToolTipRole) {
        return tr("Run %1 (%2) against run %3 (%4)")
            .arg(g->run_b)
            .arg(qs(g->b))
            .arg(g->run_a)
            .arg(qs(g->a));
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() >= IdenticalColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                 : QVariant();
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    switch (index.column()) {
    case ComparisonColumn:
        return generationRowName(*g);
    case KindColumn:
        return generationKindName(g->kind);
    case DiffersColumn: {
        QStringList axes;
        for (const auto& a : g->differs_in) {
            axes << qs(a);
        }
        return axes.isEmpty() ? tr("nothing") : axes.join(QStringLiteral(", "));
    }
    case IdenticalColumn:
        if (sort) {
            return c.identicalShare();
        }
        return tr("%1 / %2 (%3)")
            .arg(qulonglong(c.identical))
            .arg(n)
            .arg(formatShare(c.identicalShare()));
    case JaccardColumn:
        return sort ? QVariant(c.pooled_jaccard)
                    : QVariant(QString::number(c.pooled_jaccard, 'f', 4));
    case AnswersColumn:
        if (!c.has_answers) {
            return sort ? QVariant(-1.0) : QVariant(tr("no reduction"));
        }
        return sort ? QVariant(c.answerAgreement())
                    : QVariant(tr("%1 / %2").arg(qulonglong(c.answers_agree)).arg(n));
    case RecordsColumn:
        return sort ? QVariant(qulonglong(c.records_b))
                    : QVariant(
                          tr("%1 / %2").arg(qulonglong(c.records_a)).arg(qulonglong(c.records_b)));
    case KlColumn:
    case SameTopColumn:
    case RmsDpColumn:
        return tokenCell(g->tokens, index.column(), sort);
    default:
        return {};
    }
}

QVariant GenerationTableModel::tokenCell(const std::optional<analysis::TokenMetrics>& m, int column,
                                         bool sort) {
    if (!m) { // the runs carry no top-K lists (the engine's, or a server that returns none)
        return sort ? QVariant(-1.0) : QVariant(QStringLiteral("\u2013"));
    }
    switch (column) {
    case KlColumn:
        return sort ? QVariant(m->kl_mean) : QVariant(QString::number(m->kl_mean, 'g', 3));
    case SameTopColumn:
        return sort ? QVariant(m->top1.estimate)
                    : QVariant(tr("%1 (%2\u2013%3)")
                                   .arg(m->top1.estimate, 0, 'f', 4)
                                   .arg(m->top1.low, 0, 'f', 3)
                                   .arg(m->top1.high, 0, 'f', 3));
    default:
        return sort ? QVariant(m->rms_dp) : QVariant(formatPoints(m->rms_dp));
    }
}

QStringList GenerationTableModel::headerTitles() const {
    return {tr("Comparison"),
            tr("Kind"),
            tr("Differs in"),
            tr("Byte-identical outputs"),
            tr("Record Jaccard (pooled)"),
            tr("Answers agree"),
            tr("Records"),
            tr("KL (mean)"),
            tr("Same top token"),
            tr("RMS Δp")};
}

QString GenerationTableModel::headerToolTip(int column) const {
    switch (column) {
    case IdenticalColumn:
        return tr("Outputs with exactly the same tokens in both runs");
    case JaccardColumn:
        return tr("Records shared by both runs over records in either, pooled over the items "
                  "(1 = the same records)");
    case AnswersColumn:
        return tr("Items whose answer (the reduction over their records) is the same");
    case RecordsColumn:
        return tr("Distinct records per item, summed: reference side / other side");
    case KlColumn:
        return tr("Mean KL divergence per token position (nats), over the tokens both runs' "
                  "top-K lists hold, up to each output's first differing token");
    case SameTopColumn:
        return tr("Token positions whose most likely token is the same in both runs, with a "
                  "95% interval");
    case RmsDpColumn:
        return tr("Root mean square of the change of the chosen token's probability, in "
                  "points");
    default:
        return {};
    }
}

// --- the outputs of one comparison

GenerationItemsModel::GenerationItemsModel(QObject* parent) : TableModel(NUM_COLUMNS, parent) {}

void GenerationItemsModel::setComparison(const ReviewPtr& review, int row) {
    beginResetModel();
    m_review = review;
    m_row = generationRow(review, row);
    m_items.clear();
    if (m_row != nullptr) {
        const auto it = review->generations.find(m_row->run_a);
        if (it != review->generations.end()) {
            for (const auto& g : it->second) {
                m_items.push_back(g.item);
            }
        }
        m_items.resize(m_row->cmp.items.size(), -1);
    }
    endResetModel();
}

QVariant GenerationItemsModel::cellData(const QModelIndex& index, int role) const {
    const auto& d = m_row->cmp.items[std::size_t(index.row())];
    if (role == ItemIndexRole) {
        return qint64(m_items[std::size_t(index.row())]);
    }
    if (role == Qt::BackgroundRole) {
        if (d.answer_a != d.answer_b) {
            return tint(flipColor(), 0.25);
        }
        if (d.jaccard < 1) {
            return tint(changedColor(), 0.25);
        }
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == DivergenceColumn && !d.identical) {
        return tr("The outputs agree on the first %1 generated tokens").arg(d.first_divergence);
    }
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort) {
        return {};
    }
    switch (index.column()) {
    case ItemColumn:
        return qs(d.id);
    case IdenticalColumn:
        return sort ? QVariant(d.identical) : QVariant(d.identical ? tr("yes") : tr("no"));
    case DivergenceColumn:
        if (d.identical) {
            return sort ? QVariant(qint64(1) << 40) : QVariant(QStringLiteral("—"));
        }
        return sort ? QVariant(qint64(d.first_divergence))
                    : QVariant(QString::number(d.first_divergence + 1));
    case GapColumn:
        if (d.identical) {
            return sort ? QVariant(1e30) : QVariant(QStringLiteral("—"));
        }
        return sort ? QVariant(double(d.gap_at_divergence))
                    : QVariant(formatGap(double(d.gap_at_divergence)));
    case JaccardColumn:
        // Sorting: the lowest Jaccard first, different answers before equal ones, divergent
        // outputs before identical ones.
        return sort ? QVariant(d.jaccard + (d.answer_a == d.answer_b ? 1e-9 : 0) +
                               (d.identical ? 1e-10 : 0))
                    : QVariant(QString::number(d.jaccard, 'f', 3));
    case AnswerAColumn:
        return qs(d.answer_a);
    case AnswerBColumn:
        return qs(d.answer_b);
    default:
        return {};
    }
}

QStringList GenerationItemsModel::headerTitles() const {
    return {tr("Item"),
            tr("Identical"),
            tr("Diverges at token"),
            tr("Logit gap there"),
            tr("Record Jaccard"),
            tr("Answer (reference side)"),
            tr("Answer (other side)")};
}

int tellingGenerationRow(const analysis::Review& review) {
    int worst = -1;
    std::pair<bool, std::size_t> worstKey{false, 0};
    for (std::size_t r = 0; r < review.generation_rows.size(); ++r) {
        const auto& g = review.generation_rows[r];
        const std::size_t differ = g.cmp.items.size() - g.cmp.identical;
        const std::pair<bool, std::size_t> key{g.kind == GenerationPairKind::Serving && differ > 0,
                                               differ};
        if (worst < 0 || key > worstKey) {
            worst = int(r);
            worstKey = key;
        }
    }
    return worst;
}

std::int64_t tellingGenerationItem(const analysis::Review& review, int row) {
    if (row < 0 || std::size_t(row) >= review.generation_rows.size()) {
        return -1;
    }
    const analysis::GenerationItemDiff* best = nullptr;
    for (const auto& d : review.generation_rows[std::size_t(row)].cmp.items) {
        if (!d.identical && (best == nullptr || d.jaccard < best->jaccard)) {
            best = &d;
        }
    }
    if (best == nullptr) {
        return -1;
    }
    for (const auto& it : review.items) {
        if (it.id == best->id) {
            return it.idx;
        }
    }
    return -1;
}

} // namespace probaudit::ui
