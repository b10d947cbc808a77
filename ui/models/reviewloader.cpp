#include "ui/models/reviewloader.h"

#include "core/analysis/variants.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace probaudit::ui {

ReviewLoader::ReviewLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ReviewPtr>();
}

ReviewLoader::~ReviewLoader() {
    cancel();
    if (m_watcher != nullptr) {
        m_watcher->waitForFinished();
    }
}

bool ReviewLoader::isRunning() const {
    return m_watcher != nullptr && m_watcher->isRunning();
}

void ReviewLoader::cancel() {
    if (m_cancel) {
        m_cancel->store(true);
    }
}

namespace {

// A study with model variants: its variants table, KL columns included (they read every
// compared run's vocabulary from the ledger, so never on the GUI thread).
ReviewPtr withVariants(analysis::Review rv) {
    if (rv.study.contains("models") && !rv.generation && rv.reference_run) {
        auto table = std::make_shared<analysis::VariantTable>(analysis::variantTable(rv));
        analysis::addVocabularyKl(*table, ledger::Ledger(rv.path, ledger::Ledger::Mode::Read));
        rv.variants = std::move(table);
    }
    return std::make_shared<const analysis::Review>(std::move(rv));
}

} // namespace

ReviewPtr ReviewLoader::loadNow(const QString& ledgerPath, const QString& head) {
    return withVariants(analysis::loadReview(ledgerPath.toStdString(), head.toStdString()));
}

void ReviewLoader::load(const QString& ledgerPath, const QString& head) {
    if (m_watcher != nullptr) {
        cancel();
        m_watcher->disconnect(this);
        m_watcher->waitForFinished();
        m_watcher->deleteLater();
        m_watcher = nullptr;
    }
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    auto last = std::make_shared<std::atomic<int>>(-1);
    m_cancel = cancelFlag;
    m_lastPermille = last;
    const std::string path = ledgerPath.toStdString();
    const std::string headName = head.toStdString();
    m_watcher = new QFutureWatcher<Result>(this);
    connect(m_watcher, &QFutureWatcher<Result>::finished, this, &ReviewLoader::onFinished);
    m_watcher->setFuture(QtConcurrent::run([this, path, headName, cancelFlag, last]() -> Result {
        try {
            auto report = [&](float f) {
                // Throttled: a signal only when the permille value moves by 10 or more.
                const int pm = int(f * 1000);
                if (pm - last->load() >= 10 || pm == 1000) {
                    last->store(pm);
                    // Queued to the GUI thread; the destructor waits for this worker.
                    QMetaObject::invokeMethod(
                        this, [this, pm] { Q_EMIT this->progress(pm); }, Qt::QueuedConnection);
                }
                return !cancelFlag->load();
            };
            // The chain is verified by the window afterwards, in the background: reading every
            // sealed run again must not delay the dashboard.
            return {withVariants(analysis::loadReview(path, headName, report, false)), {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromStdString(e.what())};
        }
    }));
}

void ReviewLoader::onFinished() {
    const Result r = m_watcher->result();
    const bool cancelled = m_cancel && m_cancel->load();
    m_watcher->deleteLater();
    m_watcher = nullptr;
    if (cancelled) {
        return;
    }
    if (r.review) {
        Q_EMIT loaded(r.review);
    } else {
        Q_EMIT failed(r.error);
    }
}

} // namespace probaudit::ui
