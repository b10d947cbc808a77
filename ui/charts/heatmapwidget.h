#pragma once
// The per-layer divergence heatmap: rows are the configs compared with the reference, columns
// the hidden states (embeddings, layer 1 … L), colour the share of items whose real-token
// hidden states differ bitwise, or the median relative L2 distance of the decision-token
// vector (log colour scale). Painted by hand; a legend below; hover shows the cell's numbers;
// a click asks for the items behind the cell.
#include "ui/models/reviewloader.h"

#include <QWidget>

class QPainter;

namespace probaudit::ui {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    enum class Measure { BitwiseShare, RelativeL2 };

    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setReview(const ReviewPtr& review);
    void setMeasure(Measure m);
    Measure measure() const { return m_measure; }
    void setFontScale(double scale);
    // Rows are the configs (default), or the most-moved items of one comparison (flipped
    // first, then by Δp; at most `maxItems`), each cell then that item's own layer.
    void showConfigs();
    void showItems(int reviewRow, int maxItems = 40);
    bool showsItems() const { return m_itemMode; }
    std::int64_t itemOfRow(int row) const; // item mode: the study item of a heatmap row
    int rowTotal() const;
    // The review row drawn in each heatmap row (configs that have a comparison).
    const std::vector<int>& rows() const { return m_rows; }
    // Cell under a point in widget coordinates: {heatmap row, layer}, or {-1, -1}.
    std::pair<int, int> cellAt(const QPoint& p) const;
    QRect cellRect(int row, int layer) const;
    QString cellText(int row, int layer) const; // the tooltip

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // reviewRow: the dashboard row of the config; layer: hidden-state index.
    void cellClicked(int reviewRow, int layer);
    // Item mode: a click opens the item.
    void itemClicked(std::int64_t item);

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;

private:
    struct Geometry {
        int left = 0, top = 0, cellW = 0, cellH = 0, layers = 0;
    };
    Geometry geometry() const;
    void paintLegend(QPainter& p, const Geometry& g) const;
    double value(int row, int layer) const; // 0..1 colour position; <0 no data
    int layerCount() const;

    ReviewPtr m_review;
    QString rowLabel(int row) const;
    std::vector<int> m_rows;
    bool m_itemMode = false;
    int m_itemRow = -1;               // the review row whose items are shown
    std::vector<std::size_t> m_items; // indices into that comparison's diffs
    Measure m_measure = Measure::BitwiseShare;
    std::pair<int, int> m_hover{-1, -1};
    double m_fontScale = 1.0;
};

} // namespace probaudit::ui
