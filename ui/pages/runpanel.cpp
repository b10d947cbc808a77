#include "ui/pages/runpanel.h"

#include "ui/models/colors.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace probaudit::ui {

namespace {
QString duration(double seconds) {
    if (seconds < 0) {
        return QStringLiteral("–");
    }
    const int s = int(std::lround(seconds));
    return s >= 60 ? QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar(u'0'))
                   : QStringLiteral("%1 s").arg(s);
}
} // namespace

RunPanel::RunPanel(RunController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller) {
    setObjectName(QStringLiteral("runPanel"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("runStatus"));
    m_status->setWordWrap(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelRun"));
    m_cancel->setToolTip(tr("Stop after the current batch; every finished batch stays in the "
                            "ledger and the run can be resumed."));
    m_cancel->setEnabled(false);
    m_rowsBox = new QWidget(this);
    m_rowsLayout = new QVBoxLayout(m_rowsBox);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_rowsBox);
    layout->addStretch(1);

    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_controller->cancel();
        m_cancel->setEnabled(false);
        m_status->setText(tr("Stopping after the current batch…"));
    });
    connect(controller, &RunController::runStarted, this,
            [this](qint64 run, const QString& config, qint64 items, qint64 resumed) {
                m_runConfig.insert(run, config);
                Row& r = rowFor(config);
                r.bar->setRange(0, int(items));
                r.bar->setValue(int(resumed));
                r.status->setText(resumed > 0 ? tr("resumed at %1").arg(resumed) : tr("running"));
                m_status->setText(tr("Running %1 (run %2)…").arg(config).arg(run));
            });
    connect(controller, &RunController::runSkipped, this,
            [this](qint64, const QString& config, const QString& reason) {
                Row& r = rowFor(config);
                r.bar->setRange(0, 1);
                r.bar->setValue(1);
                r.status->setText(tr("already recorded"));
                r.status->setToolTip(reason);
            });
    connect(controller, &RunController::progress, this,
            [this](qint64 run, qint64 done, qint64 total, double ips, double eta) {
                Row& r = rowFor(m_runConfig.value(run));
                r.bar->setRange(0, int(total));
                r.bar->setValue(int(done));
                r.rate->setText(
                    tr("%1 items/s · ETA %2")
                        .arg(QString::number(ips, 'f', ips < 10 ? 1 : 0), duration(eta)));
            });
    connect(controller, &RunController::servingMeasured, this,
            [this](qint64 run, double ips, double inFlight) {
                Row& r = rowFor(m_runConfig.value(run));
                r.rate->setText(tr("%1 items/s · %2 requests in flight")
                                    .arg(QString::number(ips, 'f', ips < 10 ? 2 : 0),
                                         QString::number(inFlight, 'f', 2)));
                r.rate->setToolTip(tr("Measured from the requests' send and reply times: the "
                                      "server may work on fewer requests at once than the "
                                      "config's concurrency asks for"));
            });
    connect(controller, &RunController::runFinished, this,
            [this](qint64, const QString& config, const QString& status) {
                Row& r = rowFor(config);
                r.status->setText(status == QLatin1String("finished") ? tr("finished") : status);
                if (status == QLatin1String("finished")) {
                    r.bar->setValue(r.bar->maximum());
                }
            });
    connect(controller, &RunController::finished, this, &RunPanel::onFinished);
}

RunPanel::Row& RunPanel::rowFor(const QString& config) {
    auto it = m_rows.find(config);
    if (it != m_rows.end()) {
        return *it;
    }
    Row r;
    auto* w = new QWidget(m_rowsBox);
    auto* h = new QHBoxLayout(w);
    h->setContentsMargins(0, 0, 0, 0);
    r.name = new QLabel(config, w);
    r.name->setMinimumWidth(140);
    r.bar = new QProgressBar(w);
    r.bar->setObjectName(QStringLiteral("runBar-") + config);
    r.bar->setFormat(QStringLiteral("%v / %m"));
    r.bar->setValue(0);
    r.rate = new QLabel(w);
    r.rate->setObjectName(QStringLiteral("runRate-") + config);
    r.rate->setMinimumWidth(180);
    r.status = new QLabel(tr("waiting"), w);
    r.status->setMinimumWidth(120);
    h->addWidget(r.name);
    h->addWidget(r.bar, 1);
    h->addWidget(r.rate);
    h->addWidget(r.status);
    m_rowsLayout->addWidget(w);
    return *m_rows.insert(config, r);
}

void RunPanel::begin(const QStringList& configs) {
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        it->name->parentWidget()->deleteLater();
    }
    m_rows.clear();
    m_runConfig.clear();
    for (const QString& c : configs) {
        rowFor(c);
    }
    m_status->setText(tr("Starting the engine…"));
    m_status->setStyleSheet(QString());
    m_cancel->setEnabled(true);
}

void RunPanel::onFinished(RunController::Outcome outcome, const QString& message) {
    m_cancel->setEnabled(false);
    if (outcome == RunController::Outcome::Finished) {
        m_status->setText(tr("All runs finished."));
        m_status->setStyleSheet(QString());
        return;
    }
    m_status->setText(message);
    const QColor c = outcome == RunController::Outcome::Cancelled ? changedColor() : flipColor();
    m_status->setStyleSheet(
        QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(c.name()));
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        if (it->status->text() == tr("running") || it->status->text().startsWith(tr("resumed"))) {
            it->status->setText(outcome == RunController::Outcome::Cancelled ? tr("interrupted")
                                                                             : tr("failed"));
        }
    }
}

QString RunPanel::statusText() const {
    return m_status->text();
}

QProgressBar* RunPanel::barOf(const QString& config) const {
    const auto it = m_rows.find(config);
    return it == m_rows.end() ? nullptr : it->bar;
}

} // namespace probaudit::ui
