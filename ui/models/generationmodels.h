#pragma once
// A generation study's tables (the second field report): the agreement table, one row per
// pair of generation runs (run to run, serving, other configs) with the byte-identical share,
// the pooled record Jaccard and the answer agreement; and the outputs of one pair, one row per
// item. The generation page shows them; the report uses the same names for its rows.
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

namespace probaudit::ui {

// The generation row `row` of a review, or null.
const analysis::GenerationRow* generationRow(const ReviewPtr& review, int row);

// Names a generation row's kind for people: run to run, serving, configuration.
QString generationKindName(GenerationPairKind kind);
// The row's name as the table shows it: "B vs A", or "A, run twice".
QString generationRowName(const analysis::GenerationRow& row);
// The comparison a generation review opens on (the page and presentation mode): the serving
// comparison whose outputs differ most (batching is what a generation audit is about), else
// the one that differs most; -1 when there is none.
int tellingGenerationRow(const analysis::Review& review);
// The prompt that shows it best: of the outputs that differ, the one with the lowest record
// Jaccard (the first of equals); -1 when every output is byte-identical.
std::int64_t tellingGenerationItem(const analysis::Review& review, int row);

class GenerationTableModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        ComparisonColumn,
        KindColumn,
        DiffersColumn,
        IdenticalColumn,
        JaccardColumn,
        AnswersColumn,
        RecordsColumn,
        // Where both runs have a server's top-K log-probabilities per token (endpoint runs):
        KlColumn,      // mean KL divergence per position over the top-K overlap
        SameTopColumn, // share of positions with the same top token
        RmsDpColumn,   // RMS of the chosen token's Δp, points
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        IdenticalRole, // bool: every output byte-identical
    };

    explicit GenerationTableModel(QObject* parent = nullptr);

private:
    int rows() const override { return review() ? int(review()->generation_rows.size()) : 0; }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    QString headerToolTip(int column) const override;
    static QVariant tokenCell(const std::optional<analysis::TokenMetrics>& m, int column,
                              bool sort);
};

// The outputs of one generation comparison, one row per item.
class GenerationItemsModel : public TableModel {
    Q_OBJECT
public:
    enum Columns {
        ItemColumn,
        IdenticalColumn,
        DivergenceColumn,
        GapColumn,
        JaccardColumn,
        AnswerAColumn,
        AnswerBColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole,
        ItemIndexRole, // qint64: the ledger item
    };

    explicit GenerationItemsModel(QObject* parent = nullptr);
    void setComparison(const ReviewPtr& review, int row);

private:
    int rows() const override { return m_row == nullptr ? 0 : int(m_row->cmp.items.size()); }
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;

    ReviewPtr m_review;
    const analysis::GenerationRow* m_row = nullptr;
    std::vector<std::int64_t> m_items; // ledger item of each diff, in the comparison's order
};

} // namespace probaudit::ui
