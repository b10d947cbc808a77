#include "ui/pages/diagnosisview.h"

#include "ui/models/colors.h"
#include "ui/models/diagnosismodels.h"
#include "ui/models/format.h"
#include "ui/pages/tableviews.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace probaudit::ui {

namespace {

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, const QString& name) {
    QTableView* t = readOnlyTable(model, parent, name);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // fitHeight() shows every row
    return t;
}

void fitHeight(QTableView* t) {
    t->resizeRowsToContents();
    int h = t->horizontalHeader()->sizeHint().height() + 4;
    for (int r = 0; r < t->model()->rowCount(); ++r) {
        h += t->rowHeight(r);
    }
    t->setFixedHeight(h);
}

QLabel* heading(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    l->setFont(f);
    return l;
}

} // namespace

LadderChart::LadderChart(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("ladderChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void LadderChart::setLadder(const std::vector<analysis::LadderStep>& ladder,
                            const std::optional<std::string>& stoppedAt) {
    m_boxes.clear();
    // An endpoint study's ladder (from recorded runs) starts at repeatability.
    const bool served = !ladder.empty() && ladder.front().step == "repeatability";
    const QStringList all =
        served ? QStringList{QStringLiteral("repeatability"), QStringLiteral("serving"),
                             QStringLiteral("runtime")}
               : QStringList{QStringLiteral("loader and repeatability"),
                             QStringLiteral("neighbour interference"), QStringLiteral("shape"),
                             QStringLiteral("kernels and runtime"), QStringLiteral("cause")};
    int k = 1;
    for (const auto& st : ladder) {
        m_boxes.push_back({tr("Suspect %1: %2").arg(k++).arg(formatLadderStep(str(st.step))),
                           str(st.finding), str(st.verdict),
                           QString::fromLatin1(analysis::statusName(st.status))});
    }
    // Steps after a stop were not judged; show them greyed so the ladder stays whole (a
    // diagnosis stored before the cause rung existed did not stop: it has no fifth box).
    for (int i = int(m_boxes.size()); stoppedAt && i < all.size(); ++i) {
        m_boxes.push_back({tr("Suspect %1: %2").arg(i + 1).arg(formatLadderStep(all[i])),
                           tr("not judged: the ladder stopped at \"%1\"")
                               .arg(QString::fromStdString(stoppedAt.value_or(std::string()))),
                           QString(), QStringLiteral("skipped")});
    }
    m_boxes.push_back(
        served ? Box{tr("Then: declare"),
                     tr("Declare the server's settings in the study ($.model.labels) and record "
                        "the reference again after every change of the server, so that the "
                        "change shows as a runtime step."),
                     QString(), QStringLiteral("next")}
               : Box{tr("Then: pin"),
                     tr("Pin the runtime that reproduces the reference (probaudit pin), so that "
                        "a different build or kernel library is reported before it moves a "
                        "decision."),
                     QString(), QStringLiteral("next")});
    updateGeometry();
    update();
}

int LadderChart::layout(int width, std::vector<QRect>* rects) const {
    const QFontMetrics fm(font());
    const int boxW = std::max(200, std::min(width - 24, fm.horizontalAdvance(u'M') * 70));
    const int x = (width - boxW) / 2;
    int y = 8;
    const int gap = fm.height() * 2;
    for (const Box& b : m_boxes) {
        const QString body =
            b.finding + (b.verdict.isEmpty() ? QString() : QStringLiteral("\n→ ") + b.verdict);
        const QRect textRect =
            fm.boundingRect(QRect(0, 0, boxW - 28, 10000), Qt::TextWordWrap, body);
        const int h = fm.height() + 10 + textRect.height() + 14;
        if (rects != nullptr) {
            rects->emplace_back(x, y, boxW, h);
        }
        y += h + gap;
    }
    return y - gap + 8;
}

int LadderChart::heightForWidth(int w) const {
    return layout(w, nullptr);
}

QSize LadderChart::sizeHint() const {
    return {600, layout(std::max(width(), 600), nullptr)};
}

void LadderChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    std::vector<QRect> rects;
    layout(width(), &rects);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const Box& b = m_boxes[i];
        const QRect r = rects[i];
        QColor accent = palette().color(QPalette::Mid);
        QString badge;
        if (b.status == QLatin1String("clean")) {
            accent = unchangedColor();
            badge = tr("clean");
        } else if (b.status == QLatin1String("explains")) {
            accent = changedColor();
            badge = tr("moves the numbers");
        } else if (b.status == QLatin1String("stop")) {
            accent = flipColor();
            badge = tr("stop");
        } else if (b.status == QLatin1String("skipped") || b.status == QLatin1String("untested")) {
            badge = tr("not judged");
        }
        const bool grey =
            b.status == QLatin1String("skipped") || b.status == QLatin1String("untested");
        QPainterPath path;
        path.addRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        p.fillPath(path, grey ? palette().color(QPalette::Window) : tint(accent, 0.10));
        p.setPen(QPen(accent, b.status == QLatin1String("next") ? 1 : 2,
                      b.status == QLatin1String("next") ? Qt::DashLine : Qt::SolidLine));
        p.drawPath(path);
        p.fillRect(QRect(r.left() + 1, r.top() + 6, 6, r.height() - 12), accent);
        p.setFont(bold);
        p.setPen(grey ? palette().color(QPalette::PlaceholderText)
                      : palette().color(QPalette::WindowText));
        p.drawText(QRect(r.left() + 16, r.top() + 6, r.width() - 24, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, b.title);
        if (!badge.isEmpty()) {
            const int bw = QFontMetrics(bold).horizontalAdvance(badge) + 14;
            const QRect br(r.right() - bw - 8, r.top() + 5, bw, fm.height() + 2);
            QPainterPath bp;
            bp.addRoundedRect(br, 4, 4);
            p.fillPath(bp, accent);
            p.setPen(accent.lightness() < 140 ? Qt::white : Qt::black);
            p.drawText(br, Qt::AlignCenter, badge);
        }
        p.setFont(font());
        p.setPen(grey ? palette().color(QPalette::PlaceholderText)
                      : palette().color(QPalette::WindowText));
        const QString body =
            b.finding + (b.verdict.isEmpty() ? QString() : QStringLiteral("\n→ ") + b.verdict);
        p.drawText(QRect(r.left() + 16, r.top() + fm.height() + 12, r.width() - 28,
                         r.height() - fm.height() - 12),
                   Qt::TextWordWrap, body);
        if (i + 1 < rects.size()) {
            const int cx = r.center().x();
            const int y0 = r.bottom() + 3, y1 = rects[i + 1].top() - 3;
            p.setPen(QPen(palette().color(QPalette::Mid), 2));
            p.drawLine(cx, y0, cx, y1);
            QPainterPath head;
            head.moveTo(cx - 6, y1 - 8);
            head.lineTo(cx + 6, y1 - 8);
            head.lineTo(cx, y1);
            head.closeSubpath();
            p.fillPath(head, palette().color(QPalette::Mid));
        }
    }
}

DiagnosisView::DiagnosisView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("diagnosisView"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_body = new QWidget(scroll);
    m_header = new QLabel(m_body);
    m_header->setObjectName(QStringLiteral("diagnosisHeader"));
    m_header->setWordWrap(true);
    m_ladder = new LadderChart(m_body);
    m_probeModel = new ProbeTableModel(this);
    m_kernelModel = new KernelDiffModel(this);
    m_configModel = new ConfigExplanationModel(this);
    m_forecastModel = new ForecastModel(this);
    m_probes = makeTable(m_probeModel, m_body, QStringLiteral("probeTable"));
    m_kernels = makeTable(m_kernelModel, m_body, QStringLiteral("kernelDiffTable"));
    m_configs = makeTable(m_configModel, m_body, QStringLiteral("configExplainTable"));
    m_forecast = makeTable(m_forecastModel, m_body, QStringLiteral("forecastTable"));
    auto* v = new QVBoxLayout(m_body);
    v->addWidget(m_header);
    v->addWidget(m_ladder);
    v->addWidget(heading(tr("Probes"), m_body));
    v->addWidget(m_probes);
    v->addWidget(heading(tr("Kernel trace: operators whose counts differ between a probe and "
                            "its baseline"),
                         m_body));
    v->addWidget(m_kernels);
    v->addWidget(
        heading(tr("The study's configs, explained by the suspects they differ in"), m_body));
    v->addWidget(m_configs);
    v->addWidget(heading(tr("Fragility forecast against the full runs"), m_body));
    v->addWidget(m_forecast);
    v->addStretch(1);
    scroll->setWidget(m_body);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

void DiagnosisView::setReview(const ReviewPtr& review) {
    m_review = review;
    m_probeModel->setReview(review);
    m_kernelModel->setReview(review);
    m_configModel->setReview(review);
    m_forecastModel->setReview(review);
    if (!review || !review->diagnosis) {
        m_header->setText(
            tr("No diagnosis is stored for this head yet. Run it with:\n  probaudit diagnose "
               "STUDY --ledger %1\nIt probes a seeded sample: the reference twice, neighbours "
               "changed, the batch shape, kernels and runtime, and explains every config.")
                .arg(QString::fromStdString(review ? review->path : std::string("LEDGER"))));
        m_ladder->setLadder({}, std::nullopt);
        m_ladder->hide();
    } else {
        const analysis::Diagnosis& d = *review->diagnosis;
        m_ladder->show();
        m_header->setText(
            d.recorded_only
                ? tr("Why do results differ from the reference config \"%1\"? Read from the "
                     "study's recorded runs over all %2 items; a server is not probed.")
                      .arg(str(d.reference))
                      .arg(d.sample)
                : tr("Why do results differ from the reference config \"%1\"? Probes on a "
                     "seeded sample of %2 items (seed %3, batch %4); every probe run is in the "
                     "ledger.")
                      .arg(str(d.reference))
                      .arg(d.sample)
                      .arg(d.seed)
                      .arg(d.batch));
        m_ladder->setLadder(d.ladder, d.stopped_at);
    }
    for (QTableView* t : {m_probes, m_kernels, m_configs, m_forecast}) {
        fitHeight(t);
    }
}

} // namespace probaudit::ui
