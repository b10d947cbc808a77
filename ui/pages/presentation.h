#pragma once
// Presentation mode for stakeholder demos: full screen, large type, a guided sequence driven by
// the arrow keys (or Space / Page Up / Page Down). A decision study: the headline, the near-tie
// histogram, the flip rate per margin bin of every config, one flipped item (or the most-moved
// one), the per-layer heatmap, the diagnosis. A generation study: the headline with the
// concurrency table, one prompt whose outputs diverge with its tokens, the gap histogram. Esc
// leaves.
#include "ui/models/reviewloader.h"

#include <QWidget>

class QLabel;
class QStackedWidget;

namespace probaudit::ui {

class PresentationWindow : public QWidget {
    Q_OBJECT
public:
    // `row`: the dashboard row to present (the comparison of the review page); a generation
    // study presents its most telling comparison.
    PresentationWindow(const ReviewPtr& review, int row, QWidget* parent = nullptr);
    int slideCount() const;
    int currentSlide() const;
    void showSlide(int index);
    QString slideTitle(int index) const;

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    QWidget* slide(const QString& title, const QString& subtitle, QWidget* body);
    void addHeadlineSlide(const QFont& big);
    void addBoundarySlide(const analysis::ReviewRow* rr);
    void addNearTieSlide();
    void addItemSlide(const analysis::ReviewRow* rr, int row, const QFont& big);
    void addLayersSlide();
    void addDiagnosisSlide(const QFont& big);
    void addGenerationSlides(const QFont& big);

    ReviewPtr m_review;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_footer = nullptr;
    QStringList m_titles;
};

// The item a presentation or a tour shows: a flip with the largest Δp, else the largest Δp.
std::int64_t tellingItem(const analysis::Review& review, int row);

} // namespace probaudit::ui
