#include "ui/charts/heatmapwidget.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace probaudit::ui {

namespace {
// The relative-L2 colour scale: log10 from 1e-8 (0) to 1 (1).
double l2Position(double v) {
    if (!(v > 0)) {
        return 0;
    }
    return std::clamp((std::log10(v) + 8.0) / 8.0, 0.02, 1.0);
}
} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("heatmap"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void HeatmapWidget::setReview(const ReviewPtr& review) {
    m_review = review;
    m_rows.clear();
    if (review) {
        for (std::size_t r = 0; r < review->rows.size(); ++r) {
            if (review->rows[r].cmp && !review->rows[r].reference) {
                m_rows.push_back(int(r));
            }
        }
    }
    updateGeometry();
    update();
}

void HeatmapWidget::showConfigs() {
    m_itemMode = false;
    updateGeometry();
    update();
}

void HeatmapWidget::showItems(int reviewRow, int maxItems) {
    m_itemMode = true;
    m_itemRow = reviewRow;
    m_items.clear();
    if (m_review && reviewRow >= 0 && std::size_t(reviewRow) < m_review->rows.size() &&
        m_review->rows[std::size_t(reviewRow)].cmp) {
        const auto& diffs = m_review->rows[std::size_t(reviewRow)].cmp->diffs;
        for (std::size_t i = 0; i < diffs.size(); ++i) {
            if (!diffs[i].bit_identical) {
                m_items.push_back(i);
            }
        }
        std::stable_sort(m_items.begin(), m_items.end(), [&](std::size_t a, std::size_t b) {
            return std::pair(diffs[a].flip, diffs[a].dpOrder()) >
                   std::pair(diffs[b].flip, diffs[b].dpOrder());
        });
        if (m_items.size() > std::size_t(maxItems)) {
            m_items.resize(std::size_t(maxItems));
        }
    }
    updateGeometry();
    update();
}

int HeatmapWidget::rowTotal() const {
    return m_itemMode ? int(m_items.size()) : int(m_rows.size());
}

std::int64_t HeatmapWidget::itemOfRow(int row) const {
    if (!m_itemMode || row < 0 || std::size_t(row) >= m_items.size()) {
        return -1;
    }
    return m_review->rows[std::size_t(m_itemRow)].cmp->diffs[m_items[std::size_t(row)]].item;
}

QString HeatmapWidget::rowLabel(int row) const {
    if (m_itemMode) {
        const auto& d =
            m_review->rows[std::size_t(m_itemRow)].cmp->diffs[m_items[std::size_t(row)]];
        const QString id = QString::fromStdString(m_review->items[std::size_t(d.item)].id);
        return d.flip ? tr("%1 (flip)").arg(id) : id;
    }
    return QString::fromStdString(m_review->rows[std::size_t(m_rows[std::size_t(row)])].config);
}

void HeatmapWidget::setMeasure(Measure m) {
    m_measure = m;
    update();
}

void HeatmapWidget::setFontScale(double scale) {
    m_fontScale = scale;
    QFont f = font();
    f.setPointSizeF(QWidget::font().pointSizeF() * scale);
    setFont(f);
    updateGeometry();
    update();
}

int HeatmapWidget::layerCount() const {
    if (m_itemMode) {
        return m_items.empty() ? 0 : int(m_review->rows[std::size_t(m_itemRow)].cmp->layers.size());
    }
    int n = 0;
    for (int r : m_rows) {
        n = std::max(n, int(m_review->rows[std::size_t(r)].cmp->layers.size()));
    }
    return n;
}

HeatmapWidget::Geometry HeatmapWidget::geometry() const {
    Geometry g;
    const QFontMetrics fm(font());
    int labelW = fm.horizontalAdvance(tr("embeddings"));
    if (m_review) {
        for (int r = 0; r < rowTotal(); ++r) {
            labelW = std::max(labelW, fm.horizontalAdvance(rowLabel(r)));
        }
    }
    g.layers = layerCount();
    g.left = labelW + 16;
    g.top = fm.height() * 2 + 8;
    const int legendH = fm.height() * 3 + 16;
    const int avail = std::max(1, width() - g.left - 8);
    g.cellW = g.layers > 0 ? std::clamp(avail / g.layers, 14, 96) : 0;
    const int rowsH = std::max(1, height() - g.top - legendH);
    g.cellH =
        rowTotal() == 0 ? 0 : std::clamp(rowsH / rowTotal(), fm.height() + 6, fm.height() * 3);
    return g;
}

QSize HeatmapWidget::sizeHint() const {
    const QFontMetrics fm(font());
    const int rows = std::max<int>(1, rowTotal());
    return {fm.horizontalAdvance(QStringLiteral("M")) * 60,
            fm.height() * 2 + 8 + rows * (fm.height() * 2) + fm.height() * 3 + 16};
}

QSize HeatmapWidget::minimumSizeHint() const {
    const QFontMetrics fm(font());
    const int rows = std::max<int>(1, rowTotal());
    return {fm.horizontalAdvance(QStringLiteral("M")) * 30,
            fm.height() * 2 + 8 + rows * (fm.height() + 6) + fm.height() * 3 + 16};
}

QRect HeatmapWidget::cellRect(int row, int layer) const {
    const Geometry g = geometry();
    return {g.left + layer * g.cellW, g.top + row * g.cellH, g.cellW, g.cellH};
}

std::pair<int, int> HeatmapWidget::cellAt(const QPoint& p) const {
    const Geometry g = geometry();
    if (g.cellW <= 0 || g.cellH <= 0 || p.x() < g.left || p.y() < g.top) {
        return {-1, -1};
    }
    const int layer = (p.x() - g.left) / g.cellW;
    const int row = (p.y() - g.top) / g.cellH;
    if (row >= rowTotal() || layer >= g.layers) {
        return {-1, -1};
    }
    return {row, layer};
}

double HeatmapWidget::value(int row, int layer) const {
    if (m_itemMode) {
        const auto& c = *m_review->rows[std::size_t(m_itemRow)].cmp;
        const std::size_t k = m_items[std::size_t(row)];
        if (m_measure == Measure::BitwiseShare) {
            return c.layerDiffers(k, std::size_t(layer)) ? 1.0 : 0.0;
        }
        const auto* a = m_review->record(c.run_a, c.diffs[k].item);
        const auto* b = m_review->record(c.run_b, c.diffs[k].item);
        const auto rel = a && b ? analysis::layerRelL2(*a, *b) : std::vector<double>();
        return std::size_t(layer) < rel.size() ? l2Position(rel[std::size_t(layer)]) : -1;
    }
    const auto& c = *m_review->rows[std::size_t(m_rows[std::size_t(row)])].cmp;
    if (std::size_t(layer) >= c.layers.size()) {
        return -1;
    }
    const auto& ld = c.layers[std::size_t(layer)];
    if (m_measure == Measure::BitwiseShare) {
        return ld.share_different;
    }
    return ld.rel_l2_median ? l2Position(*ld.rel_l2_median) : -1;
}

QString HeatmapWidget::cellText(int row, int layer) const {
    if (row < 0 || row >= rowTotal()) {
        return {};
    }
    if (m_itemMode) {
        const auto& c = *m_review->rows[std::size_t(m_itemRow)].cmp;
        const std::size_t k = m_items[std::size_t(row)];
        QString t = c.layerDiffers(k, std::size_t(layer))
                        ? tr("%1, %2: the hidden states differ bitwise from the reference")
                        : tr("%1, %2: the same bits as the reference");
        t = t.arg(rowLabel(row), formatLayer(layer));
        return t + u'\n' +
               tr("Δp %1 points. Click to open the item.").arg(formatPoints(c.diffs[k].dp));
    }
    const auto& rr = m_review->rows[std::size_t(m_rows[std::size_t(row)])];
    const auto& c = *rr.cmp;
    if (std::size_t(layer) >= c.layers.size()) {
        return {};
    }
    const auto& ld = c.layers[std::size_t(layer)];
    QString t = tr("%1, %2: %3 of the items differ bitwise (%4 of %5)")
                    .arg(QString::fromStdString(rr.config), formatLayer(layer),
                         formatShare(ld.share_different))
                    .arg(std::llround(ld.share_different * double(c.items)))
                    .arg(c.items);
    if (ld.rel_l2_median) {
        t += u'\n' + tr("relative L2 of the decision-token vector: median %1, max %2")
                         .arg(QString::number(*ld.rel_l2_median, 'g', 3),
                              QString::number(ld.rel_l2_max.value_or(0), 'g', 3));
    }
    if (std::size_t(layer) < c.first_divergent.size() &&
        c.first_divergent[std::size_t(layer)] > 0) {
        t += u'\n' +
             tr("first divergent layer of %1 items").arg(c.first_divergent[std::size_t(layer)]);
    }
    t += u'\n' + tr("Click to list these items.");
    return t;
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QFontMetrics fm(font());
    if (!m_review || rowTotal() == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No per-layer records: run the study with capture \"hashes\" or "
                      "\"vectors\", and at least one config besides the reference."));
        return;
    }
    const Geometry g = geometry();
    if (g.layers == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("These runs were recorded with capture \"none\": there are no per-layer "
                      "hashes to compare."));
        return;
    }
    // Column labels: every layer when they fit, else every k-th.
    p.setPen(palette().color(QPalette::WindowText));
    const int labelEvery =
        std::max(1, (fm.horizontalAdvance(QStringLiteral("88")) + 6) / std::max(1, g.cellW) + 1);
    // The title may run past the cells (a model with few layers), up to the widget's edge;
    // beyond that it is elided, never cut mid-word.
    const QString title =
        m_itemMode ? (m_measure == Measure::BitwiseShare
                          ? tr("Layers whose hidden states differ bitwise from the "
                               "reference, per item (the most moved first)")
                          : tr("Relative L2 distance of each item's decision vector"))
        : m_measure == Measure::BitwiseShare
            ? tr("Share of items whose hidden states differ bitwise from the reference")
            : tr("Median relative L2 distance of the decision-token vector");
    const int titleWidth = std::max(g.layers * g.cellW, width() - g.left - 4);
    p.drawText(QRect(g.left, 0, titleWidth, fm.height() + 2), Qt::AlignLeft,
               fm.elidedText(title, Qt::ElideRight, titleWidth));
    for (int l = 0; l < g.layers; l += labelEvery) {
        const QString label = l == 0 ? tr("emb") : QString::number(l);
        p.drawText(QRect(g.left + l * g.cellW, fm.height() + 4, g.cellW, fm.height()),
                   Qt::AlignHCenter, label);
    }
    for (int r = 0; r < rowTotal(); ++r) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, g.top + r * g.cellH, g.left - 8, g.cellH),
                   Qt::AlignRight | Qt::AlignVCenter, rowLabel(r));
        for (int l = 0; l < g.layers; ++l) {
            const QRect cell = cellRect(r, l).adjusted(0, 0, -1, -1);
            const double v = value(r, l);
            if (v < 0) {
                p.fillRect(cell, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
                continue;
            }
            const QColor col = heatColor(v);
            p.fillRect(cell, col);
            if (m_measure == Measure::BitwiseShare && !m_itemMode &&
                g.cellW >= fm.horizontalAdvance(QStringLiteral("100%")) + 4) {
                p.setPen(col.lightness() < 128 ? Qt::white : Qt::black);
                const int pct = int(std::lround(100 * v));
                const QString text =
                    v == 0 ? QString() : (pct == 0 ? QStringLiteral("<1") : QString::number(pct));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    }
    if (m_hover.first >= 0) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(m_hover.first, m_hover.second).adjusted(1, 1, -2, -2));
    }
    paintLegend(p, g);
}

// The colour scale under the rows, and the colour of "no difference".
void HeatmapWidget::paintLegend(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    const int ly = g.top + rowTotal() * g.cellH + fm.height() / 2 + 4;
    const bool binary = m_itemMode && m_measure == Measure::BitwiseShare;
    const int lw = binary ? fm.height() * 2 : std::min(360, std::max(160, g.layers * g.cellW));
    QLinearGradient grad(g.left, 0, g.left + lw, 0);
    for (int k = 0; k <= 10; ++k) {
        grad.setColorAt(k / 10.0, heatColor(binary ? 1.0 : k / 10.0));
    }
    if (!binary) {
        grad.setColorAt(0, heatColor(0.0001));
    }
    p.fillRect(QRect(g.left, ly, lw, fm.height()), grad);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(g.left, ly, lw, fm.height()));
    p.setPen(palette().color(QPalette::WindowText));
    const QRect under(g.left, ly + fm.height() + 2, lw, fm.height());
    if (m_measure == Measure::BitwiseShare) {
        if (binary) {
            p.drawText(QRect(g.left, ly + fm.height() + 2, 200, fm.height()), Qt::AlignLeft,
                       tr("differs"));
        } else {
            p.drawText(under, Qt::AlignLeft, tr("> 0%"));
            p.drawText(under, Qt::AlignRight, tr("100% of items"));
        }
    } else {
        p.drawText(under, Qt::AlignLeft, QStringLiteral("1e-8"));
        p.drawText(under, Qt::AlignRight, QStringLiteral("1"));
    }
    const QRect blank(g.left + lw + 16, ly, fm.height() * 2, fm.height());
    p.fillRect(blank, heatColor(0));
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(blank);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(blank.right() + 6, ly, 400, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               m_measure == Measure::BitwiseShare ? tr("bit-identical") : tr("identical"));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* e) {
    const auto cell = cellAt(e->position().toPoint());
    if (cell != m_hover) {
        m_hover = cell;
        setCursor(cell.first >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void HeatmapWidget::leaveEvent(QEvent*) {
    m_hover = {-1, -1};
    update();
}

void HeatmapWidget::mousePressEvent(QMouseEvent* e) {
    const auto cell = cellAt(e->position().toPoint());
    if (cell.first >= 0 && e->button() == Qt::LeftButton) {
        if (m_itemMode) {
            Q_EMIT itemClicked(itemOfRow(cell.first));
        } else {
            Q_EMIT cellClicked(m_rows[std::size_t(cell.first)], cell.second);
        }
    }
}

bool HeatmapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto cell = cellAt(help->pos());
        if (cell.first >= 0) {
            QToolTip::showText(help->globalPos(), cellText(cell.first, cell.second), this);
        } else {
            QToolTip::hideText();
            e->ignore();
        }
        return true;
    }
    return QWidget::event(e);
}

} // namespace probaudit::ui
