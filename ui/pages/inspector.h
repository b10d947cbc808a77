#pragma once
// The item inspector: one item's text split into the tokens the model read, its p under every
// config (bar chart with the decision threshold, and the exact numbers in a table), and, per
// layer, how far its hidden states are from the reference run: the relative L2 distance of the
// decision-token vector (line chart, log scale) and whether the layer's hash is equal. The two
// tables are models (ui/models/inspectormodels.h) read from the comparisons' ItemDiffs.
#include "ui/models/reviewloader.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QLabel;
class QTableView;
class QTextBrowser;

namespace probaudit {
namespace tokenizer {
class Tokenizer;
}
} // namespace probaudit

namespace probaudit::ui {

class ItemNumbersModel;
class LayerHashModel;

class Inspector : public QWidget {
    Q_OBJECT
public:
    explicit Inspector(QWidget* parent = nullptr);
    ~Inspector() override;
    void setReview(const ReviewPtr& review);
    void setItem(std::int64_t item);
    std::int64_t item() const { return m_item; }
    // The tokens shown for the current item ("" entries when the tokenizer is unavailable).
    const QStringList& tokens() const { return m_tokens; }
    ItemNumbersModel* numbersModel() const { return m_numbersModel; }
    LayerHashModel* hashModel() const { return m_hashModel; }
    QTableView* numbersView() const { return m_numbers; }
    QTableView* hashView() const { return m_hashes; }

private:
    void showTokens(const ledger::Item& item, std::int64_t recordedTokens);
    void showEmpty();
    QChart* pChart() const;
    QChart* layerChart();

    ReviewPtr m_review;
    std::int64_t m_item = -1;
    QLabel* m_title = nullptr;
    QTextBrowser* m_text = nullptr;
    QLabel* m_tokenNote = nullptr;
    QChartView* m_pChart = nullptr;
    ItemNumbersModel* m_numbersModel = nullptr;
    QTableView* m_numbers = nullptr;
    QChartView* m_layerChart = nullptr;
    QLabel* m_layerNote = nullptr;
    LayerHashModel* m_hashModel = nullptr;
    QTableView* m_hashes = nullptr;
    QStringList m_tokens;
    std::shared_ptr<tokenizer::Tokenizer> m_tokenizer;
    QString m_tokenizerError;
    bool m_tokenizerTried = false;
};

} // namespace probaudit::ui
