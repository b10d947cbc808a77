#pragma once
// The item inspector: one item's text split into the tokens the model read, its p under every
// config (bar chart with the decision threshold, and the exact numbers in a table), and, per
// layer, how far its hidden states are from the reference run: the relative L2 distance of the
// decision-token vector (line chart, log scale) and whether the layer's hash is equal.
#include "ui/reviewloader.h"

#include <QWidget>

#include <map>
#include <memory>

class QChartView;
class QLabel;
class QTableWidget;
class QTextBrowser;

namespace probaudit {
namespace tokenizer {
class Tokenizer;
}
namespace ui {

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
    QTableWidget* numbersTable() const { return m_numbers; }
    QTableWidget* hashTable() const { return m_hashes; }

private:
    void showTokens(const ledger::Item& item, std::int64_t recordedTokens);

    ReviewPtr m_review;
    std::int64_t m_item = -1;
    QLabel* m_title = nullptr;
    QTextBrowser* m_text = nullptr;
    QLabel* m_tokenNote = nullptr;
    QChartView* m_pChart = nullptr;
    QTableWidget* m_numbers = nullptr;
    QChartView* m_layerChart = nullptr;
    QLabel* m_layerNote = nullptr;
    QTableWidget* m_hashes = nullptr;
    QStringList m_tokens;
    std::shared_ptr<tokenizer::Tokenizer> m_tokenizer;
    QString m_tokenizerError;
    bool m_tokenizerTried = false;
};

} // namespace ui
} // namespace probaudit
