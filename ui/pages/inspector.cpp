#include "ui/pages/inspector.h"

#include "core/analysis/compare.h"
#include "core/common/error.h"
#include "core/common/head_spec.h"
#include "core/model/checkpoint.h"
#include "ui/charts/charts.h"
#include "ui/models/colors.h"
#include "ui/models/format.h"
#include "ui/models/inspectormodels.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScrollBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace probaudit::ui {

namespace {
constexpr double kL2Floor = 1e-12; // identical vectors are drawn here on the log scale

QLabel* sectionLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

QTableView* tableView(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* t = new QTableView(parent);
    t->setObjectName(name);
    t->setModel(model);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return t;
}

// A table exactly as tall as its rows: the inspector scrolls as a whole, tables do not.
void fitTable(QTableView* t) {
    t->resizeRowsToContents();
    int h = t->horizontalHeader()->sizeHint().height() + 2 * t->frameWidth();
    for (int r = 0; r < t->model()->rowCount(); ++r) {
        h += t->rowHeight(r);
    }
    if (t->horizontalScrollBar()->isVisible() ||
        t->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOn) {
        h += t->horizontalScrollBar()->sizeHint().height();
    }
    t->setFixedHeight(h);
}

void setChart(QChartView* v, QChart* c) {
    QChart* old = v->chart();
    styleChart(c);
    v->setChart(c);
    delete old;
}
} // namespace

Inspector::Inspector(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("inspector"));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    m_title->setWordWrap(true);
    QFont tf = m_title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.15);
    m_title->setFont(tf);
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("inspectorText"));
    m_text->setOpenLinks(false);
    m_text->setMinimumHeight(40);
    m_text->setMaximumHeight(160);
    m_tokenNote = new QLabel(this);
    m_tokenNote->setObjectName(QStringLiteral("tokenNote"));
    m_tokenNote->setWordWrap(true);
    m_pChart = new QChartView(this);
    m_pChart->setObjectName(QStringLiteral("inspectorPChart"));
    m_pChart->setRenderHint(QPainter::Antialiasing);
    m_pChart->setMinimumHeight(200);
    m_numbersModel = new ItemNumbersModel(this);
    m_numbers = tableView(m_numbersModel, QStringLiteral("inspectorNumbers"), this);
    m_numbers->verticalHeader()->hide();
    m_numbers->horizontalHeader()->setStretchLastSection(true);
    m_layerChart = new QChartView(this);
    m_layerChart->setObjectName(QStringLiteral("inspectorLayerChart"));
    m_layerChart->setRenderHint(QPainter::Antialiasing);
    m_layerChart->setMinimumHeight(280);
    m_layerNote = new QLabel(this);
    m_layerNote->setObjectName(QStringLiteral("layerNote"));
    m_layerNote->setWordWrap(true);
    m_layerNote->hide();
    m_hashModel = new LayerHashModel(this);
    m_hashes = tableView(m_hashModel, QStringLiteral("inspectorHashes"), this);
    m_hashes->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    layout->addWidget(m_tokenNote);
    layout->addWidget(sectionLabel(tr("p under every config"), this));
    layout->addWidget(m_pChart);
    layout->addWidget(m_numbers);
    layout->addWidget(sectionLabel(tr("Per-layer divergence from the reference"), this));
    layout->addWidget(m_layerChart);
    layout->addWidget(m_layerNote);
    layout->addWidget(sectionLabel(tr("Layer hashes: equal (=) or different (≠)"), this));
    layout->addWidget(m_hashes);
    layout->addStretch(1);
    setItem(-1);
}

Inspector::~Inspector() = default;

void Inspector::setReview(const ReviewPtr& review) {
    if (review != m_review) {
        m_tokenizer.reset();
        m_tokenizerTried = false;
        m_tokenizerError.clear();
    }
    m_review = review;
    setItem(-1);
}

void Inspector::showTokens(const ledger::Item& item, std::int64_t recordedTokens) {
    m_tokens.clear();
    const analysis::StudyFacts::Model& model = m_review->facts.model;
    if (model.served) { // the server tokenizes; there is no local tokenizer
        m_text->setHtml(QString::fromStdString(item.text).toHtmlEscaped());
        m_tokenNote->setText(tr("Tokenized by the server (%1): its tokens are not known here.")
                                 .arg(QString::fromStdString(model.endpoint)));
        return;
    }
    if (!m_tokenizerTried) {
        m_tokenizerTried = true;
        try {
            if (model.path.empty()) {
                throw Error("the study records no model path");
            }
            const std::string modelPath = model.path;
            auto ckpt = model::Checkpoint::open(modelPath);
            m_tokenizer = std::make_shared<tokenizer::Tokenizer>(ckpt.loadTokenizer());
        } catch (const std::exception& e) {
            m_tokenizerError = QString::fromStdString(e.what());
        }
    }
    const QString plain = QString::fromStdString(item.text).toHtmlEscaped();
    if (!m_tokenizer) {
        m_text->setHtml(plain);
        m_tokenNote->setText(tr("Tokens not shown: %1").arg(m_tokenizerError));
        return;
    }
    nlohmann::json headJson;
    for (const auto& r : m_review->runs) {
        if (r.head == m_review->head) {
            headJson = r.head_json;
            break;
        }
    }
    std::string prompt = item.text;
    try {
        prompt = HeadSpec::fromJson(headJson, "head").prompt(item.text);
    } catch (const std::exception&) {
        // A head we cannot read here: show the item's own text.
    }
    const auto enc = m_tokenizer->encode(prompt, true);
    QString html;
    bool odd = false;
    const QColor a = tint(nearBoundaryColor(), 0.22), b = tint(changedColor(), 0.30);
    for (const auto id : enc.ids) {
        QString tok = QString::fromStdString(m_tokenizer->token(id));
        m_tokens << tok;
        // Byte-level BPE spells a leading space as U+0120 and a newline as U+010A.
        tok.replace(QChar(0x0120), QChar(0x2423)).replace(QChar(0x010A), QStringLiteral("⏎"));
        html += QStringLiteral("<span style=\"background-color:%1\">%2</span> ")
                    .arg((odd ? a : b).name(), tok.toHtmlEscaped());
        odd = !odd;
    }
    m_text->setHtml(html);
    m_text->document()->setTextWidth(m_text->viewport()->width());
    m_text->setFixedHeight(std::clamp(int(m_text->document()->size().height()) + 8, 40, 160));
    QString note =
        tr("Tokens as the model read them: %1 (␣ marks a leading space).").arg(enc.ids.size());
    if (recordedTokens > 0 && recordedTokens != std::int64_t(enc.ids.size())) {
        note += u' ' + tr("The run recorded %1 tokens (truncated to the model's length, or "
                          "another tokenizer version).")
                           .arg(recordedTokens);
    }
    m_tokenNote->setText(note);
}

void Inspector::showEmpty() {
    m_title->setText(tr("No item selected"));
    m_layerNote->hide();
    m_text->setHtml(tr("Select an item in the items table, or click a point in the scatter "
                       "plot."));
    m_tokenNote->clear();
    m_tokens.clear();
    setChart(m_pChart, newChart());
    setChart(m_layerChart, newChart());
}

void Inspector::setItem(std::int64_t itemIndex) {
    m_item = itemIndex;
    m_numbersModel->setItem(m_review, itemIndex);
    m_hashModel->setItem(m_review, itemIndex);
    if (!m_review || itemIndex < 0 || std::size_t(itemIndex) >= m_review->items.size()) {
        showEmpty();
        return;
    }
    const ledger::Item& item = m_review->items[std::size_t(itemIndex)];
    const ledger::Record* ref = m_review->reference_run
                                    ? m_review->record(m_review->reference_run->id, itemIndex)
                                    : nullptr;
    m_title->setText(
        tr("Item %1 · label %2")
            .arg(QString::fromStdString(item.id), formatClass(classNames(*m_review), item.label)));
    showTokens(item, ref ? ref->tokens : 0);
    fitTable(m_numbers);
    setChart(m_pChart, pChart());
    m_pChart->setMinimumHeight(std::max(160, 60 + 28 * m_numbersModel->rowCount()));
    setChart(m_layerChart, layerChart());
    fitTable(m_hashes);
}

// p per config (the numbers table's rows), the reference on top, with the threshold of a binary
// head.
QChart* Inspector::pChart() const {
    auto* set = new QBarSet(tr("p"));
    set->setColor(changedColor());
    QStringList cats;
    // A horizontal bar chart lists its categories bottom-up: the last row first.
    for (int r = m_numbersModel->rowCount() - 1; r >= 0; --r) {
        const QModelIndex i = m_numbersModel->index(r, 0);
        cats << i.data(ItemNumbersModel::ConfigNameRole).toString();
        *set << i.data(ItemNumbersModel::PRole).toDouble();
    }
    auto* pc = newChart();
    auto* bars = new QHorizontalBarSeries;
    bars->append(set);
    bars->setBarWidth(0.6);
    pc->addSeries(bars);
    auto* yc = new QBarCategoryAxis;
    yc->append(cats);
    auto* xv = new QValueAxis;
    xv->setRange(0, 1);
    xv->setTitleText(tr("p"));
    pc->addAxis(yc, Qt::AlignLeft);
    pc->addAxis(xv, Qt::AlignBottom);
    bars->attachAxis(yc);
    bars->attachAxis(xv);
    if (classNames(*m_review).size() == 2) {
        auto* th = new QLineSeries;
        th->setName(tr("threshold"));
        th->append(0.5, -0.5);
        th->append(0.5, double(cats.size()) - 0.5);
        QPen pen(flipColor());
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        th->setPen(pen);
        pc->addSeries(th);
        th->attachAxis(xv);
        th->attachAxis(yc);
    }
    pc->legend()->hide();
    return pc;
}

// The relative L2 of the decision vector per hidden state (log scale), one line per config of
// the hash table; sets the note on states that match while the vector does not.
QChart* Inspector::layerChart() {
    const int layers = m_hashModel->columnCount();
    auto* lc = newChart();
    auto* x = new QValueAxis;
    x->setRange(0, std::max(1, layers - 1));
    x->setTickCount(std::min(layers, 11) > 1 ? std::min(layers, 11) : 2);
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTitleText(tr("hidden state (0 = embeddings); identical states drawn at 1e-12"));
    auto* y = new QLogValueAxis;
    y->setBase(1000); // a tick every three decades: labels that fit a narrow panel
    y->setRange(kL2Floor, 1);
    y->setLabelFormat(QStringLiteral("%.0e"));
    y->setTitleText(tr("relative L2 of the decision vector"));
    lc->addAxis(x, Qt::AlignBottom);
    lc->addAxis(y, Qt::AlignLeft);
    bool anyVectors = false;
    QStringList identical, poolingOnly;
    // The table's rows are the configs compared with the reference on this item: both have
    // its record.
    const ledger::Record* ref =
        m_review->reference_run ? m_review->record(m_review->reference_run->id, m_item) : nullptr;
    for (int r = 0; ref != nullptr && r < m_hashModel->rowCount(); ++r) {
        const auto& row = m_review->rows[std::size_t(m_hashModel->reviewRowAt(r))];
        const QString config = QString::fromStdString(row.config);
        const std::vector<double> rel =
            analysis::layerRelL2(*ref, *m_review->record(row.run->id, m_item));
        // States bitwise equal but the decision vector not: the head's own arithmetic (mean
        // pooling over a differently padded row) moved, not the transformer.
        for (std::size_t l = 0; l < rel.size(); ++l) {
            const QVariant differs =
                m_hashModel->index(r, int(l)).data(LayerHashModel::DiffersRole);
            if (differs.isValid() && !differs.toBool() && rel[l] > 0) {
                poolingOnly << config;
                break;
            }
        }
        if (rel.empty()) {
            continue;
        }
        anyVectors = true;
        if (std::all_of(rel.begin(), rel.end(), [](double v) { return v == 0; })) {
            identical << config; // a flat line at the floor says nothing; name it instead
            continue;
        }
        auto* s = new QLineSeries;
        s->setName(config);
        s->setPointsVisible(true);
        for (std::size_t l = 0; l < rel.size(); ++l) {
            s->append(double(l), std::max(kL2Floor, std::min(1.0, rel[l])));
        }
        lc->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    if (anyVectors && !identical.isEmpty()) {
        lc->setTitle(
            tr("Identical to the reference at every layer: %1").arg(identical.join(u", ")));
    }
    m_layerNote->setText(
        poolingOnly.isEmpty()
            ? QString()
            : tr("%1: the hidden states are bit-identical, yet the decision vector differs; the "
                 "head's pooling (a mean over the real tokens, summed in another order when the "
                 "row is padded differently) moved the numbers, not the layers.")
                  .arg(poolingOnly.join(u", ")));
    m_layerNote->setVisible(!poolingOnly.isEmpty());
    if (!anyVectors) {
        lc->setTitle(tr("The decision-token vectors were not captured (capture \"vectors\" "
                        "records them); the hashes below still show where the states differ."));
    }
    lc->legend()->setAlignment(Qt::AlignBottom);
    return lc;
}

} // namespace probaudit::ui
