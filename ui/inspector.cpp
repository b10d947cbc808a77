#include "ui/inspector.h"

#include "analysis/compare.h"
#include "common/head_spec.h"
#include "model/checkpoint.h"
#include "ui/charts.h"
#include "ui/format.h"
#include "ui/theme.h"

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
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace probaudit {
namespace ui {

namespace {
constexpr double kL2Floor = 1e-12; // identical vectors are drawn here on the log scale

QLabel* sectionLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

// A table exactly as tall as its rows: the inspector scrolls as a whole, tables do not.
void fitTable(QTableWidget* t) {
    t->resizeRowsToContents();
    int h = t->horizontalHeader()->sizeHint().height() + 2 * t->frameWidth();
    for (int r = 0; r < t->rowCount(); ++r) {
        h += t->rowHeight(r);
    }
    if (t->horizontalScrollBar()->isVisible() ||
        t->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOn) {
        h += t->horizontalScrollBar()->sizeHint().height();
    }
    t->setFixedHeight(h);
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align | Qt::AlignVCenter);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return it;
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
    m_numbers = new QTableWidget(this);
    m_numbers->setObjectName(QStringLiteral("inspectorNumbers"));
    m_numbers->setColumnCount(6);
    m_numbers->setHorizontalHeaderLabels(
        {tr("Config"), tr("p"), tr("Δp"), tr("Margin"), tr("Decision"), tr("First layer")});
    m_numbers->verticalHeader()->hide();
    m_numbers->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_numbers->horizontalHeader()->setStretchLastSection(true);
    m_numbers->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_numbers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_layerChart = new QChartView(this);
    m_layerChart->setObjectName(QStringLiteral("inspectorLayerChart"));
    m_layerChart->setRenderHint(QPainter::Antialiasing);
    m_layerChart->setMinimumHeight(280);
    m_layerNote = new QLabel(this);
    m_layerNote->setObjectName(QStringLiteral("layerNote"));
    m_layerNote->setWordWrap(true);
    m_layerNote->hide();
    m_hashes = new QTableWidget(this);
    m_hashes->setObjectName(QStringLiteral("inspectorHashes"));
    m_hashes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_hashes->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_hashes->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_hashes->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

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
    if (!m_tokenizerTried) {
        m_tokenizerTried = true;
        try {
            const std::string modelPath = m_review->study.at("model").at("path").get<std::string>();
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

void Inspector::setItem(std::int64_t itemIndex) {
    m_item = itemIndex;
    m_numbers->setRowCount(0);
    m_hashes->setRowCount(0);
    m_hashes->setColumnCount(0);
    auto setChart = [](QChartView* v, QChart* c) {
        QChart* old = v->chart();
        styleChart(c);
        v->setChart(c);
        delete old;
    };
    if (!m_review || itemIndex < 0 || std::size_t(itemIndex) >= m_review->items.size()) {
        m_title->setText(tr("No item selected"));
        m_layerNote->hide();
        m_text->setHtml(tr("Select an item in the items table, or click a point in the scatter "
                           "plot."));
        m_tokenNote->clear();
        m_tokens.clear();
        setChart(m_pChart, newChart());
        setChart(m_layerChart, newChart());
        return;
    }
    const ledger::Item& item = m_review->items[std::size_t(itemIndex)];
    const ledger::Record* ref = m_review->reference_run
                                    ? m_review->record(m_review->reference_run->id, itemIndex)
                                    : nullptr;
    QStringList labels;
    for (const auto& l : m_review->study.value("dataset", nlohmann::json::object())
                             .value("labels", nlohmann::json::array())) {
        labels << QString::fromStdString(l.get<std::string>());
    }
    auto labelName = [&](int k) {
        return k >= 0 && k < labels.size() ? labels[k] : QString::number(k);
    };
    m_title->setText(tr("Item %1 · label %2")
                         .arg(QString::fromStdString(item.id),
                              item.label ? labelName(*item.label) : QStringLiteral("–")));
    showTokens(item, ref ? ref->tokens : 0);

    // p per config: the bar chart and the exact numbers.
    auto* set = new QBarSet(tr("p"));
    set->setColor(changedColor());
    QStringList cats;
    struct Line {
        QString config;
        std::vector<double> rel;
        std::vector<bool> equal;
    };
    std::vector<Line> lines;
    int layers = 0;
    for (const auto& row : m_review->rows) {
        if (!row.run) {
            continue;
        }
        const ledger::Record* rec = m_review->record(row.run->id, itemIndex);
        if (rec == nullptr) {
            continue;
        }
        const bool binary = rec->probs.size() == 2;
        const int cls = binary ? 1 : (ref ? ref->decision : rec->decision);
        const double p =
            cls >= 0 && std::size_t(cls) < rec->probs.size() ? rec->probs[std::size_t(cls)] : 0;
        double dp = 0;
        if (ref != nullptr) {
            for (std::size_t k = 0; k < std::min(ref->probs.size(), rec->probs.size()); ++k) {
                dp = std::max(dp, 100.0 * std::abs(double(ref->probs[k]) - double(rec->probs[k])));
            }
        }
        const QString name = QString::fromStdString(row.config);
        cats << name;
        *set << p;
        const int r = m_numbers->rowCount();
        m_numbers->insertRow(r);
        m_numbers->setItem(r, 0,
                           cell(row.reference ? tr("%1 (ref.)").arg(name) : name, Qt::AlignLeft));
        m_numbers->setItem(r, 1, cell(formatProbability(p)));
        m_numbers->setItem(r, 2, cell(formatPoints(dp)));
        m_numbers->setItem(r, 3, cell(formatMargin(rec->margin)));
        auto* dec = cell(labelName(rec->decision), Qt::AlignLeft);
        if (ref != nullptr && rec->decision != ref->decision) {
            dec->setBackground(tint(flipColor(), 0.3));
            dec->setText(tr("%1 (flipped)").arg(labelName(rec->decision)));
        }
        m_numbers->setItem(r, 4, dec);
        Line line{name, {}, {}};
        int first = -1;
        if (ref != nullptr && !row.reference) {
            line.rel = analysis::layerRelL2(*ref, *rec);
            const std::size_t n = std::min(ref->layer_hashes.size(), rec->layer_hashes.size());
            for (std::size_t l = 0; l < n; ++l) {
                line.equal.push_back(ref->layer_hashes[l] == rec->layer_hashes[l]);
                if (!line.equal.back() && first < 0) {
                    first = int(l);
                }
            }
            layers = std::max(layers, int(line.equal.size()));
            lines.push_back(line);
        }
        m_numbers->setItem(r, 5,
                           cell(row.reference         ? QStringLiteral("–")
                                : line.equal.empty()  ? formatLayer(-2)
                                : first < 0 && dp > 0 ? tr("none (head only)")
                                                      : formatLayer(first),
                                Qt::AlignLeft));
    }
    fitTable(m_numbers);

    // A horizontal bar chart lists its categories bottom-up: reverse, so the reference is on top.
    std::reverse(cats.begin(), cats.end());
    auto* revSet = new QBarSet(set->label());
    revSet->setColor(set->color());
    for (int k = set->count() - 1; k >= 0; --k) {
        *revSet << set->at(k);
    }
    delete set;
    set = revSet;
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
    if (labels.size() == 2) {
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
    setChart(m_pChart, pc);
    m_pChart->setMinimumHeight(std::max(160, 60 + 28 * int(cats.size())));

    // Per-layer relative L2 (log scale) and the hash table.
    auto* lc = newChart();
    bool anyVectors = false;
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
    QStringList identical;
    for (const auto& line : lines) {
        if (line.rel.empty()) {
            continue;
        }
        anyVectors = true;
        if (std::all_of(line.rel.begin(), line.rel.end(), [](double v) { return v == 0; })) {
            identical << line.config; // a flat line at the floor says nothing; name it instead
            continue;
        }
        auto* s = new QLineSeries;
        s->setName(line.config);
        s->setPointsVisible(true);
        for (std::size_t l = 0; l < line.rel.size(); ++l) {
            s->append(double(l), std::max(kL2Floor, std::min(1.0, line.rel[l])));
        }
        lc->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    if (anyVectors && !identical.isEmpty()) {
        lc->setTitle(
            tr("Identical to the reference at every layer: %1").arg(identical.join(u", ")));
    }
    // States bitwise equal but the decision vector not: the head's own arithmetic (mean pooling
    // over a differently padded row) moved, not the transformer.
    QStringList poolingOnly;
    for (const auto& line : lines) {
        for (std::size_t l = 0; l < std::min(line.rel.size(), line.equal.size()); ++l) {
            if (line.equal[l] && line.rel[l] > 0) {
                poolingOnly << line.config;
                break;
            }
        }
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
    setChart(m_layerChart, lc);

    m_hashes->setColumnCount(layers);
    QStringList heads;
    for (int l = 0; l < layers; ++l) {
        heads << (l == 0 ? tr("emb") : QString::number(l));
    }
    m_hashes->setHorizontalHeaderLabels(heads);
    QStringList rowNames;
    for (const auto& line : lines) {
        const int r = m_hashes->rowCount();
        m_hashes->insertRow(r);
        rowNames << line.config;
        for (std::size_t l = 0; l < line.equal.size(); ++l) {
            auto* c =
                cell(line.equal[l] ? QStringLiteral("=") : QStringLiteral("≠"), Qt::AlignHCenter);
            c->setBackground(line.equal[l] ? tint(unchangedColor(), 0.25)
                                           : tint(flipColor(), 0.35));
            c->setToolTip(line.equal[l] ? tr("%1, %2: the same bits as the reference")
                                              .arg(line.config, formatLayer(int(l)))
                                        : tr("%1, %2: differs from the reference")
                                              .arg(line.config, formatLayer(int(l))));
            m_hashes->setItem(r, int(l), c);
        }
    }
    m_hashes->setVerticalHeaderLabels(rowNames);
    fitTable(m_hashes);
}

} // namespace ui
} // namespace probaudit
