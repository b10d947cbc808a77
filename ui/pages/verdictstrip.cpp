#include "ui/pages/verdictstrip.h"

#include "core/policy/gate.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace probaudit::ui {

namespace {
struct Evaluation {
    std::shared_ptr<const policy::GateResult> result;
    std::string error;
};
} // namespace

VerdictStrip::VerdictStrip(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("verdictStrip"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    setMargin(4);
    connect(this, &QLabel::linkActivated, this, &VerdictStrip::onLink);
    hide();
}

VerdictStrip::~VerdictStrip() = default;

void VerdictStrip::setReview(const ReviewPtr& review) {
    m_review = review;
    m_result.reset();
    const int generation = ++m_generation;
    if (!review || !review->study.contains("policy")) {
        hide();
        return;
    }
    setStyleSheet(QString());
    setText(tr("Policy: evaluating…"));
    QLabel::show();
    auto* watcher = new QFutureWatcher<Evaluation>(this);
    connect(watcher, &QFutureWatcher<Evaluation>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation) {
            const Evaluation e = watcher->result();
            show(e.result, e.error);
        }
    });
    watcher->setFuture(QtConcurrent::run([path = review->path] {
        Evaluation e;
        try {
            e.result = std::make_shared<const policy::GateResult>(policy::gate(path));
        } catch (const std::exception& ex) {
            e.error = ex.what();
        }
        return e;
    }));
}

void VerdictStrip::show(const std::shared_ptr<const policy::GateResult>& result,
                        const std::string& error) {
    m_result = result;
    const auto paint = [this](const char* background) {
        setStyleSheet(QStringLiteral("QLabel { background-color: %1; color: #ffffff; }")
                          .arg(QLatin1String(background)));
    };
    if (!result) {
        paint("#6d4c41");
        setText(tr("Policy: cannot be evaluated: %1")
                    .arg(QString::fromStdString(error).toHtmlEscaped()));
    } else if (!result->tampered.empty()) {
        paint("#c62828");
        setText(tr("Policy: <b>not judged</b>: the ledger was changed after it was sealed (%1).")
                    .arg(QString::fromStdString(result->tampered).toHtmlEscaped()));
    } else {
        const policy::GateResult& g = *result;
        paint(g.failed > 0 ? "#c62828" : g.unknown > 0 ? "#ef6c00" : "#2e7d32");
        QString text =
            tr("Policy verdict: <b>%1</b> (%2 passed, %3 failed, %4 cannot be evaluated); "
               "policy %5.")
                .arg(g.failed > 0    ? tr("FAIL")
                     : g.unknown > 0 ? tr("INCOMPLETE")
                                     : tr("PASS"))
                .arg(g.passed)
                .arg(g.failed)
                .arg(g.unknown)
                .arg(QString::fromStdString(g.registration).toHtmlEscaped());
        QStringList checks;
        for (std::size_t i = 0; i < g.rows.size(); ++i) {
            const policy::GateRow& r = g.rows[i];
            if (r.outcome == policy::Outcome::Pass) {
                continue;
            }
            const QString name = QStringLiteral("%1 / %2 / %3")
                                     .arg(QString::fromStdString(r.rule),
                                          QString::fromLatin1(criterionName(r.criterion).data()),
                                          QString::fromStdString(r.config))
                                     .toHtmlEscaped();
            const bool here = m_review && r.head == m_review->head && !r.config.empty();
            checks << (here ? QStringLiteral("<a style=\"color:#ffffff\" href=\"%1\">%2</a>")
                                  .arg(i)
                                  .arg(name)
                            : name);
        }
        if (!checks.isEmpty()) {
            text += QLatin1Char(' ') + tr("Not passed: %1").arg(checks.join(QStringLiteral(", ")));
        }
        setText(text);
    }
    Q_EMIT evaluated();
}

void VerdictStrip::onLink(const QString& link) {
    bool ok = false;
    const int i = link.toInt(&ok);
    if (!ok || !m_result || i < 0 || std::size_t(i) >= m_result->rows.size()) {
        return;
    }
    const policy::GateRow& r = m_result->rows[std::size_t(i)];
    std::vector<std::int64_t> items = r.flagged;
    std::sort(items.begin(), items.end());
    Q_EMIT checkClicked(
        QString::fromStdString(r.config), items,
        tr("%1: %2").arg(QString::fromStdString(r.rule), QString::fromStdString(r.detail)));
}

} // namespace probaudit::ui
