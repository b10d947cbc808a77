#pragma once
// Opens a ledger off the GUI thread: reads runs and records and compares every config with
// the reference (analysis::loadReview) in a worker, reports progress on a 0–1000 scale
// (throttled), and hands the finished Review to the GUI thread. Cancellable.
#include "core/analysis/review.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace probaudit::ui {

using ReviewPtr = std::shared_ptr<const analysis::Review>;

class ReviewLoader : public QObject {
    Q_OBJECT
public:
    explicit ReviewLoader(QObject* parent = nullptr);
    ~ReviewLoader() override;

    // Starts loading (a running load is cancelled first).
    void load(const QString& ledgerPath, const QString& head = QString());
    void cancel();
    bool isRunning() const;
    // Loads on the calling thread (the screenshot tour and tests); throws probaudit::Error.
    static ReviewPtr loadNow(const QString& ledgerPath, const QString& head = QString());

Q_SIGNALS:
    void progress(int permille);
    void loaded(const probaudit::ui::ReviewPtr& review);
    void failed(const QString& message);

private:
    struct Result {
        ReviewPtr review;
        QString error;
    };
    void onFinished();

    QFutureWatcher<Result>* m_watcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<int>> m_lastPermille;
};

} // namespace probaudit::ui

Q_DECLARE_METATYPE(probaudit::ui::ReviewPtr)
