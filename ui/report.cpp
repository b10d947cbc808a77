#include "ui/report.h"

#include "analysis/fingerprint.h"
#include "analysis/records.h"
#include "bundle/lockfile.h"
#include "common/build_info.h"
#include "ui/charts.h"
#include "ui/format.h"
#include "ui/generationview.h"
#include "ui/heatmapwidget.h"
#include "ui/pinstatus.h"
#include "ui/theme.h"

#include <QAbstractTextDocumentLayout>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QJsonDocument>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTranslator>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace probaudit {
namespace ui {

namespace {

using nlohmann::json;

constexpr int kContentWidth = 680; // px at 96 dpi: A4 and Letter minus margins both hold it

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

// A number that must not wrap inside a narrow table cell (a word joiner after the point).
QString nobreak(const QString& number) {
    QString out = number;
    out.replace(QStringLiteral("."), QStringLiteral(".\u2060"));
    return out;
}

QString shortText(const std::string& text, int n = 90) {
    QString t = QString::fromStdString(text).simplified();
    return t.size() > n ? t.left(n - 1) + QStringLiteral("…") : t;
}

// A chart rendered to an image at 3x for print (through a scene: a chart view that is never
// shown does not lay its chart out).
QImage renderChart(QChart* chart, int w, int h) {
    styleChart(chart, 0.9);
    chart->setBackgroundBrush(Qt::white);
    QGraphicsScene scene;
    scene.addItem(chart); // the scene owns the chart now
    chart->setGeometry(0, 0, w, h);
    QImage img(w * 3, h * 3, QImage::Format_ARGB32);
    img.setDevicePixelRatio(3);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene.render(&p, QRectF(0, 0, w, h), QRectF(0, 0, w, h));
    return img;
}

QImage renderWidget(QWidget* w, int width, int height) {
    w->resize(width, height);
    QImage img(width * 3, height * 3, QImage::Format_ARGB32);
    img.setDevicePixelRatio(3);
    img.fill(Qt::white);
    QPainter p(&img);
    w->render(&p);
    return img;
}

struct Section {
    QString anchor, title;
};

class Html {
public:
    QString text;
    std::vector<Section> sections;
    void h1(const QString& anchor, const QString& title) {
        sections.push_back({anchor, title});
        text +=
            QStringLiteral("<h2 style=\"page-break-before: always\"><a name=\"%1\"></a>%2. %3</h2>")
                .arg(anchor)
                .arg(sections.size())
                .arg(esc(title));
    }
    void h2(const QString& title) { text += QStringLiteral("<h3>%1</h3>").arg(esc(title)); }
    void p(const QString& html) { text += QStringLiteral("<p>%1</p>").arg(html); }
    void table(const QStringList& head, const std::vector<QStringList>& rows,
               const std::vector<QString>& rowColours = {}, const QStringList& widths = {}) {
        text += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                               "width=\"100%\" style=\"border-collapse: collapse\"><tr>");
        for (int k = 0; k < head.size(); ++k) {
            const QString w = k < widths.size() && !widths[k].isEmpty()
                                  ? QStringLiteral(" width=\"%1\"").arg(widths[k])
                                  : QString();
            text +=
                QStringLiteral("<th bgcolor=\"#e8e8e8\" align=\"left\"%1>%2</th>").arg(w, head[k]);
        }
        text += QStringLiteral("</tr>");
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const QString bg = r < rowColours.size() && !rowColours[r].isEmpty()
                                   ? QStringLiteral(" bgcolor=\"%1\"").arg(rowColours[r])
                                   : QString();
            text += QStringLiteral("<tr%1>").arg(bg);
            for (const QString& c : rows[r]) {
                text += QStringLiteral("<td>%1</td>").arg(c);
            }
            text += QStringLiteral("</tr>");
        }
        text += QStringLiteral("</table>");
    }
};

QString colourOf(const analysis::ReviewRow& row) {
    if (!row.cmp) {
        return {};
    }
    if (row.cmp->flips > 0) {
        return QStringLiteral("#f6d5d5");
    }
    return row.cmp->verdict.probabilities ? QStringLiteral("#dcefdc") : QStringLiteral("#fbeacd");
}

// Accuracy, decisions, bits: ✓ reproduces, ✗ does not (the table's header says which is which).
QString verdictText(const analysis::Verdict& v) {
    auto mark = [](bool ok) {
        return ok ? QStringLiteral("<font color=\"#2e7d32\">✓</font>")
                  : QStringLiteral("<font color=\"#c62828\"><b>✗</b></font>");
    };
    return QStringLiteral("%1 %2 %3")
        .arg(mark(v.accuracy), mark(v.decisions), mark(v.probabilities));
}

QString envSummary(const json& e) {
    auto part = [&e](const char* key) {
        const auto it = e.find(key);
        return it != e.end() && it->is_object() ? *it : json::object();
    };
    const json torch = part("torch"), cpu = part("cpu"), threads = part("threads"),
               cuda = part("cuda"), engine = part("engine");
    QString gpu = QStringLiteral("none");
    if (cuda.contains("devices") && cuda["devices"].is_array() && !cuda["devices"].empty()) {
        gpu = QString::fromStdString(cuda["devices"][0].value("name", "GPU"));
    }
    return QStringLiteral("libtorch %1, CUDA build %2, GPU %3, CPU %4 (kernels %5), intra-op "
                          "threads %6, ProbAudit %7")
        .arg(esc(torch.value("version", "?")), esc(torch.value("cuda_build", "none")), esc(gpu),
             esc(cpu.value("model", "?")), esc(cpu.value("aten_capability", "?")))
        .arg(threads.value("intra_op", 0))
        .arg(esc(engine.value("version", "?") + " " + engine.value("commit", "").substr(0, 12)));
}

QString findLock(const analysis::Review& rv, const ReportOptions& o) {
    return !o.lockPath.isEmpty() ? o.lockPath : bundle::findLockFile(rv);
}

void cover(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const json model = rv.study.value("model", json::object());
    const json dataset = rv.study.value("dataset", json::object());
    QStringList files;
    for (const auto& f : dataset.value("path", json::array())) {
        files << esc(f.get<std::string>());
    }
    h.text += QStringLiteral("<h1>ProbAudit report: %1</h1>").arg(esc(rv.study.value("name", "")));
    h.p(QStringLiteral("Do the model's decisions and probabilities reproduce under every runtime "
                       "configuration of this study?"));
    h.table({QStringLiteral("what"), QStringLiteral("")},
            {{QStringLiteral("Study"),
              esc(rv.study.value("name", "")) +
                  (rv.study_path.empty() ? QString()
                                         : QStringLiteral(" (%1)").arg(esc(rv.study_path)))},
             {QStringLiteral("Ledger"), esc(rv.path)},
             {QStringLiteral("Model"), esc(model.value("path", "")) + QStringLiteral(" (") +
                                           esc(model.value("format", "")) + QStringLiteral(")")},
             {QStringLiteral("Model files SHA-256"), esc(model.value("sha256", "not recorded"))},
             {QStringLiteral("Dataset"), files.join(QStringLiteral("<br>"))},
             {QStringLiteral("Dataset SHA-256"), esc(rv.dataset_sha256)},
             {QStringLiteral("Items"), QString::number(rv.items.size())},
             {QStringLiteral("Head reviewed"), esc(rv.head)},
             {QStringLiteral("Reference config"), esc(rv.reference_name)},
             {QStringLiteral("Report date"),
              QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))},
             {QStringLiteral("Written by"), QStringLiteral("ProbAudit %1 (commit %2)")
                                                .arg(QString::fromLatin1(engineVersion()),
                                                     QString::fromLatin1(gitCommit()).left(12))}});
    h.h2(QStringLiteral("Environments of the runs"));
    std::map<std::string, std::vector<std::int64_t>> byEnv;
    for (const auto& r : rv.runs) {
        byEnv[r.env_hash].push_back(r.id);
    }
    std::vector<QStringList> rows;
    for (const auto& [hash, ids] : byEnv) {
        QStringList idText;
        for (auto id : ids) {
            idText << QString::number(id);
        }
        const auto it = rv.environments.find(hash);
        rows.push_back({esc(hash),
                        idText.size() > 12 ? QStringLiteral("%1 runs").arg(idText.size())
                                           : idText.join(QStringLiteral(", ")),
                        it != rv.environments.end() ? envSummary(it->second) : QString()});
    }
    h.table({QStringLiteral("environment"), QStringLiteral("runs"), QStringLiteral("fingerprint")},
            rows);
    h.h2(QStringLiteral("Pin status"));
    const QString lockPath = findLock(rv, o);
    QJsonObject lock;
    if (!lockPath.isEmpty()) {
        QFile f(lockPath);
        if (f.open(QIODevice::ReadOnly)) {
            lock = QJsonDocument::fromJson(f.readAll()).object();
        }
    }
    if (lock.isEmpty()) {
        h.p(QStringLiteral("Not pinned: no runtime lock was found beside the ledger or the study. "
                           "<i>probaudit pin</i> writes one from a verified run; "
                           "<i>probaudit check</i> then names every difference of a runtime."));
    } else {
        std::vector<QStringList> pinRows;
        for (const auto& [hash, ids] : byEnv) {
            const auto it = rv.environments.find(hash);
            if (it == rv.environments.end()) {
                continue;
            }
            const QJsonObject current =
                QJsonDocument::fromJson(QByteArray::fromStdString(it->second.dump())).object();
            const PinStatus st = pinStatus(lockPath, lock, current);
            pinRows.push_back(
                {esc(hash), esc(st.text), esc(st.differences.join(QStringLiteral("; ")))});
        }
        h.p(QStringLiteral("Against the runtime lock %1:").arg(esc(lockPath)));
        h.table({QStringLiteral("environment"), QStringLiteral("status"),
                 QStringLiteral("differences that can move numbers")},
                pinRows);
    }
}

void headline(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("headline"),
         QStringLiteral("Headline: every config against the reference"));
    if (!rv.reference_run) {
        h.p(QStringLiteral("The reference config has no finished run: nothing can be compared."));
        return;
    }
    h.p(QStringLiteral("Reference: config <b>%1</b>, run %2, %3 items. ΔAcc is this config's "
                       "accuracy minus the reference's, in points, with a paired bootstrap 95% "
                       "interval (10,000 resamples). Δp in points. Verdict: accuracy, decisions, "
                       "bits (✓ reproduces, ✗ does not).")
            .arg(esc(rv.reference_name))
            .arg(rv.reference_run->id)
            .arg(rv.items.size()));
    std::vector<QStringList> rows;
    std::vector<QString> colours;
    for (const auto& row : rv.rows) {
        if (!row.cmp) {
            rows.push_back(
                {esc(row.config), QStringLiteral("not run"), {}, {}, {}, {}, {}, {}, {}, {}});
            colours.push_back({});
            continue;
        }
        const auto& c = *row.cmp;
        QString first =
            row.reference ? QStringLiteral("–") : QString::fromStdString(analysis::firstLayers(c));
        rows.push_back({esc(row.config) + (row.reference && row.config != "reference"
                                               ? QStringLiteral(" (reference)")
                                               : QString()),
                        formatAccuracy(c.accuracy_b),
                        c.accuracy_diff && !row.reference
                            ? formatInterval(c.accuracy_diff->estimate, c.accuracy_diff->low,
                                             c.accuracy_diff->high)
                            : QStringLiteral("–"),
                        formatShare(c.agreement),
                        QStringLiteral("%1 / %2").arg(c.flips).arg(c.items), formatPoints(c.max_dp),
                        formatPoints(c.p99_dp), formatShare(c.bit_identical_share), esc(first),
                        verdictText(c.verdict)});
        colours.push_back(colourOf(row));
    }
    h.table({QStringLiteral("config"), QStringLiteral("accuracy"), QStringLiteral("ΔAcc [95%]"),
             QStringLiteral("agreement"), QStringLiteral("flips"), QStringLiteral("max Δp"),
             QStringLiteral("p99 Δp"), QStringLiteral("bit-identical"),
             QStringLiteral("first divergent layer"), QStringLiteral("acc. dec. bits")},
            rows, colours);
    for (const auto& row : rv.rows) {
        if (row.cmp && !row.reference && !row.differs_in.empty()) {
            QStringList axes;
            for (const auto& a : row.differs_in) {
                axes << QString::fromStdString(a);
            }
            h.text += QStringLiteral("<p style=\"font-size: 8pt\"><b>%1</b> differs from the "
                                     "reference in: %2. McNemar's exact p = %3.</p>")
                          .arg(esc(row.config), esc(axes.join(QStringLiteral(", "))),
                               row.cmp->mcnemar_p ? QString::number(*row.cmp->mcnemar_p, 'g', 3)
                                                  : QStringLiteral("–"));
        }
    }
}

void distributions(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("distributions"), QStringLiteral("Where the numbers move: margins and Δp"));
    h.p(QStringLiteral("Left: items by their margin (top-1 minus top-2 logit) in the reference "
                       "run, with bit-identical, changed and flipped items stacked per bin; flips "
                       "are expected near the boundary. Right: Δp per item on log bins."));
    int k = 0;
    bool any = false;
    for (const auto& row : rv.rows) {
        if (!row.cmp || row.reference || row.cmp->verdict.probabilities) {
            continue;
        }
        any = true;
        const QString m = QStringLiteral("img://margin-%1").arg(k);
        const QString d = QStringLiteral("img://dp-%1").arg(k++);
        // Drawn at 500 x 330 and shown at 330 x 218: labels stay whole, type stays small.
        doc->addResource(QTextDocument::ImageResource, QUrl(m),
                         renderChart(makeMarginHistogram(*row.cmp), 500, 330));
        doc->addResource(QTextDocument::ImageResource, QUrl(d),
                         renderChart(makeDpHistogram(*row.cmp), 500, 330));
        h.h2(QStringLiteral("%1: %2 flips, max Δp %3 points")
                 .arg(QString::fromStdString(row.config))
                 .arg(row.cmp->flips)
                 .arg(formatPoints(row.cmp->max_dp)));
        h.text += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\"><tr><td><img "
                                 "src=\"%1\" width=\"330\" height=\"218\"></td><td><img "
                                 "src=\"%2\" width=\"330\" height=\"218\"></td></tr></table>")
                      .arg(m, d);
    }
    if (!any) {
        h.p(QStringLiteral("Every config is bit-identical to the reference: nothing moved."));
    }
}

void layers(Html& h, const ReviewPtr& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("layers"), QStringLiteral("Per-layer divergence"));
    h.p(QStringLiteral("Share of items whose hidden states (real tokens only) differ bitwise from "
                       "the reference run, per config and hidden state (0 = embeddings)."));
    HeatmapWidget heat;
    heat.setReview(rv);
    const int rows = heat.rowTotal();
    const int height = 90 + std::max(1, rows) * 30;
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("img://heatmap")),
                     renderWidget(&heat, kContentWidth, height));
    h.text += QStringLiteral("<p><img src=\"img://heatmap\" width=\"%1\" height=\"%2\"></p>")
                  .arg(kContentWidth)
                  .arg(height);
    std::vector<QStringList> table;
    for (const auto& row : rv->rows) {
        if (row.cmp && !row.reference) {
            QStringList firsts;
            for (std::size_t l = 0; l < row.cmp->first_divergent.size(); ++l) {
                if (row.cmp->first_divergent[l] > 0) {
                    firsts << QStringLiteral("%1: %2")
                                  .arg(formatLayer(int(l)))
                                  .arg(row.cmp->first_divergent[l]);
                }
            }
            if (row.cmp->no_divergent_layer > 0 && !row.cmp->layers.empty()) {
                firsts << QStringLiteral("no layer differs: %1").arg(row.cmp->no_divergent_layer);
            }
            table.push_back({esc(row.config), esc(firsts.join(QStringLiteral(", ")))});
        }
    }
    h.h2(QStringLiteral("First divergent layer, items per layer"));
    h.table({QStringLiteral("config"), QStringLiteral("first divergent layer (items)")}, table);
}

QStringList labelNames(const analysis::Review& rv) {
    QStringList out;
    for (const auto& l : rv.study.value("dataset", json::object()).value("labels", json::array())) {
        out << QString::fromStdString(l.get<std::string>());
    }
    return out;
}

void items(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const QStringList labels = labelNames(rv);
    auto name = [&](std::optional<int> k) {
        return !k ? QStringLiteral("–")
                  : (*k >= 0 && *k < labels.size() ? labels[*k] : QString::number(*k));
    };
    h.h1(QStringLiteral("flips"), QStringLiteral("Flipped items"));
    bool any = false;
    for (const auto& row : rv.rows) {
        if (!row.cmp || row.reference || row.cmp->flips == 0) {
            continue;
        }
        any = true;
        std::vector<const analysis::ItemDiff*> flips;
        for (const auto& d : row.cmp->diffs) {
            if (d.flip) {
                flips.push_back(&d);
            }
        }
        std::sort(flips.begin(), flips.end(),
                  [](const auto* a, const auto* b) { return a->dp > b->dp; });
        h.h2(QStringLiteral("%1: %2 flipped")
                 .arg(QString::fromStdString(row.config))
                 .arg(flips.size()));
        std::vector<QStringList> rows;
        for (std::size_t i = 0; i < flips.size() && int(i) < o.maxFlipRows; ++i) {
            const auto& d = *flips[i];
            const auto& it = rv.items[std::size_t(d.item)];
            rows.push_back(
                {esc(it.id), esc(shortText(it.text)), esc(name(d.label)),
                 esc(name(d.decision_a)) + QStringLiteral(" → ") + esc(name(d.decision_b)),
                 formatProbability(d.p_a), formatProbability(d.p_b), formatMargin(d.margin_a)});
        }
        h.table({QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("label"),
                 QStringLiteral("decision"), QStringLiteral("p (ref)"), QStringLiteral("p (cfg)"),
                 QStringLiteral("margin (ref)")},
                rows);
        if (int(flips.size()) > o.maxFlipRows) {
            h.p(QStringLiteral("… and %1 more (the largest Δp first; the workbench and "
                               "<i>probaudit compare</i> list them all).")
                    .arg(int(flips.size()) - o.maxFlipRows));
        }
    }
    if (!any) {
        h.p(QStringLiteral("No decision flipped under any config."));
    }

    h.h1(QStringLiteral("boundary"), QStringLiteral("The 20 items nearest the boundary"));
    h.p(QStringLiteral("Smallest margins in the reference run, with p under every config (one "
                       "column per config): the items a runtime change flips first."));
    if (!rv.reference_run) {
        return;
    }
    const auto& refRecs = rv.data.at(rv.reference_run->id).records;
    std::vector<const ledger::Record*> near;
    for (const auto& r : refRecs) {
        near.push_back(&r);
    }
    std::sort(near.begin(), near.end(), [](const auto* a, const auto* b) {
        return std::abs(a->margin) < std::abs(b->margin);
    });
    near.resize(std::min<std::size_t>(20, near.size()));
    QStringList head{QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("label"),
                     QStringLiteral("margin")};
    std::vector<const analysis::ReviewRow*> cols;
    for (const auto& row : rv.rows) {
        if (row.run) {
            cols.push_back(&row);
            head << esc(row.config);
        }
    }
    std::vector<QStringList> rows;
    for (const auto* r : near) {
        const auto& it = rv.items[std::size_t(r->item)];
        QStringList cells{esc(it.id), esc(shortText(it.text, 60)), esc(name(it.label)),
                          nobreak(formatMargin(r->margin))};
        for (const auto* row : cols) {
            const auto* rec = rv.record(row->run->id, r->item);
            if (rec == nullptr) {
                cells << QStringLiteral("–");
                continue;
            }
            const int cls = rec->probs.size() == 2 ? 1 : r->decision;
            QString p = nobreak(formatProbability(rec->probs[std::size_t(std::max(0, cls))]));
            if (rec->decision != r->decision) {
                p = QStringLiteral("<b><font color=\"#c62828\">%1</font></b>").arg(p);
            }
            cells << p;
        }
        rows.push_back(cells);
    }
    QStringList widths{QStringLiteral("10%"), QStringLiteral("24%"), QStringLiteral("8%"),
                       QStringLiteral("8%")};
    h.table(head, rows, {}, widths);
    h.p(QStringLiteral("<font size=\"-1\">p: the positive class for binary heads, else the "
                       "reference's decision class; red: the decision differs from the "
                       "reference.</font>"));
}

void diagnosis(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("diagnosis"), QStringLiteral("Diagnosis: which suspect explains the gap"));
    if (!rv.diagnosis) {
        h.p(QStringLiteral("No diagnosis is stored in the ledger. <i>probaudit diagnose STUDY "
                           "--ledger LEDGER</i> runs the ladder (loader and repeatability, "
                           "neighbour interference, shape, kernels and runtime)."));
        return;
    }
    const analysis::Diagnosis& d = *rv.diagnosis;
    h.p(QStringLiteral("Probes on a seeded sample of %1 items (seed %2, batch %3); every probe "
                       "run is in the ledger.")
            .arg(d.sample)
            .arg(d.seed)
            .arg(d.batch));
    std::vector<QStringList> steps;
    std::vector<QString> colours;
    int k = 1;
    for (const analysis::LadderStep& st : d.ladder) {
        const QString status = QString::fromLatin1(analysis::statusName(st.status));
        steps.push_back(
            {QString::number(k++), esc(st.step), esc(status), esc(st.finding), esc(st.verdict)});
        colours.push_back(st.status == analysis::StepStatus::Clean ? QStringLiteral("#dcefdc")
                          : st.status == analysis::StepStatus::Explains
                              ? QStringLiteral("#fbeacd")
                              : QStringLiteral("#f6d5d5"));
    }
    h.table({QStringLiteral("#"), QStringLiteral("suspect"), QStringLiteral("status"),
             QStringLiteral("evidence"), QStringLiteral("verdict")},
            steps, colours);
    h.h2(QStringLiteral("Probes"));
    std::vector<QStringList> probes;
    for (const analysis::ProbeRow& r : d.table) {
        probes.push_back({esc(r.what), formatPoints(r.max_dp), esc(r.first_layer),
                          QStringLiteral("%1 / %2").arg(r.flips).arg(r.items),
                          QStringLiteral("%1 / %2")
                              .arg(std::llround(r.bit_identical * double(r.items)))
                              .arg(r.items)});
    }
    h.table({QStringLiteral("what changed"), QStringLiteral("largest Δp"),
             QStringLiteral("first layer that differs"), QStringLiteral("flipped"),
             QStringLiteral("bit-identical")},
            probes);
    std::vector<QStringList> forecast;
    for (const analysis::FlipForecast& f : d.forecast) {
        forecast.push_back(
            {esc(f.config), QString::number(f.predicted_flips, 'f', 1),
             f.observed_flips ? QString::number(*f.observed_flips) : QStringLiteral("not run")});
    }
    if (!forecast.empty()) {
        h.h2(QStringLiteral("Fragility forecast against the full runs"));
        h.table({QStringLiteral("config"), QStringLiteral("predicted flips"),
                 QStringLiteral("observed flips")},
                forecast);
    }
}

// --- a generation study (a generation head): its agreement table, gap histograms, outputs

void generationTable(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("agreement"),
         QStringLiteral("Record-level and answer-level agreement of the generations"));
    if (rv.generation_rows.empty()) {
        h.p(QStringLiteral("No two finished generation runs of head <b>%1</b>: nothing can be "
                           "compared.")
                .arg(esc(rv.head)));
        return;
    }
    h.p(QStringLiteral("Each generation run decodes greedily; its outputs become records (%1) "
                       "%2. Each line compares two runs of the %3 items: run to run (the same "
                       "config twice, or only the arrival order differs), serving (the "
                       "concurrency differs: the batch a request shares is a hidden input) and "
                       "other configs against the reference <b>%4</b>. Records: distinct records "
                       "per item summed over the items, reference side / other side; Jaccard: "
                       "records in both over records in either, pooled over the items.")
            .arg(esc(rv.records.mode + (rv.records.lowercase ? ", lower case" : "")),
                 rv.records.reduction.empty()
                     ? QStringLiteral("with no answer reduction")
                     : QStringLiteral("and the answer is the %1 of them")
                           .arg(esc(rv.records.reduction == "count"
                                        ? std::string("number of distinct records")
                                        : std::string("most frequent"))))
            .arg(rv.items.size())
            .arg(esc(rv.reference_name)));
    std::vector<QStringList> rows;
    std::vector<QString> colours;
    for (const auto& g : rv.generation_rows) {
        const auto& c = g.cmp;
        const auto n = qulonglong(c.items.size());
        QStringList axes;
        for (const auto& a : g.differs_in) {
            axes << QString::fromStdString(a);
        }
        rows.push_back(
            {esc(generationRowName(g)) +
                 QStringLiteral("<br><small>runs %1 and %2</small>").arg(g.run_a).arg(g.run_b),
             esc(generationKindName(g.kind)),
             esc(axes.isEmpty() ? QStringLiteral("nothing") : axes.join(QStringLiteral(", "))),
             QStringLiteral("%1 / %2").arg(qulonglong(c.records_a)).arg(qulonglong(c.records_b)),
             QStringLiteral("%1 / %2 (%3)")
                 .arg(qulonglong(c.identical))
                 .arg(n)
                 .arg(formatShare(c.identicalShare())),
             QString::number(c.pooled_jaccard, 'f', 4),
             c.has_answers ? QStringLiteral("%1 / %2").arg(qulonglong(c.answers_agree)).arg(n)
                           : QStringLiteral("–")});
        colours.push_back(c.identical == c.items.size() ? QStringLiteral("#e3f2e1")
                          : c.has_answers && c.answers_agree < c.items.size()
                              ? QStringLiteral("#fbe3e0")
                              : QStringLiteral("#fdf1d8"));
    }
    h.table({QStringLiteral("comparison"), QStringLiteral("kind"), QStringLiteral("differs in"),
             QStringLiteral("records"), QStringLiteral("byte-identical"),
             QStringLiteral("Jaccard (pooled)"), QStringLiteral("answers agree")},
            rows, colours);
}

void generationGaps(Html& h, const analysis::Review& rv, QTextDocument* doc) {
    h.h1(QStringLiteral("forks"), QStringLiteral("Where outputs fork: logit gaps"));
    h.p(QStringLiteral("For each comparison whose outputs differ: the reference run's top-2 "
                       "logit gap at the first token where the two outputs diverge, against its "
                       "gap at every step it decoded (shares of each set per decade). Forks at "
                       "gaps far below the typical step are near-ties that the other run's "
                       "arithmetic (its batch, its kernels, its dtype) broke the other way."));
    int k = 0;
    for (const auto& g : rv.generation_rows) {
        if (g.cmp.identical == g.cmp.items.size()) {
            continue;
        }
        const QString img = QStringLiteral("img://gaps-%1").arg(k++);
        // The comparison is the chart's own title: a heading above an image can be left alone
        // at the foot of a page.
        QChart* chart = makeGapHistogram(g.cmp);
        chart->setTitle(QStringLiteral("%1: %2 of %3 outputs differ")
                            .arg(generationRowName(g))
                            .arg(qulonglong(g.cmp.items.size() - g.cmp.identical))
                            .arg(qulonglong(g.cmp.items.size())));
        doc->addResource(QTextDocument::ImageResource, QUrl(img), renderChart(chart, 640, 300));
        h.text += QStringLiteral("<p><img src=\"%1\" width=\"560\" height=\"262\"></p>").arg(img);
    }
    if (k == 0) {
        h.p(QStringLiteral("Every comparison is byte-identical: no output forked."));
    }
}

void generationOutputs(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    h.h1(QStringLiteral("outputs"), QStringLiteral("Outputs that differ, side by side"));
    const int perRow = std::max(1, std::min(o.maxFlipRows, 6));
    h.p(QStringLiteral("For each comparison whose outputs differ, the %1 items with the lowest "
                       "record Jaccard (different answers first): both outputs from the first "
                       "differing character on highlighted, and both record sets with the "
                       "records only one side has marked.")
            .arg(perRow));
    bool any = false;
    for (const auto& g : rv.generation_rows) {
        if (g.cmp.identical == g.cmp.items.size()) {
            continue;
        }
        any = true;
        std::vector<const analysis::GenerationItemDiff*> worst;
        for (const auto& d : g.cmp.items) {
            if (!d.identical) {
                worst.push_back(&d);
            }
        }
        std::stable_sort(worst.begin(), worst.end(), [](const auto* x, const auto* y) {
            return std::make_tuple(x->answer_a == x->answer_b, x->jaccard) <
                   std::make_tuple(y->answer_a == y->answer_b, y->jaccard);
        });
        if (worst.size() > std::size_t(perRow)) {
            worst.resize(std::size_t(perRow));
        }
        h.h2(generationRowName(g));
        for (const auto* d : worst) {
            std::int64_t item = -1;
            for (const auto& it : rv.items) {
                if (it.id == d->id) {
                    item = it.idx;
                }
            }
            const auto* a = rv.output(g.run_a, item);
            const auto* b = rv.output(g.run_b, item);
            h.text += QStringLiteral("<p><b>%1</b>: %2</p>")
                          .arg(esc(d->id), esc(shortText(rv.items[std::size_t(item)].text, 200)));
            h.text += outputsHtml(g, a, b, d);
            h.text += recordsHtml(
                g, a ? analysis::parseRecords(a->text, rv.records) : std::vector<std::string>(),
                b ? analysis::parseRecords(b->text, rv.records) : std::vector<std::string>(), d);
        }
    }
    if (!any) {
        h.p(QStringLiteral("Every comparison is byte-identical."));
    }
}

void generationLimits(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("limits"), QStringLiteral("What this report cannot tell you"));
    QStringList out;
    out << QStringLiteral("<b>Sample size.</b> %1 prompts. Where two runs agreed on every output, "
                          "the share of prompts whose output changes on data like this is below "
                          "%2 (95%, the rule of three: 3/n); rarer changes cannot be ruled out.")
               .arg(rv.items.size())
               .arg(formatShare(rv.items.empty() ? 1.0 : 3.0 / double(rv.items.size())));
    out << QStringLiteral("<b>Greedy decoding only.</b> Sampling adds its own randomness on top of "
                          "what is measured here; a server that samples diverges more, not less.");
    out << QStringLiteral("<b>A simulated server.</b> Concurrency and arrival order are simulated "
                          "by ProbAudit's continuous-batching scheduler on this runtime; a "
                          "production server's scheduler, kernels and device batch differently, "
                          "so its rates can differ. Run the same study on that runtime to know.");
    out << QStringLiteral("<b>Records are what the parser makes of the text.</b> A different "
                          "parser or normalisation (case, bullets, a regex) gives different "
                          "records and a different Jaccard; the parser used is stated above.");
    if (rv.records.reduction.empty()) {
        out << QStringLiteral("<b>No answer reduction.</b> The head defines none, so answer-level "
                              "agreement is not reported.");
    }
    h.text += QStringLiteral("<ul>");
    for (const auto& o : out) {
        h.text += QStringLiteral("<li>%1</li>").arg(o);
    }
    h.text += QStringLiteral("</ul>");
}

void definitions(Html& h) {
    h.h1(QStringLiteral("definitions"), QStringLiteral("Definitions"));
    const std::vector<std::pair<QString, QString>> terms = {
        {QStringLiteral("item"), QStringLiteral("one input: text, optional gold label, metadata.")},
        {QStringLiteral("decision head"),
         QStringLiteral("how the model turns an item into class probabilities: label tokens (an "
                        "LLM's next-token logits restricted to the label words, softmaxed), an "
                        "adapter (a linear head on a pooled hidden state), or a classifier inside "
                        "the checkpoint.")},
        {QStringLiteral("p"), QStringLiteral("the probability of the positive (or chosen) class.")},
        {QStringLiteral("Δp"), QStringLiteral("100 × |p_a − p_b|, in points (the largest over the "
                                              "classes).")},
        {QStringLiteral("decision"), QStringLiteral("the argmax class (or p ≥ threshold for a "
                                                    "binary head with a threshold).")},
        {QStringLiteral("flip"),
         QStringLiteral("the decision of an item differs between two runs.")},
        {QStringLiteral("agreement"), QStringLiteral("the share of items with the same decision in "
                                                     "two runs.")},
        {QStringLiteral("margin (logit gap)"),
         QStringLiteral("top-1 minus top-2 logit of the decision classes; items with a small "
                        "margin are near the boundary, where flips concentrate.")},
        {QStringLiteral("bit-identical"),
         QStringLiteral("every recorded float of an item (probabilities, logits, margin, layer "
                        "hashes) has the same bit pattern in both runs.")},
        {QStringLiteral("first divergent layer"),
         QStringLiteral("the first hidden state whose real-token (non-pad) values differ bitwise "
                        "between two runs; \"none (head only)\": the states match and only the "
                        "head's arithmetic moved.")},
        {QStringLiteral("ΔAcc and its interval"),
         QStringLiteral("accuracy of the config minus the reference's, with a paired bootstrap "
                        "95% interval over the items (10,000 resamples, seeded).")},
        {QStringLiteral("McNemar's exact test"),
         QStringLiteral("on the items only one of the two runs gets right: the chance of so "
                        "unbalanced a split if both runs were equally accurate.")},
        {QStringLiteral("three levels of reproduction"),
         QStringLiteral("accuracy (the interval of the difference contains 0), decisions (no "
                        "flips), probabilities (every item bit-identical).")},
        {QStringLiteral("runtime configuration (config)"),
         QStringLiteral("every setting that can change numerics without changing the model: "
                        "device, dtype, batch size, padding side and length, item order, "
                        "attention and kernel set, threads, deterministic algorithms, TF32, "
                        "cuDNN benchmark, CPU kernel capability.")},
        {QStringLiteral("environment fingerprint"),
         QStringLiteral("libtorch version and CUDA build, cuDNN/cuBLAS, GPU and driver, CPU model "
                        "and ISA, thread counts, numerics-relevant environment variables, kernel "
                        "libraries, ProbAudit version and commit.")},
        {QStringLiteral("pin / runtime lock"),
         QStringLiteral("a saved fingerprint plus the results it verified; a check names every "
                        "difference of a runtime that can move numbers.")},
        {QStringLiteral("kernel trace"),
         QStringLiteral("the operators and device kernels that actually ran, with counts.")},
        {QStringLiteral("noise floor"),
         QStringLiteral("the flips and Δp that runtime configuration alone causes; an A/B "
                        "difference means something only above it.")},
        {QStringLiteral("fragility forecast"),
         QStringLiteral("flips predicted from the reference margins and a probe sample before the "
                        "full run.")},
        {QStringLiteral("records (generation)"),
         QStringLiteral("what a pipeline extracts from a generated text: one per non-empty line, "
                        "JSON objects, or a regex's named groups, normalised; the answer is a "
                        "reduction over them (the most frequent record, or their count).")},
        {QStringLiteral("record Jaccard"),
         QStringLiteral("records in both runs over records in either (distinct per item); pooled: "
                        "the sums over the items, so every (item, record) pair counts once.")},
        {QStringLiteral("concurrency, arrival order"),
         QStringLiteral("the serving simulation: at most C requests decode together, joining "
                        "the running batch as slots free up, in an order drawn from the arrival "
                        "seed; concurrency 1 is the serial reference.")},
        {QStringLiteral("divergence point, top-2 logit gap"),
         QStringLiteral("the first generated token where two outputs differ; the reference's "
                        "largest minus second-largest next-token logit there (how near a tie "
                        "the choice was).")},
    };
    std::vector<QStringList> rows;
    for (const auto& [t, d] : terms) {
        rows.push_back({QStringLiteral("<b>%1</b>").arg(esc(t)), esc(d)});
    }
    h.table({QStringLiteral("term"), QStringLiteral("meaning")}, rows);
}

void limits(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("limits"), QStringLiteral("What this report cannot tell you"));
    QStringList out;
    const std::size_t n = rv.items.size();
    std::size_t labelled = 0;
    for (const auto& it : rv.items) {
        labelled += it.label.has_value();
    }
    std::int64_t maxFlips = 0;
    double widest = 0;
    for (const auto& row : rv.rows) {
        if (row.cmp && !row.reference) {
            maxFlips = std::max(maxFlips, row.cmp->flips);
            if (row.cmp->accuracy_diff) {
                widest =
                    std::max(widest, row.cmp->accuracy_diff->high - row.cmp->accuracy_diff->low);
            }
        }
    }
    out << QStringLiteral("<b>Sample size.</b> %1 items, %2 with a gold label. Where a config "
                          "flipped no decision, the flip rate on data like this is below %3 "
                          "(95%, the rule of three: 3/n); rarer flips cannot be ruled out. The "
                          "widest accuracy-difference interval is %4 points wide.")
               .arg(n)
               .arg(labelled)
               .arg(n > 0 ? formatShare(std::min(1.0, 3.0 / double(n))) : QStringLiteral("–"))
               .arg(QString::number(100 * widest, 'f', 2));
    // Axes the study never varied.
    const json configs = rv.study.value("configs", json::object());
    std::map<std::string, std::set<std::string>> seen;
    for (const auto& [name, c] : configs.items()) {
        for (const auto& [axis, v] : c.items()) {
            seen[axis].insert(v.is_string() ? v.get<std::string>() : v.dump());
        }
    }
    const std::vector<std::pair<std::string, std::vector<std::string>>> space = {
        {"device", {"cpu", "cuda:0"}},
        {"dtype", {"float32", "bfloat16", "float16"}},
        {"padding_side", {"right", "left"}},
        {"attention", {"math", "sdpa", "batch_invariant"}},
        {"kernels", {"default", "batch_invariant"}},
        {"deterministic", {"false", "true"}},
        {"tf32", {"false", "true"}},
    };
    QStringList untried;
    for (const auto& [axis, values] : space) {
        for (const auto& v : values) {
            if (!seen[axis].count(v) &&
                !(axis == "device" && v == "cuda:0" && seen[axis].count("cuda:1"))) {
                untried << QStringLiteral("%1 = %2").arg(QString::fromStdString(axis),
                                                         QString::fromStdString(v));
            }
        }
    }
    if (seen["batch_size"].size() <= 1) {
        untried << QStringLiteral("any batch size but %1")
                       .arg(QString::fromStdString(*seen["batch_size"].begin()));
    }
    if (!untried.isEmpty()) {
        out << QStringLiteral("<b>Configurations not tried.</b> No config of this study used: "
                              "%1. Their effect is unknown.")
                   .arg(esc(untried.join(QStringLiteral("; "))));
    }
    // Hardware and builds covered.
    std::set<std::string> cpus, torches, gpus;
    for (const auto& [hash, e] : rv.environments) {
        const auto cpu = e.find("cpu");
        if (cpu != e.end() && cpu->is_object()) {
            cpus.insert(cpu->value("model", "?") + " (" + cpu->value("aten_capability", "?") + ")");
        }
        const auto torch = e.find("torch");
        if (torch != e.end() && torch->is_object()) {
            torches.insert(torch->value("version", "?") + " CUDA build " +
                           torch->value("cuda_build", "none"));
        }
        const auto cuda = e.find("cuda");
        if (cuda != e.end() && cuda->is_object() && cuda->contains("devices") &&
            (*cuda)["devices"].is_array()) {
            for (const auto& d : (*cuda)["devices"]) {
                gpus.insert(d.value("name", "GPU"));
            }
        }
    }
    auto join = [](const std::set<std::string>& s) {
        QStringList l;
        for (const auto& x : s) {
            l << QString::fromStdString(x);
        }
        return l.join(QStringLiteral(", "));
    };
    out << QStringLiteral("<b>Hardware and builds covered.</b> CPU: %1. libtorch: %2. GPU: %3. "
                          "Other CPUs, GPU generations, drivers, CUDA and kernel-library builds "
                          "were not measured here; the field reports measured up to 14.4 points "
                          "of Δp between two CUDA builds of the same torch version.")
               .arg(esc(join(cpus)), esc(join(torches)),
                    gpus.empty() ? QStringLiteral("none (no run used a GPU)") : esc(join(gpus)));
    QStringList heads;
    for (const auto& x : rv.heads) {
        heads << QString::fromStdString(x);
    }
    out << QStringLiteral("<b>Heads.</b> This report covers the head variant %1%2.")
               .arg(esc(rv.head))
               .arg(heads.size() > 1 ? QStringLiteral(" (the ledger also holds: %1)")
                                           .arg(esc(heads.join(QStringLiteral(", "))))
                                     : QString());
    std::size_t nearCount = 0;
    if (rv.reference_run) {
        for (const auto& r : rv.data.at(rv.reference_run->id).records) {
            nearCount += std::abs(r.margin) < 0.1f;
        }
    }
    out << QStringLiteral("<b>Data.</b> One dataset; %1 of its items have a reference margin "
                          "below 0.1 logits. Data with more near-ties would flip more decisions "
                          "under the same configs.")
               .arg(n > 0 ? formatShare(double(nearCount) / double(n)) : QStringLiteral("–"));
    if (maxFlips == 0) {
        out << QStringLiteral("<b>No flips is not no risk.</b> Probabilities moved without "
                              "crossing the boundary on these items; items nearer the boundary "
                              "would cross it.");
    }
    for (const QString& o : out) {
        h.p(o);
    }
}

QString contents(const std::vector<Section>& sections, const std::vector<int>& pages) {
    QString t = QStringLiteral("<h2 style=\"page-break-before: always\">Contents</h2><table "
                               "width=\"100%\" cellpadding=\"4\">");
    for (std::size_t i = 0; i < sections.size(); ++i) {
        t += QStringLiteral("<tr><td><a href=\"#%1\">%2. %3</a></td><td align=\"right\">%4</td>"
                            "</tr>")
                 .arg(sections[i].anchor)
                 .arg(i + 1)
                 .arg(esc(sections[i].title))
                 .arg(i < pages.size() && pages[i] > 0 ? QString::number(pages[i])
                                                       : QStringLiteral("00"));
    }
    return t + QStringLiteral("</table>");
}

} // namespace

int buildReportDocument(const analysis::Review& review, const ReportOptions& options,
                        const QSizeF& pageSize, QTextDocument* doc) {
    // Charts and the heatmap are drawn in the light palette (print).
    auto rv = std::shared_ptr<const analysis::Review>(&review, [](const analysis::Review*) {});
    Html h;
    cover(h, review, options);
    const QString coverHtml = h.text;
    // Sections in order; their HTML is assembled after the contents.
    Html all;
    if (review.generation) {
        generationTable(all, review);
        generationGaps(all, review, doc);
        generationOutputs(all, review, options);
        definitions(all);
        generationLimits(all, review);
    } else {
        headline(all, review);
        distributions(all, review, doc);
        layers(all, rv, doc);
        items(all, review, options);
        diagnosis(all, review);
        definitions(all);
        limits(all, review);
    }
    doc->setDefaultStyleSheet(
        QStringLiteral("h1 { font-size: 18pt; } "
                       "h2 { font-size: 13pt; margin-top: 6px; } h3 { font-size: 10.5pt; } "
                       "th { font-size: 7.5pt; } td { font-size: 7.5pt; }"));
    // No ligatures: text copied or extracted from the PDF must read "fi", not "ﬁ" (a letter
    // spacing other than 0 turns Qt's ligatures off).
    QFont base(QStringLiteral("DejaVu Sans"));
    base.setPointSizeF(9);
    base.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    doc->setDefaultFont(base);
    doc->setPageSize(pageSize);
    std::vector<int> pages;
    int count = 0;
    for (int pass = 0; pass < 3; ++pass) {
        doc->setHtml(QStringLiteral("<html><body>") + coverHtml + contents(all.sections, pages) +
                     all.text + QStringLiteral("</body></html>"));
        {
            QTextCursor c(doc);
            c.select(QTextCursor::Document);
            QTextCharFormat noLigatures;
            noLigatures.setFontLetterSpacingType(QFont::AbsoluteSpacing);
            noLigatures.setFontLetterSpacing(0.05); // px; below 1/64 Qt rounds it to 0
            c.mergeCharFormat(noLigatures);
        }
        // The page of every section heading (its anchor).
        std::vector<int> found(all.sections.size(), 0);
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QTextCharFormat f = it.fragment().charFormat();
                if (!f.isAnchor()) {
                    continue;
                }
                for (const QString& name : f.anchorNames()) {
                    for (std::size_t s = 0; s < all.sections.size(); ++s) {
                        if (all.sections[s].anchor == name) {
                            const QRectF r = doc->documentLayout()->blockBoundingRect(b);
                            found[s] = int(r.top() / pageSize.height()) + 1;
                        }
                    }
                }
            }
        }
        count = doc->pageCount();
        if (found == pages) {
            break;
        }
        pages = found;
    }
    return count;
}

namespace {

// The report is written in English whatever language the workbench speaks: while it is built,
// a translator on top of the others answers every lookup (the charts' and the generation
// view's shared pieces) with the source text.
class SourceText : public QTranslator {
public:
    SourceText() { QCoreApplication::installTranslator(this); }
    ~SourceText() override { QCoreApplication::removeTranslator(this); }
    SourceText(const SourceText&) = delete;
    SourceText& operator=(const SourceText&) = delete;
    QString translate(const char*, const char* sourceText, const char*, int) const override {
        return QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

bool writeReport(const analysis::Review& review, const ReportOptions& options, QString* error) {
    const SourceText english;
    QPdfWriter pdf(options.output);
    if (!QFileInfo(QFileInfo(options.output).absolutePath()).isWritable()) {
        *error = QStringLiteral("%1: the folder is not writable").arg(options.output);
        return false;
    }
    pdf.setResolution(96);
    pdf.setPageSize(options.pageSize);
    pdf.setPageMargins(QMarginsF(15, 15, 15, 18), QPageLayout::Millimeter);
    pdf.setTitle(QStringLiteral("ProbAudit report: %1")
                     .arg(QString::fromStdString(review.study.value("name", ""))));
    pdf.setCreator(QStringLiteral("ProbAudit %1").arg(QString::fromLatin1(engineVersion())));
    const QRectF paint = pdf.pageLayout().paintRectPixels(96);
    const double footer = 22;
    const QSizeF page(paint.width(), paint.height() - footer);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&pdf);
    const int pages = buildReportDocument(review, options, page, &doc);
    QPainter p;
    if (!p.begin(&pdf)) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    const QString study = QString::fromStdString(review.study.value("name", ""));
    for (int i = 0; i < pages; ++i) {
        if (i > 0) {
            pdf.newPage();
        }
        p.save();
        p.translate(0, -i * page.height());
        doc.drawContents(&p, QRectF(0, i * page.height(), page.width(), page.height()));
        p.restore();
        p.setPen(QColor(0x60, 0x60, 0x60));
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPointSizeF(7.5);
        f.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
        p.setFont(f);
        const QRectF foot(0, page.height() + 6, page.width(), footer - 6);
        p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("ProbAudit report · %1").arg(study));
        p.drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    if (!p.end()) {
        *error = QStringLiteral("%1 cannot be written").arg(options.output);
        return false;
    }
    return true;
}

} // namespace ui
} // namespace probaudit
